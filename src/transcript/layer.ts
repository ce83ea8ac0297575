import { frameRows, sharedTranscriptCache, subscribeHighlighter, TICK_MS, TranscriptViewport, warmUpTranscript, type TranscriptCache } from './index';
import type { Theme } from '../terminal/theme';
import type { AppState, AppStore } from '../state/store';
import type { ScreenRegion } from '../terminal/screen';
import { sanitizeLabel } from '../services/terminal/sanitize';
import { chatStyles } from './style';
import { wrapSpans } from './text';
import { ERROR_GLYPH } from './common';

/**
 * The transcript drawn straight onto the screen, beside Ink rather than through it.
 *
 * While an answer streams only the transcript changes, yet every React commit makes Ink lay out,
 * measure and compose the whole screen again. So in the terminal the transcript is not part of the
 * React tree: the layout keeps a blank box where it goes (TranscriptPlaceholder gives this layer
 * its size), the layer follows the store itself, and the screen writer lays its rows over the
 * blank corner of Ink's frame. A streamed token then costs the window of cached lines and the
 * rows that changed, with no React render and no Ink frame. The rows are exactly ChatView's
 * (both come from TranscriptViewport), and ChatView still renders them wherever there is no layer.
 */

const WARM_UP_DELAY_MS = 250;

export interface LayerGeometry {
  width: number;
  height: number;
  theme: Theme;
}

/** The parts of the state the transcript is drawn from. */
function drawnFrom(state: AppState, previous: AppState): boolean {
  return (
    state.items !== previous.items ||
    state.scrollOffset !== previous.scrollOffset ||
    state.reasoningCollapsed !== previous.reasoningCollapsed ||
    state.expandedIds !== previous.expandedIds ||
    state.focus !== previous.focus
  );
}

export class TranscriptLayer implements ScreenRegion {
  private geometry: LayerGeometry | undefined;
  private readonly viewport = new TranscriptViewport();
  private drawn: string[] | undefined;
  private repaintScheduled = false;
  private ticker: NodeJS.Timeout | undefined;
  private expanded: { list: readonly string[]; set: ReadonlySet<string> } = { list: [], set: new Set() };
  private readonly stop: Array<() => void>;

  /** `repaint` draws the screen again with the layer's new rows (the screen writer, without a new Ink frame). */
  constructor(
    private readonly store: AppStore,
    private readonly repaint: () => void,
    private readonly cache: TranscriptCache = sharedTranscriptCache,
  ) {
    this.stop = [
      store.subscribe((state, previous) => {
        if (drawnFrom(state, previous)) this.invalidate();
      }),
      subscribeHighlighter(() => this.invalidate()),
    ];
    // A moment after the first frame, while the user types: the markdown lexer's first use is slow
    // (compiling its expressions, ~50 ms) and would otherwise stall the first frames of the first
    // answer; a tool call's first row costs a few ms in the middle of a tool loop. Not at once:
    // loading the MCP client and starting the servers comes first.
    const warmUp = setTimeout(() => {
      try {
        warmUpTranscript(this.geometry?.theme, this.geometry?.width ?? 0);
      } catch {
        // Only a head start: the first real draw lays the same things out and shows any error.
      }
    }, WARM_UP_DELAY_MS);
    warmUp.unref?.();
    this.stop.push(() => clearTimeout(warmUp));
  }

  get width(): number {
    return this.geometry?.width ?? 0;
  }

  get height(): number {
    return this.geometry?.height ?? 0;
  }

  /**
   * The box the layout keeps for the transcript (called while React renders it, so the size is
   * known before Ink hands that frame to the screen writer).
   */
  attach(geometry: LayerGeometry): void {
    const current = this.geometry;
    if (current && current.width === geometry.width && current.height === geometry.height && current.theme === geometry.theme) return;
    this.geometry = geometry;
    this.drawn = undefined;
  }

  /** The box is gone (another panel took its place): draw nothing. */
  detach(): void {
    this.geometry = undefined;
    this.drawn = undefined;
    clearTimeout(this.ticker);
    this.ticker = undefined;
  }

  rows(): readonly string[] {
    if (!this.geometry) return [];
    this.drawn ??= this.drawOrExplain(this.geometry);
    return this.drawn;
  }

  /**
   * The layer is drawn beside Ink, outside the UI's error boundary: an error here would reach the
   * screen writer and end the app. Whatever fails while laying out the transcript is shown in its
   * place instead, and the input, the frames and `:quit` keep working; the next change draws again.
   */
  private drawOrExplain(geometry: LayerGeometry): string[] {
    try {
      return this.draw(geometry);
    } catch (error) {
      const message = sanitizeLabel(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      const text = `${ERROR_GLYPH} the transcript could not be drawn (${message}); the conversation is kept and the app keeps running: :clear starts afresh, :quit ends`;
      return wrapSpans([{ text, style: chatStyles(geometry.theme).error }], Math.max(1, geometry.width)).slice(0, Math.max(1, geometry.height));
    }
  }

  /** Something the transcript shows changed: draw it again once the current work is done. */
  invalidate(): void {
    this.drawn = undefined;
    if (!this.geometry || this.repaintScheduled) return;
    this.repaintScheduled = true;
    // After pending React work (microtasks): when the same change also re-renders the layout, Ink's
    // frame comes first and already carries these rows, and this repaint finds nothing to write.
    setImmediate(() => {
      this.repaintScheduled = false;
      if (this.geometry) this.repaint();
    });
  }

  dispose(): void {
    for (const stop of this.stop) stop();
    this.detach();
  }

  private expandedIds(list: readonly string[]): ReadonlySet<string> {
    if (this.expanded.list !== list) this.expanded = { list, set: new Set(list) };
    return this.expanded.set;
  }

  private draw(geometry: LayerGeometry): string[] {
    const state = this.store.getState();
    const frame = this.viewport.frame({
      items: state.items,
      width: geometry.width,
      height: geometry.height,
      scrollOffset: state.scrollOffset,
      theme: geometry.theme,
      focused: state.focus === 'chat',
      reasoningCollapsed: state.reasoningCollapsed,
      expandedIds: this.expandedIds(state.expandedIds),
      holdStill: true,
      cache: this.cache,
    });
    // The offset actually shown (clamped at the top, held still while output arrives below) goes
    // back to the store, so PgUp/PgDn continue from what is on screen; not while drawing, though.
    if (frame.offset !== state.scrollOffset) {
      const shown = state.scrollOffset;
      queueMicrotask(() => {
        if (this.store.getState().scrollOffset === shown) this.store.getState().setScrollOffset(frame.offset);
      });
    }
    // Spinners and elapsed times move on while visible.
    if (frame.clock && !this.ticker) {
      this.ticker = setTimeout(() => {
        this.ticker = undefined;
        this.invalidate();
      }, TICK_MS);
      this.ticker.unref?.();
    }
    return frameRows(frame);
  }
}
