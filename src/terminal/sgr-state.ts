/**
 * What SGR codes leave switched on, for the screen writer: whether a row leaves a style open (the
 * next erase would fill with it), and the shortest output for cells that were just erased.
 */

// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[([0-9;:]*)m/g;

/** SGR parameters that end one kind of style, and the kinds they end. */
export const STYLE_ENDS: Record<number, number> = { 22: 0b11, 23: 0b100, 24: 0b1000, 25: 0b10000, 27: 0b100000, 28: 0b1000000, 29: 0b10000000, 39: 0b100000000, 49: 0b1000000000 };
/** The kind of style an SGR parameter starts (-1: one this writer does not know, so assume it stays open). */
export function styleStarted(code: number): number {
  if (code === 1) return 0b1;
  if (code === 2) return 0b10;
  if (code === 3) return 0b100;
  if (code === 4 || code === 21) return 0b1000;
  if (code === 5 || code === 6) return 0b10000;
  if (code === 7) return 0b100000;
  if (code === 8) return 0b1000000;
  if (code === 9) return 0b10000000;
  if ((code >= 30 && code <= 38) || (code >= 90 && code <= 97)) return 0b100000000;
  if ((code >= 40 && code <= 48) || (code >= 100 && code <= 107)) return 0b1000000000;
  return -1;
}

/**
 * Whether `text`, written from the default style, leaves a style on after it (then the next row
 * needs a reset before it erases).
 */
export function leavesStyleOpen(text: string): boolean {
  let open = 0;
  SGR.lastIndex = 0;
  for (let match = SGR.exec(text); match; match = SGR.exec(text)) {
    open = afterSgr(open, match[1]!);
    if (open === UNKNOWN) return true;
  }
  return open !== 0;
}

/** A style this writer does not know: assumed to stay open and to show on blank cells. */
const UNKNOWN = -1;

/** The open kinds of style after one SGR sequence (its parameters) from `open`. */
function afterSgr(open: number, parameters: string): number {
  const params = parameters.split(/[;:]/);
  for (let index = 0; index < params.length; index++) {
    const code = params[index] === '' ? 0 : Number(params[index]);
    if (code === 0) open = 0;
    else if (STYLE_ENDS[code] !== undefined) open &= ~STYLE_ENDS[code]!;
    else {
      const started = styleStarted(code);
      if (started < 0) return UNKNOWN;
      open |= started;
      // 38;5;n and 38;2;r;g;b carry the colour as further parameters.
      if ((code === 38 || code === 48) && params[index + 1] === '5') index += 2;
      else if ((code === 38 || code === 48) && params[index + 1] === '2') index += 4;
    }
  }
  return open;
}

/** Kinds of style that show on a space: underline, blink, inverse, strike-through, background. */
const VISIBLE_ON_BLANK = 0b1000 | 0b10000 | 0b100000 | 0b10000000 | 0b1000000000;
/** Runs of at least this many spaces are skipped with a cursor move (shorter than writing them). */
const SPACE_RUN = / {5,}/g;

/** The kind a lone SGR code starts, or 0 when it is not one code starting one known kind. */
function loneOpening(parameters: string): number {
  if (!/^\d+$/.test(parameters) || parameters === '38' || parameters === '48') return 0;
  return Math.max(0, styleStarted(Number(parameters)));
}

/**
 * `text` as it may be written over cells just erased to the default style: a style switched on and
 * straight off again (with nothing between, and nothing else switched off by it) is left out, runs of spaces nothing
 * shows on are skipped with a cursor move, and such spaces at the very end are not written. The
 * screen looks the same (test/unit/render/screen-writer.test.ts draws both in a terminal emulator).
 */
export function overErasedCells(text: string): string {
  if (!text.includes('\x1b[') && !text.includes('     ')) return text;
  const sequences = [...text.matchAll(SGR)];
  let out = '';
  let open = 0;
  let last = 0;
  const plain = (chunk: string, atEnd: boolean) => {
    if (open === UNKNOWN || (open & VISIBLE_ON_BLANK) !== 0) return chunk;
    return chunk.replace(SPACE_RUN, (run: string, offset: number) => (atEnd && offset + run.length === chunk.length ? '' : `\x1b[${run.length}C`));
  };
  for (let index = 0; index < sequences.length; index++) {
    const match = sequences[index]!;
    out += plain(text.slice(last, match.index), false);
    last = match.index + match[0].length;
    const next = sequences[index + 1];
    const started = loneOpening(match[1]!);
    if (open !== UNKNOWN && started > 0 && (open & started) === 0 && next && next.index === last && /^\d+$/.test(next[1]!)) {
      const ends = STYLE_ENDS[Number(next[1])];
      if (ends !== undefined && (ends & started) === started && (ends & open) === 0) {
        // Switched on and off with nothing between: neither is written.
        last = next.index + next[0].length;
        index += 1;
        continue;
      }
    }
    out += match[0];
    if (open !== UNKNOWN) open = afterSgr(open, match[1]!);
  }
  return out + plain(text.slice(last), true);
}

/**
 * The SGR sequences that put back the style in force after `prefix`, written from the default
 * style: those after the last point where nothing was on (often none at all).
 */
export function stylesInForce(prefix: string): string {
  const sequences = prefix.match(SGR);
  if (!sequences) return '';
  let open = 0;
  let from = 0;
  for (let index = 0; index < sequences.length; index++) {
    const sequence = sequences[index]!;
    open = open === UNKNOWN ? UNKNOWN : afterSgr(open, sequence.slice(2, -1));
    if (open === 0) from = index + 1;
  }
  return sequences.slice(from).join('');
}
