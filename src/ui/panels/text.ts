import stringWidth from 'string-width';
import { sanitizeLabel } from '../../services/terminal/sanitize';

/**
 * Plain-text layout for the panels that draw their own lines (frames, sidebar, input): a line is
 * a list of segments with a semantic tone, wrapped and cut by display width (wide characters
 * count two), so nothing is ever wider than the space it was given.
 */

export type Tone = 'plain' | 'muted' | 'accent' | 'warn' | 'error' | 'ok' | 'bold' | 'marker' | 'selected' | 'cursor' | 'chip';

export interface Seg {
  text: string;
  tone?: Tone;
}

export type Line = Seg[];

// Made on first use: the first segmenter loads ICU's break data (about 19 ms), and plain ASCII,
// all the first frame has, never needs it.
let graphemeSegmenter: Intl.Segmenter | undefined;
const segmenter = { segment: (text: string) => (graphemeSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' })).segment(text) };

export function graphemes(text: string): string[] {
  // Fast path for ASCII.
  if (/^[\x20-\x7e]*$/.test(text)) return text.split('');
  return Array.from(segmenter.segment(text), (part) => part.segment);
}

export function width(text: string): number {
  return /^[\x20-\x7e]*$/.test(text) ? text.length : stringWidth(text);
}

export function lineWidth(line: Line): number {
  let total = 0;
  for (const seg of line) total += width(seg.text);
  return total;
}

/** Cuts text to `max` columns, ending in `…` when something was cut. */
export function truncate(text: string, max: number): string {
  if (max <= 0) return '';
  if (width(text) <= max) return text;
  let out = '';
  let used = 0;
  for (const part of graphemes(text)) {
    const partWidth = width(part);
    if (used + partWidth > max - 1) break;
    out += part;
    used += partWidth;
  }
  return out + '…';
}

/** Cuts a styled line to `max` columns (with `…` when cut). */
export function truncateLine(line: Line, max: number): Line {
  if (lineWidth(line) <= max) return line;
  const out: Line = [];
  let used = 0;
  for (const seg of line) {
    const segWidth = width(seg.text);
    if (used + segWidth <= max - 1) {
      out.push(seg);
      used += segWidth;
      continue;
    }
    const cut = truncate(seg.text, max - used);
    out.push({ ...seg, text: cut });
    return out;
  }
  return out;
}

/**
 * Wraps a styled line at `max` columns, breaking anywhere (approval views must show every
 * character, so nothing is dropped at a word boundary). An empty line stays one empty line.
 */
export function wrapLine(line: Line, max: number): Line[] {
  const limit = Math.max(1, max);
  if (lineWidth(line) <= limit) return [line];
  const lines: Line[] = [];
  let current: Line = [];
  let used = 0;
  for (const seg of line) {
    let buffer = '';
    for (const part of graphemes(seg.text)) {
      const partWidth = width(part);
      if (used + partWidth > limit && used > 0) {
        if (buffer) current.push({ ...seg, text: buffer });
        lines.push(current);
        current = [];
        used = 0;
        buffer = '';
      }
      buffer += part;
      used += partWidth;
    }
    if (buffer) current.push({ ...seg, text: buffer });
  }
  lines.push(current);
  return lines;
}

/** Wraps at word boundaries where possible (descriptions, prose), falling back to hard breaks. */
export function wrapWords(text: string, max: number, tone?: Tone): Line[] {
  const limit = Math.max(1, max);
  const out: Line[] = [];
  for (const paragraph of text.split('\n')) {
    let current = '';
    for (const word of paragraph.split(/(\s+)/)) {
      if (word === '') continue;
      if (width(current + word) <= limit) {
        current += word;
        continue;
      }
      if (current.trim() !== '') out.push([{ text: current.trimEnd(), tone }]);
      current = /^\s+$/.test(word) ? '' : word;
      while (width(current) > limit) {
        const [first, ...rest] = wrapLine([{ text: current, tone }], limit);
        out.push(first!);
        current = rest.map((line) => line.map((seg) => seg.text).join('')).join('');
      }
    }
    out.push([{ text: current, tone }]);
  }
  return out;
}

/** Pads a line with spaces to exactly `columns` (cutting it first when too wide). */
export function padLine(line: Line, columns: number): Line {
  const cut = truncateLine(line, columns);
  const gap = columns - lineWidth(cut);
  return gap > 0 ? [...cut, { text: ' '.repeat(gap) }] : cut;
}

/** Whitespace runs longer than this (inside a line) are shown as one marker. */
export const WHITESPACE_RUN = 8;
/** Indentation deeper than this is shown as a marker too. */
export const MAX_INDENT = 24;
/** Empty lines in a row beyond this are shown as one marker line. */
export const BLANK_LINE_RUN = 2;

/**
 * For views where what you see must be what runs (approval, CMD): long runs of spaces and of
 * empty lines are replaced by visible markers, so no content can be pushed out of view or made to
 * look separate from what precedes it. The input must already be sanitized.
 */
export function markWhitespace(text: string, tone?: Tone): Line[] {
  const out: Line[] = [];
  const lines = text.split('\n');
  let blanks = 0;
  const flushBlanks = () => {
    if (blanks > BLANK_LINE_RUN) out.push([{ text: `⟨${blanks} empty lines⟩`, tone: 'marker' }]);
    else for (let i = 0; i < blanks; i++) out.push([{ text: '', tone }]);
    blanks = 0;
  };
  for (const raw of lines) {
    if (raw.trim() === '' && raw.length <= MAX_INDENT) {
      blanks++;
      continue;
    }
    flushBlanks();
    const line: Line = [];
    const pattern = /[\p{Zs}]+/gu;
    let last = 0;
    for (const match of raw.matchAll(pattern)) {
      const start = match.index;
      const run = match[0];
      const leading = start === 0;
      const limit = leading ? MAX_INDENT : WHITESPACE_RUN;
      const onlySpaces = /^ +$/.test(run);
      if (run.length <= limit && (onlySpaces || run.length === 1)) continue;
      if (start > last) line.push({ text: raw.slice(last, start), tone });
      const what = onlySpaces ? 'spaces' : 'blank characters';
      line.push({ text: `⟨${run.length} ${what}⟩`, tone: 'marker' });
      last = start + run.length;
    }
    if (last < raw.length) line.push({ text: raw.slice(last), tone });
    out.push(line);
  }
  flushBlanks();
  // Keep a trailing newline visible as an empty last line only when it was meant (one at most).
  while (out.length > 1 && out[out.length - 1]!.every((seg) => seg.text === '')) out.pop();
  return out;
}

/**
 * A sign-in address as segments with its host emphasised (the part that says where the browser
 * goes), everything sanitized; the whole address stays visible so it can be read and copied.
 */
export function signInUrlSegments(url: string): Line {
  let host = '';
  try {
    host = new URL(url).host;
  } catch {
    // Not a URL: shown as it is, nothing emphasised.
  }
  const at = host ? url.indexOf(host) : -1;
  if (at < 0) return [{ text: sanitizeLabel(url), tone: 'accent' }];
  return [
    { text: sanitizeLabel(url.slice(0, at)), tone: 'accent' },
    { text: sanitizeLabel(url.slice(at, at + host.length)), tone: 'bold' },
    { text: sanitizeLabel(url.slice(at + host.length)), tone: 'accent' },
  ];
}
