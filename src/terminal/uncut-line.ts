import { STYLE_ENDS, styleStarted } from './sgr-state';

/**
 * When a clipped line fits its clip whole, slice-ansi gives the line back unchanged as long as its
 * only escapes are colour/style codes (SGR) and it closes every style it opens (the way chalk, and so
 * Ink's <Text>, writes them). Skipping slice-ansi there saves its grapheme tokenizer on every new
 * line, and on the first frame the first grapheme segmenter (ICU's break data, about 19 ms).
 * test/unit/render/uncut-line.test.ts holds this against slice-ansi itself. The kinds of style
 * are sgr-state.ts's.
 */

/** Codes whose opening slice-ansi was not checked against (blink, rapid blink, double underline). */
const UNCHECKED = new Set([5, 6, 21]);

// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[([0-9;]*)m/g;

/** True when slicing the whole line with slice-ansi would return it as it is (see above). */
export function isWholeStyledLine(line: string): boolean {
  if (!line.includes('\x1b')) return true;
  let open = 0;
  let escapes = 0;
  // slice-ansi stops at the last visible character: codes after it survive only as closings.
  const tailStart = /(?:\x1b\[[0-9;]*m)+$/.exec(line)?.index ?? line.length;
  // A style opened and closed with no text between is dropped by slice-ansi too.
  let openedInRun = 0;
  let runEnd = -1;
  for (const match of line.matchAll(SGR)) {
    escapes += 1;
    if (match.index !== runEnd) openedInRun = 0;
    runEnd = match.index + match[0].length;
    const params = match[1] === '' ? [0] : match[1]!.split(';').map(Number);
    const inTail = match.index >= tailStart;
    for (let index = 0; index < params.length; index++) {
      const code = params[index]!;
      // slice-ansi writes a closing once, for a style that is open: a second or stray one is dropped.
      const ends = code === 0 ? open : STYLE_ENDS[code];
      if (ends !== undefined) {
        if ((ends & open) === 0 || (ends & openedInRun) !== 0) return false;
        open &= ~ends;
        continue;
      }
      const kind = styleStarted(code);
      if (inTail || kind <= 0 || UNCHECKED.has(code)) return false;
      open |= kind;
      openedInRun |= kind;
      // 38;5;n and 38;2;r;g;b: the colour's numbers are not codes of their own.
      if (code === 38 || code === 48) index += params[index + 1] === 5 ? 2 : params[index + 1] === 2 ? 4 : 0;
    }
  }
  // Any other escape (a hyperlink, a cursor move) is left to slice-ansi.
  const escapeCount = line.split('\x1b').length - 1;
  return escapeCount === escapes && open === 0;
}
