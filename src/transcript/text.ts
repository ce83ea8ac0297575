import stringWidth from 'string-width';
import { sameStyle, styleCodes, type Style } from './style';
import { pushAll } from '../services/terminal/rows';

/**
 * Styled text and word wrapping for the transcript.
 *
 * Measured on this project's machine, wrap-ansi needs ~60 ms and string-width ~35 ms for 10 KB of
 * prose (string-width segments every string into graphemes and rebuilds a large emoji pattern per
 * grapheme); a streamed answer is laid out again on every frame, so that would cost more than the
 * whole stream is allowed. Here printable ASCII is measured by its length and everything else per
 * grapheme with string-width, memoized.
 */

/**
 * `text.startsWith(prefix)` for long strings: a streamed message is checked against what was laid
 * out before on every frame, and V8's startsWith compares character by character (about 30 µs
 * for 8 KB) where string equality compares memory (under 1 µs).
 */
export function startsWithText(text: string, prefix: string): boolean {
  return text.length >= prefix.length && (prefix.length < 64 ? text.startsWith(prefix) : text.slice(0, prefix.length) === prefix);
}

/** A run of text in one style. Never contains a newline once it reaches a finished line. */
export interface Span {
  text: string;
  style?: Style;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// Made on first use: the first segmenter loads ICU's break data (about 19 ms), and plain ASCII,
// all the first frame has, never needs it.
let graphemeSegmenter: Intl.Segmenter | undefined;
const segmenter = { segment: (text: string) => (graphemeSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text) };
const graphemeWidths = new Map<string, number>();

function graphemeWidth(grapheme: string): number {
  let width = graphemeWidths.get(grapheme);
  if (width === undefined) {
    width = stringWidth(grapheme);
    if (graphemeWidths.size > 8192) graphemeWidths.clear();
    graphemeWidths.set(grapheme, width);
  }
  return width;
}

/** Terminal columns taken by plain (escape-free) text. */
export function textWidth(text: string): number {
  if (PRINTABLE_ASCII.test(text)) return text.length;
  let width = 0;
  for (const { segment } of segmenter.segment(text)) width += graphemeWidth(segment);
  return width;
}

/** Splits text into graphemes with their widths (for breaking words that do not fit a line). */
function graphemes(text: string): Array<{ text: string; width: number }> {
  if (PRINTABLE_ASCII.test(text)) return Array.from(text, (char) => ({ text: char, width: 1 }));
  return Array.from(segmenter.segment(text), ({ segment }) => ({ text: segment, width: graphemeWidth(segment) }));
}

/** Wide (East Asian) text has no spaces between words: a line may break between any two graphemes (the input editor wraps by it too). */
export const BREAK_ANYWHERE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]|[\u{20000}-\u{3fffd}]/u;

export function spansWidth(spans: readonly Span[]): number {
  let width = 0;
  for (const span of spans) width += textWidth(span.text);
  return width;
}

/** One finished terminal row: text with our SGR escapes only. */
export function serialize(spans: readonly Span[]): string {
  let out = '';
  let index = 0;
  while (index < spans.length) {
    const style = spans[index]!.style;
    let text = spans[index]!.text;
    index++;
    // Adjacent runs in the same style share one pair of escapes.
    while (index < spans.length && sameStyle(spans[index]!.style, style)) {
      text += spans[index]!.text;
      index++;
    }
    if (text.length === 0) continue;
    const codes = styleCodes(style);
    out += codes.open + text + codes.close;
  }
  return out;
}

export interface WrapOptions {
  /** `word`: break at spaces, trim spaces at breaks (prose). `char`: fill every row, keep all spaces (code). */
  mode?: 'word' | 'char';
  /** Drawn before the first row / before every following row (list markers, quote bars, gutters). */
  firstPrefix?: readonly Span[];
  restPrefix?: readonly Span[];
  /** Drawn before rows that continue a wrapped line (defaults to restPrefix). */
  continuationPrefix?: readonly Span[];
  /** Stop after this many rows (bounded display of huge results). */
  maxLines?: number;
}

interface Piece {
  text: string;
  style?: Style;
  width: number;
}

interface Word {
  pieces: Piece[];
  width: number;
  space: boolean;
  breakAnywhere: boolean;
}

/** Splits one logical line into words and runs of spaces; a word may span several styles. */
function toWords(spans: readonly Span[], mode: 'word' | 'char'): Word[] {
  const words: Word[] = [];
  let current: Word | undefined;
  for (const span of spans) {
    if (span.text.length === 0) continue;
    const parts = mode === 'char' ? [span.text] : span.text.split(/( +)/);
    for (const part of parts) {
      if (part.length === 0) continue;
      const space = mode === 'word' && part.charCodeAt(0) === 32;
      const piece: Piece = { text: part, style: span.style, width: space ? part.length : textWidth(part) };
      if (space) {
        current = undefined;
        words.push({ pieces: [piece], width: piece.width, space: true, breakAnywhere: false });
        continue;
      }
      if (!current) {
        current = { pieces: [], width: 0, space: false, breakAnywhere: mode === 'char' };
        words.push(current);
      }
      current.pieces.push(piece);
      current.width += piece.width;
      if (!current.breakAnywhere && piece.width > 0 && !PRINTABLE_ASCII.test(part) && BREAK_ANYWHERE.test(part)) current.breakAnywhere = true;
    }
  }
  return words;
}

/** Splits spans at newlines into logical lines. */
export function splitLines(spans: readonly Span[]): Span[][] {
  const lines: Span[][] = [[]];
  for (const span of spans) {
    if (!span.text.includes('\n')) {
      lines[lines.length - 1]!.push(span);
      continue;
    }
    const parts = span.text.split('\n');
    parts.forEach((part, index) => {
      if (index > 0) lines.push([]);
      if (part.length > 0) lines[lines.length - 1]!.push({ text: part, style: span.style });
    });
  }
  return lines;
}

