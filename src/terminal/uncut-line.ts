/**
 * When a clipped line fits its clip whole, slice-ansi gives the line back unchanged as long as its
 * only escapes are colour/style codes (SGR) and it closes every style it opens (the way chalk, and so
 * Ink's <Text>, writes them). Skipping slice-ansi there saves its grapheme tokenizer on every new
 * line, and on the first frame the first grapheme segmenter (ICU's break data, about 19 ms).
 * test/unit/render/uncut-line.test.ts holds this against slice-ansi itself.
 */

/** Each style's closing code, by the codes that open it. */
const CLOSES: ReadonlyMap<number, number> = new Map([
  [1, 22],
  [2, 22],
  [3, 23],
  [4, 24],
  [7, 27],
  [8, 28],
  [9, 29],
  [53, 55],
  ...range(30, 38).map((code) => [code, 39] as [number, number]),
  ...range(90, 97).map((code) => [code, 39] as [number, number]),
  ...range(40, 48).map((code) => [code, 49] as [number, number]),
  ...range(100, 107).map((code) => [code, 49] as [number, number]),
]);
const CLOSING_CODES: ReadonlySet<number> = new Set(CLOSES.values());

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[([0-9;]*)m/g;

/** True when slicing the whole line with slice-ansi would return it as it is (see above). */
export function isWholeStyledLine(line: string): boolean {
  if (!line.includes('\x1b')) return true;
  const open = new Set<number>();
  let escapes = 0;
  // slice-ansi stops at the last visible character: codes after it survive only as closings.
  const tailStart = /(?:\x1b\[[0-9;]*m)+$/.exec(line)?.index ?? line.length;
  // A style opened and closed with no text between is dropped by slice-ansi too.
  let openedInRun = new Set<number>();
  let runEnd = -1;
  for (const match of line.matchAll(SGR)) {
    escapes += 1;
    if (match.index !== runEnd) openedInRun = new Set();
    runEnd = match.index + match[0].length;
    const params = match[1] === '' ? [0] : match[1]!.split(';').map(Number);
    const inTail = match.index >= tailStart;
    for (let index = 0; index < params.length; index++) {
      const code = params[index]!;
      // slice-ansi writes a closing once, for a style that is open: a second or stray one is dropped.
      if (code === 0 || CLOSING_CODES.has(code)) {
        if (code === 0 ? open.size === 0 : !open.has(code)) return false;
        if (code === 0 ? openedInRun.size > 0 : openedInRun.has(code)) return false;
      } else if (inTail) return false;
      if (code === 0) open.clear();
      else if (code === 38 || code === 48) {
        open.add(code === 38 ? 39 : 49);
        openedInRun.add(code === 38 ? 39 : 49);
        // 38;5;n and 38;2;r;g;b: the colour's numbers are not codes of their own.
        index += params[index + 1] === 5 ? 2 : params[index + 1] === 2 ? 4 : 0;
      } else if (CLOSING_CODES.has(code)) open.delete(code);
      else {
        const close = CLOSES.get(code);
        if (close === undefined) return false;
        open.add(close);
        openedInRun.add(close);
      }
    }
  }
  // Any other escape (a hyperlink, a cursor move) is left to slice-ansi.
  const escapeCount = line.split('\x1b').length - 1;
  return escapeCount === escapes && open.size === 0;
}
