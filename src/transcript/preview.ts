/**
 * Bounded views of untrusted text: a 50 MB tool result or command output must not be sanitized,
 * wrapped or kept in full just to show its first (or last) lines.
 */

export interface Clipped {
  text: string;
  /** Lines not shown. Counting stops after a few MB: then `omittedAtLeast` is set. */
  omittedLines: number;
  omittedAtLeast: boolean;
}

const COUNT_LIMIT = 4 * 1024 * 1024;

function countNewlines(text: string, from: number, to: number): number {
  let count = 0;
  let index = text.indexOf('\n', from);
  while (index !== -1 && index < to) {
    count++;
    index = text.indexOf('\n', index + 1);
  }
  return count;
}

/** The first `maxLines` lines (and at most `maxChars` characters) of `text`. */
export function clipHead(text: string, maxLines: number, maxChars: number): Clipped {
  let end = 0;
  for (let line = 0; line < maxLines; line++) {
    const next = text.indexOf('\n', end);
    if (next === -1) {
      end = text.length;
      break;
    }
    end = next + 1;
  }
  end = Math.min(end, maxChars);
  const shown = text.slice(0, end).replace(/\n$/, '');
  const rest = text.length - end;
  if (rest <= 0) return { text: shown, omittedLines: 0, omittedAtLeast: false };
  const scanEnd = Math.min(text.length, end + COUNT_LIMIT);
  const newlines = countNewlines(text, end, scanEnd);
  const lines = newlines + (text.endsWith('\n') && scanEnd === text.length ? 0 : 1);
  return { text: shown, omittedLines: Math.max(1, lines), omittedAtLeast: scanEnd < text.length };
}

/** Whether clipHead(text, maxLines, maxChars) would hide anything; reads no further than the cut. */
export function exceedsHead(text: string, maxLines: number, maxChars: number): boolean {
  if (text.length > maxChars) return true;
  let end = 0;
  for (let line = 0; line < maxLines; line++) {
    const next = text.indexOf('\n', end);
    if (next === -1) return false;
    end = next + 1;
  }
  // Only a trailing newline after the last shown line hides nothing (clipHead drops it too).
  return end < text.length;
}

/** The last `maxLines` lines (and at most `maxChars` characters) of `text`. */
export function clipTail(text: string, maxLines: number, maxChars: number): Clipped {
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  let position = body.length;
  let start = 0;
  for (let line = 0; line < maxLines; line++) {
    const previous = body.lastIndexOf('\n', position - 1);
    if (previous < 0 || position === 0) {
      start = 0;
      position = -1;
      break;
    }
    position = previous;
    start = previous + 1;
  }
  if (position === -1) start = 0;
  start = Math.max(start, body.length - maxChars);
  if (start <= 0) return { text: body, omittedLines: 0, omittedAtLeast: false };
  const scanStart = Math.max(0, start - COUNT_LIMIT);
  const newlines = countNewlines(body, scanStart, start);
  // A cut inside a line (the character cap) hides the rest of that line as well.
  const lines = body[start - 1] === '\n' ? newlines : newlines + 1;
  return { text: body.slice(start), omittedLines: Math.max(1, lines), omittedAtLeast: scanStart > 0 };
}
