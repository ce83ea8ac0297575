import type { ChatItem } from '../state/types';
import type { Theme } from '../terminal/theme';
import { chatStyles } from './style';
import { serialize, truncateSpans, type Span } from './text';
import { transcriptWindow, type Anchor, type TranscriptCache, type TranscriptOptions } from './transcript';
import { pushAll } from '../services/terminal/rows';

/**
 * What the transcript shows in a viewport, frame after frame: the window of rows, the marker row
 * when scrolled up, the hint when there is nothing yet. It keeps the little state that spans
 * frames (the bottom row of the last frame, to hold a scrolled-up view still while output arrives
 * below; what the end of the transcript was when the user scrolled up). ChatView renders its
 * frames through Ink; the app's transcript layer draws them straight onto the screen.
 */

export interface ViewportInput {
  items: readonly ChatItem[];
  width: number;
  height: number;
  /**
   * Lines scrolled up from the bottom; 0 follows new output. The view's top row moves up by one
   * per line, so rows - height (the keys' clamp) shows the first row.
   */
  scrollOffset: number;
  theme: Theme;
  focused: boolean;
  reasoningCollapsed: boolean;
  expandedIds: ReadonlySet<string>;
  /** Hold a scrolled-up view still while output arrives below (the caller takes the reported offset). */
  holdStill: boolean;
  /** Optional fixed clock (ms) for spinners and elapsed times; by default the view ticks while something runs. */
  now?: number;
  cache: TranscriptCache;
}

export interface ViewportFrame {
  width: number;
  height: number;
  /** The window's rows, top to bottom, at most `height` (minus the marker row). */
  rows: string[];
  /** The row under the window while scrolled up: what is below. */
  marker?: string;
  /** Shown alone at the bottom when the transcript has nothing to show. */
  hint?: string;
  /** The offset actually shown (clamped at the top, held still); the caller should adopt it. */
  offset: number;
  /** Some visible row shows a spinner or an elapsed time. */
  clock: boolean;
}

/** What changed at the end of the transcript: new items or a newer version of the last one. */
function tailFingerprint(items: readonly ChatItem[]): string {
  const last = items[items.length - 1];
  return last ? `${items.length}:${last.id}:${last.version}` : '0';
}

function markerRow(newOutput: boolean, linesBelow: number, width: number, theme: Theme): string {
  const styles = chatStyles(theme);
  const below = `${linesBelow} ${linesBelow === 1 ? 'line' : 'lines'} below`;
  const spans: Span[] = newOutput
    ? [{ text: '↓ new output', style: { ...styles.accent, bold: true } }, { text: ` · ${below}`, style: styles.muted }]
    : [{ text: `↓ ${below}`, style: styles.muted }];
  return serialize(truncateSpans(spans, width));
}

export class TranscriptViewport {
  private last: { anchor?: Anchor; offset: number; width: number } | undefined;
  /** The transcript's tail when the user left the bottom. */
  private seenTail: string | undefined;

  frame(input: ViewportInput): ViewportFrame {
    const width = Math.max(1, input.width);
    const height = Math.max(1, input.height);
    let newOutput = false;
    if (input.scrollOffset <= 0) {
      this.seenTail = undefined;
    } else {
      const tail = tailFingerprint(input.items);
      this.seenTail ??= tail;
      newOutput = this.seenTail !== tail;
    }
    const options = { theme: input.theme, reasoningCollapsed: input.reasoningCollapsed, expandedIds: input.expandedIds, now: input.now };
    // Hold the rows still while output arrives below; a changed offset means the user scrolled
    // and wins over the anchor.
    const previous = this.last;
    const holdStill = input.holdStill && input.scrollOffset > 0 && previous !== undefined && previous.offset === input.scrollOffset && previous.width === width;
    let window = this.window(input, width, height, input.scrollOffset, options, holdStill ? previous.anchor : undefined);
    // Clamped to the bottom (the transcript fits): show it as followed, without a marker.
    if (window.offset === 0 && window.marker) window = this.window(input, width, height, 0, options, undefined);
    this.last = { anchor: window.view.anchor, offset: window.offset, width };
    const { view } = window;
    const frame: ViewportFrame = { width, height, rows: view.rows, offset: window.offset, clock: view.clock };
    if (view.rows.length === 0) {
      const styles = chatStyles(input.theme);
      const hint = `${input.focused ? 'Chat (focused). ' : ''}Type a message and press Enter. :help lists commands and keys.`;
      frame.hint = serialize(truncateSpans([{ text: hint, style: styles.muted }], width));
    } else if (window.marker && view.offset > 0) {
      frame.marker = markerRow(newOutput, view.offset, width, input.theme);
    }
    return frame;
  }

  /**
   * The window for a scroll offset. The offset moves the view's top: at offset k the top row is
   * the one k rows above the bottom view's top, so every offset from 0 to (rows - height) shows
   * something new and the largest one shows the first row, which is all the keys need to know
   * (Home, PgUp and ↑ clamp at rows - height). While scrolled up the marker row takes the
   * window's bottom row: the window is one row shorter and has one more row below it.
   */
  private window(input: ViewportInput, width: number, height: number, offset: number, options: TranscriptOptions, anchor: Anchor | undefined) {
    const marker = offset > 0 && height > 1;
    const below = marker ? offset + 1 : Math.max(0, offset);
    const view = transcriptWindow(input.items, width, marker ? height - 1 : height, below, options, anchor, input.cache);
    return { view, marker, offset: marker ? Math.max(0, view.offset - 1) : view.offset };
  }
}

/** The frame as exactly `height` screen rows, as ChatView lays them out (bottom-aligned). */
export function frameRows(frame: ViewportFrame): string[] {
  const rows: string[] = [];
  if (frame.hint !== undefined) {
    for (let row = 1; row < frame.height; row++) rows.push('');
    rows.push(frame.hint);
    return rows;
  }
  const windowHeight = frame.marker !== undefined ? frame.height - 1 : frame.height;
  for (let row = frame.rows.length; row < windowHeight; row++) rows.push('');
  pushAll(rows, frame.rows.slice(-windowHeight));
  if (frame.marker !== undefined) rows.push(frame.marker);
  return rows;
}
