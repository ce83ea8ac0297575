/**
 * A fast path in front of string-width for text made only of characters that are one column
 * wide without doubt: printable ASCII and the Latin, punctuation, arrow, box-drawing, block,
 * geometric, mathematical and braille characters the screen's own chrome uses (›, ●, ─, …, ∙, ✓, ⠙). string-width 8
 * (Ink's) compiles its `\p{RGI_Emoji}` expression on its first non-ASCII string, about 40 ms of
 * CPU time on the way to the first frame; text of these characters never needs it. Anything
 * else goes to string-width unchanged; colour codes (SGR) are skipped like string-width skips them.
 * test/unit/render/narrow-width.test.ts checks every character of these ranges against both
 * installed string-width versions, so a character they measure differently cannot slip in.
 */

/** Inclusive code unit ranges, each character one column wide (as string-width measures it). */
export const NARROW_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x20, 0x7e],
  [0xa1, 0xac],
  [0xae, 0x2ff],
  [0x2010, 0x2027],
  [0x2030, 0x205e],
  [0x2190, 0x21ff],
  // Mathematical operators (the status bar's ∙) and the check mark ✓ (the sidebar's "connected").
  [0x2200, 0x22ff],
  [0x2500, 0x25fc],
  [0x2713, 0x2713],
  [0x2800, 0x28ff],
];

/** In the ranges, but emoji to string-width 7 (two columns) while string-width 8 gives one: left to them. */
export const NOT_NARROW: ReadonlySet<number> = new Set([0xa9, 0xae, 0x203c, 0x2049, 0x2194, 0x2195, 0x2196, 0x2197, 0x2198, 0x2199, 0x21a9, 0x21aa, 0x25aa, 0x25ab, 0x25b6, 0x25c0, 0x25fb, 0x25fc]);

/** One column wide without doubt, and a grapheme of its own (no joining or combining character is in the ranges). */
export function isNarrow(code: number): boolean {
  if (code >= 0x20 && code <= 0x7e) return true;
  for (const [from, to] of NARROW_RANGES) if (code >= from && code <= to) return !NOT_NARROW.has(code);
  return false;
}

export interface WidthOptions {
  ambiguousIsNarrow?: boolean;
  countAnsiEscapeCodes?: boolean;
}

/** The width when every character is in the ranges above; undefined when string-width has to decide. */
export function narrowWidth(input: string, options?: WidthOptions): number | undefined {
  if (typeof input !== 'string') return undefined;
  if (options?.ambiguousIsNarrow === false || options?.countAnsiEscapeCodes === true) return undefined;
  // Colour and style codes take no columns; any other escape sequence is left to string-width.
  // eslint-disable-next-line no-control-regex
  const text = input.includes('\x1b') ? input.replace(/\x1b\[[0-9;]*m/g, '') : input;
  for (let index = 0; index < text.length; index++) if (!isNarrow(text.charCodeAt(index))) return undefined;
  return text.length;
}

/** Wraps a string-width function with the fast path (the build puts this in front of every copy of it). */
export function withNarrowFastPath(stringWidth: (text: string, options?: WidthOptions) => number): (text: string, options?: WidthOptions) => number {
  return (text, options) => narrowWidth(text, options) ?? stringWidth(text, options);
}
