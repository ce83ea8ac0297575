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
 * screens nobody could read, each written out in full (BENCHMARKS.md, "Streaming: bytes").
 */
export const HOLD_TEXT_CHARS = 1024;
export const HOLD_MS = 200;

export function createEventBatcher(apply: (events: ConversationEvent[]) => void, maxFps: number, now: () => number = Date.now): EventBatcher {
  const interval = 1000 / Math.max(1, maxFps);
  let pending: ConversationEvent[] = [];
  let pendingText = 0;
  let timer: NodeJS.Timeout | undefined;
  let lastFlush = -Infinity;

  const flush = () => {
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
    }
    if (pending.length === 0) return;
    const events = pending;
    pending = [];
    pendingText = 0;
    lastFlush = now();
    apply(events);
  };

  const due = () => {
    timer = undefined;
    const held = now() - lastFlush;
    if (pendingText > HOLD_TEXT_CHARS && held < HOLD_MS) {
      timer = setTimeout(due, Math.min(interval, HOLD_MS - held));
      return;
    }
    flush();
  };

  return {
    push(event) {
      const last = pending[pending.length - 1];
      if (event.type === 'text-delta' || event.type === 'reasoning-delta') pendingText += event.text.length;
      if (last && (event.type === 'text-delta' || event.type === 'reasoning-delta') && last.type === event.type) {
        pending[pending.length - 1] = { type: event.type, text: last.text + event.text };
      } else {
        pending.push(event);
      }
      if (!timer) timer = setTimeout(due, Math.max(0, lastFlush + interval - now()));
    },
    flush,
    dispose() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = [];
      pendingText = 0;
    },
  };
}