/**
 * Lays styled text out in rows no wider than `width`, each serialized with its own escapes so a
 * row can be drawn on its own. Newlines in the spans start new rows.
 */
export function wrapSpans(spans: readonly Span[], width: number, options: WrapOptions = {}): string[] {
  return wrapToRows(spans, width, options).map(serialize);
}

/** Like wrapSpans, but keeps the rows as spans (table cells are padded after wrapping). */
export function wrapToRows(spans: readonly Span[], width: number, options: WrapOptions = {}): Span[][] {
  const mode = options.mode ?? 'word';
  let firstPrefix = options.firstPrefix ?? [];
  let restPrefix = options.restPrefix ?? firstPrefix;
  // On a terminal too narrow for the prefix, the text matters more than the decoration.
  if (spansWidth(firstPrefix) >= width) firstPrefix = [];
  if (spansWidth(restPrefix) >= width) restPrefix = [];
  let continuationPrefix = options.continuationPrefix ?? restPrefix;
  if (spansWidth(continuationPrefix) >= width) continuationPrefix = [];
  /** Room on a continuation row: a word moved there whole must fit it (it may be narrower than this row). */
  const continuationRoom = Math.max(1, width - spansWidth(continuationPrefix));
  const maxLines = options.maxLines ?? Infinity;
  const out: Span[][] = [];
  let row: Span[] = [];
  let rowWidth = 0;
  let available = 0;
  let pendingSpace: Piece[] = [];
  let pendingSpaceWidth = 0;

  const startRow = (continuation = false) => {
    const prefix = out.length === 0 ? firstPrefix : continuation ? continuationPrefix : restPrefix;
    row = prefix.slice();
    rowWidth = 0;
    available = Math.max(1, width - spansWidth(prefix));
    pendingSpace = [];
    pendingSpaceWidth = 0;
  };
  const endRow = () => {
    out.push(row);
  };
  const full = () => out.length >= maxLines;

  for (const logical of splitLines(spans)) {
    if (full()) break;
    startRow();
    let atLineStart = true;
    for (const word of toWords(logical, mode)) {
      if (full()) break;
      if (word.space) {
        // Indentation at the start of a logical line is kept; spaces at a wrap are dropped.
        if (atLineStart) {
          const fit = Math.min(word.width, available - rowWidth - 1);
          if (fit > 0) {
            row.push({ text: ' '.repeat(fit), style: word.pieces[0]!.style });
            rowWidth += fit;
          }
        } else if (rowWidth > 0) {
          pushAll(pendingSpace, word.pieces);
          pendingSpaceWidth += word.width;
        }
        continue;
      }
      atLineStart = false;
      if (rowWidth + pendingSpaceWidth + word.width <= available) {
        { pushAll(row, pendingSpace); pushAll(row, word.pieces); }
        rowWidth += pendingSpaceWidth + word.width;
        pendingSpace = [];
        pendingSpaceWidth = 0;
        continue;
      }
      if (!word.breakAnywhere && word.width <= continuationRoom && rowWidth > 0) {
        endRow();
        if (full()) break;
        startRow(true);
        pushAll(row, word.pieces);
        rowWidth = word.width;
        continue;
      }
      // Too long for a row (or breakable anywhere): fill this row and continue on the next ones.
      if (rowWidth > 0 && rowWidth + pendingSpaceWidth < available) {
        pushAll(row, pendingSpace);
        rowWidth += pendingSpaceWidth;
      } else if (rowWidth > 0) {
        // The spaces would fill the row: the word starts the next one, never glued to the one before.
        endRow();
        if (full()) break;
        startRow(true);
      }
      pendingSpace = [];
      pendingSpaceWidth = 0;
      for (const piece of word.pieces) {
        for (const grapheme of graphemes(piece.text)) {
          if (rowWidth + grapheme.width > available && rowWidth > 0) {
            endRow();
            if (full()) break;
            startRow(true);
          }
          row.push({ text: grapheme.text, style: piece.style });
          rowWidth += grapheme.width;
        }
        if (full()) break;
      }
    }
    if (!full()) endRow();
  }
  return out;
}

/** Cuts one row of spans to `width` columns, ending with `…` when something was cut. */
export function truncateSpans(spans: readonly Span[], width: number): Span[] {
  if (spansWidth(spans) <= width) return spans.slice();
  const out: Span[] = [];
  let used = 0;
  const limit = Math.max(0, width - 1);
  outer: for (const span of spans) {
    for (const grapheme of graphemes(span.text.replace(/\n/g, ' '))) {
      if (used + grapheme.width > limit) break outer;
      out.push({ text: grapheme.text, style: span.style });
      used += grapheme.width;
    }
  }
  if (width > 0) out.push({ text: '…', style: spans[spans.length - 1]?.style });
  return out;
}

/** Pads plain-width-known spans to exactly `width` columns with alignment (table cells). */
export function alignSpans(spans: readonly Span[], width: number, align: 'left' | 'right' | 'center' | null | undefined): Span[] {
  const gap = Math.max(0, width - spansWidth(spans));
  if (gap === 0) return spans.slice();
  if (align === 'right') return [{ text: ' '.repeat(gap) }, ...spans];
  if (align === 'center') {
    const left = Math.floor(gap / 2);
    return [{ text: ' '.repeat(left) }, ...spans, { text: ' '.repeat(gap - left) }];
  }
  return [...spans, { text: ' '.repeat(gap) }];
}
