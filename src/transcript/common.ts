import { formatDuration } from '../services/shared/duration';
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

/** Limits on what one item may put on screen (docs/ARCHITECTURE.md, Security invariants 7); expanded items get more. */
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
 * test/component/chat/glyphs.test.ts keeps such characters out of src/ui and src/transcript.
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

export const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
/** Spinner frame and elapsed time advance at this period while something runs. */
export const TICK_MS = 100;

export function spinnerFrame(now: number): string {
  return SPINNER[Math.floor(now / TICK_MS) % SPINNER.length]!;
}

/** `12ms`, `4.2s`, `3m 07s`: the services' one duration formatter, in its steady-width clock style. */
export function formatElapsed(ms: number): string {
  return formatDuration(ms, 'clock');
}
