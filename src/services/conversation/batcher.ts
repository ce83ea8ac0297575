import type { ConversationEvent } from './types';

/**
 * Collects conversation events and hands them to the store at most `maxFps` times a second.
 * Consecutive text (and reasoning) deltas are merged into one, so a fast model streaming hundreds
 * of tiny chunks a second costs one store update, and one transcript render, per frame.
 */
export interface EventBatcher {
  push(event: ConversationEvent): void;
  /** Applies what is waiting now (before an approval frame appears, at the end of a turn). */
  flush(): void;
  dispose(): void;
}

/**
 * Text arriving faster than this many characters a frame is more than anyone reads as it passes
 * (a dozen lines): the frame waits for more, up to HOLD_MS after the last one. A model answering
 * at a few hundred tokens a second never reaches it; one answering at full speed on a fast machine
 * (or a cached answer) shows its first words at once and then its end, instead of several whole
 * screens nobody could read, each written out in full (BENCHMARKS.md). An answer's first words are
 * applied as they come, alone, so the hold never delays them.
 */
export const HOLD_TEXT_CHARS = 1024;
export const HOLD_MS = 200;

export function createEventBatcher(apply: (events: ConversationEvent[]) => void, maxFps: number, now: () => number = Date.now): EventBatcher {
  const interval = 1000 / Math.max(1, maxFps);
  let pending: ConversationEvent[] = [];
  let pendingText = 0;
  let timer: NodeJS.Timeout | undefined;
  let lastFlush = -Infinity;
  /** The last frame showed text: a hold never delays an answer's first words. */
  let lastShowedText = false;

  const flush = () => {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending.length === 0) return;
    const events = pending;
    pending = [];
    lastShowedText = pendingText > 0;
    pendingText = 0;
    lastFlush = now();
    apply(events);
  };

  const due = () => {
    timer = undefined;
    const held = now() - lastFlush;
    if (lastShowedText && pendingText > HOLD_TEXT_CHARS && held < HOLD_MS) {
      timer = setTimeout(due, Math.min(interval, HOLD_MS - held));
      return;
    }
    flush();
  };

  return {
    push(event) {
      const last = pending[pending.length - 1];
      const text = event.type === 'text-delta' || event.type === 'reasoning-delta';
      if (text) pendingText += event.text.length;
      if (last && text && last.type === event.type) {
        pending[pending.length - 1] = { type: event.type, text: last.text + event.text };
      } else {
        pending.push(event);
      }
      // An answer's first words go out at once, on their own (one frame sooner than maxFps allows,
      // once an answer): the frames after them may be held.
      if (text && event.text.length > 0 && !lastShowedText) {
        flush();
        return;
      }
      if (!timer) timer = setTimeout(due, Math.max(0, lastFlush + interval - now()));
    },
    flush,
    dispose() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = [];
      pendingText = 0;
      lastShowedText = false;
    },
  };
}
