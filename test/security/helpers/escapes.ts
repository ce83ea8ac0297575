import { expect } from 'vitest';

/**
 * What aish-tui itself writes to the terminal, as an allow-list: styling, cursor movement, erasing
 * and scrolling, and the four modes it sets. Anything else that reaches the terminal raw — OSC
 * (clipboard, hyperlinks, titles), DCS/APC/PM strings, queries that make the terminal answer on
 * stdin, other mode changes (mouse, keyboard protocols), C0/C1 controls, DEL, bidi controls — came
 * from untrusted text that slipped past the sanitizer.
 */
const OURS: RegExp[] = [
  // SGR: colours and attributes (Ink/chalk and the screen writer's resets).
  /^\x1b\[[0-9;:]*m/,
  // Cursor position, column, up/down/forward/back (the screen writer addresses rows absolutely).
  /^\x1b\[[0-9]*(;[0-9]*)?H/,
  /^\x1b\[[0-9]*[GABCD]/,
  // Erase in line, erase in display, erase characters.
  /^\x1b\[[012]?K/,
  /^\x1b\[[0-3]?J/,
  /^\x1b\[[0-9]*X/,
  // Scrolling: a scroll region (set and reset) and scrolling it up or down.
  /^\x1b\[([0-9]+;[0-9]+)?r/,
  /^\x1b\[[0-9]*[ST]/,
  // Cursor hide/show, alternate screen, focus reports, bracketed paste mode, synchronized output.
  /^\x1b\[\?(25|1004|1049|2004|2026)[hl]/,
];

/**
 * Whole sequences of ours that a pattern above cannot allow on its own: the one question asked of
 * the terminal, its background colour (OSC 11, ended by BEL; terminal/background.ts).
 */
const OUR_QUERIES = ['\x1b]11;?\x07'];
const withoutOurQueries = (raw: string) => OUR_QUERIES.reduce((text, query) => text.split(query).join(''), raw);

/** Every ESC in `raw` that does not start one of our sequences, with what follows it. */
export function foreignEscapes(output: string): string[] {
  const raw = withoutOurQueries(output);
  const found: string[] = [];
  for (let index = raw.indexOf('\x1b'); index !== -1; index = raw.indexOf('\x1b', index + 1)) {
    const rest = raw.slice(index, index + 24);
    if (!OURS.some((pattern) => pattern.test(rest))) found.push(JSON.stringify(rest));
  }
  return found;
}

/**
 * Controls that must never reach the terminal raw: C0 except ESC (checked above) and line ends,
 * DEL, C1 (8-bit CSI/OSC/DCS/ST…), and bidi controls that reorder what a line appears to say.
 */
const RAW_CONTROL = /[\x00-\x09\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Each raw control character found, as `U+XXXX` with a little context. */
export function rawControls(output: string): string[] {
  const raw = withoutOurQueries(output);
  const found: string[] = [];
  for (const match of raw.matchAll(RAW_CONTROL)) {
    const at = match.index;
    found.push(`U+${match[0].charCodeAt(0).toString(16).padStart(4, '0')} in ${JSON.stringify(raw.slice(Math.max(0, at - 12), at + 12))}`);
  }
  return found;
}

/** A lone CR (one not followed by LF) moves the cursor to the start of the line: never ours. */
export function loneCarriageReturns(raw: string): number {
  return (raw.match(/\r(?!\n)/g) ?? []).length;
}

/**
 * Asserts that `raw` (what the app wrote to a terminal, or printed) reached it with nothing but our
 * own escape sequences: no foreign ESC sequence, no raw control character, no lone CR.
 */
export function expectCleanTerminalOutput(raw: string): void {
  expect(foreignEscapes(raw)).toEqual([]);
  expect(rawControls(raw)).toEqual([]);
  expect(loneCarriageReturns(raw)).toBe(0);
}
