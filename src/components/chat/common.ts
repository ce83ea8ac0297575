import type { Clipped } from './preview';
import type { ChatStyles } from './style';
import { serialize, truncateSpans, type Span } from './text';

/** What an item's layout depends on besides the item itself and the width. */
export interface ItemContext {
  styles: ChatStyles;
  reasoningCollapsed: boolean;
  expanded: boolean;
  /** Wall clock (ms) for spinners and elapsed times of running tools and commands. */
  now: number;
}

export interface ItemLayout {
  lines: string[];
  /** A code block was drawn plain because the highlighter is still loading. */
  waitingForHighlighter: boolean;
  /** The rows show a spinner or an elapsed time: they change with the clock. */
  clock: boolean;
}

/** Limits on what one item may put on screen (DESIGN.md §5.7); expanded items get more. */
export const LIMITS = {
  userLines: 400,
  statusLines: 20,
  expandedLines: 5000,
  maxChars: 256 * 1024,
  expandedChars: 2 * 1024 * 1024,
};

export const INDENT: Span[] = [{ text: '  ' }];

/*
 * State glyphs. Each is one column in every terminal and in our own width measure: characters that
 * can also be emoji (✔ ✖ ⚠ ℹ) are drawn one column wide by some terminals and two by others, and
 * string-width counts them as two, so rows holding them came out a column short or overflowed.
 * test/component/chat/glyphs.test.ts keeps such characters out of src/components.
 */
export const OK_GLYPH = '✓';
export const ERROR_GLYPH = '✗';
export const WARN_GLYPH = '!';
export const INFO_GLYPH = '∙';

/** Said after a clipped message that expanding shows in full (the chat's `x` key). */
export const EXPAND_HINT = 'x in the chat shows them';

/** `… 12 more lines` under a clipped text, with `hint` after it when given. */
export function omittedLine(clipped: Clipped, styles: ChatStyles, where: 'more' | 'earlier', width: number, hint?: string): string[] {
  if (clipped.omittedLines === 0) return [];
  const count = `${clipped.omittedAtLeast ? 'at least ' : ''}${clipped.omittedLines}`;
  const noun = clipped.omittedLines === 1 && !clipped.omittedAtLeast ? 'line' : 'lines';
  return [serialize(truncateSpans([{ text: `  … ${count} ${where} ${noun}${hint ? ` · ${hint}` : ''}`, style: styles.muted }], width))];
}

/*
 * A tool result is kept for the transcript only up to limits.displayResultChars (the session log
 * keeps all of it). The cut copy ends with a note saying how many lines and characters were left
 * out, so the folded preview counts the lines of the whole result, not of the part that was kept.
 */
const SCREEN_CUT = /\n… (?:(\d+) more lines? \(\d+ characters?\)|\d+ more characters?) not shown \(limits\.displayResultChars; the session log has all of it\)$/;

function lineStarts(text: string): number {
  if (text.length === 0) return 0;
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < text.length - 1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** The first `maxChars` characters of a tool result and the note on what was left out. */
export function cutForScreen(content: string, maxChars: number): string {
  if (content.length <= maxChars) return content;
  const kept = content.slice(0, maxChars);
  // Lines that start in the part left out (a line cut in the middle belongs to the kept part).
  const hiddenLines = lineStarts(content) - lineStarts(kept);
  const rest = content.length - maxChars;
  const chars = `${rest} character${rest === 1 ? '' : 's'}`;
  // Only the rest of the last kept line was cut: there are no more lines to count.
  const what = hiddenLines > 0 ? `${hiddenLines} more line${hiddenLines === 1 ? '' : 's'} (${chars})` : `${rest} more character${rest === 1 ? '' : 's'}`;
  return `${kept}\n… ${what} not shown (limits.displayResultChars; the session log has all of it)`;
}

/** A result cut by cutForScreen: the kept text, the lines left out, and the note itself. */
export function screenCut(result: string): { kept: string; hiddenLines: number; note: string } | undefined {
  const match = SCREEN_CUT.exec(result.slice(-200));
  if (!match) return undefined;
  const note = match[0].slice(1);
  return { kept: result.slice(0, result.length - match[0].length), hiddenLines: Number(match[1] ?? 0), note };
}

export const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Spinner frame and elapsed time advance at this period while something runs. */
export const TICK_MS = 100;

export function spinnerFrame(now: number): string {
  return SPINNER[Math.floor(now / TICK_MS) % SPINNER.length]!;
}

/** `12ms`, `4.2s`, `3m 07s`. */
export function formatElapsed(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m ${String(Math.floor(seconds % 60)).padStart(2, '0')}s`;
}
