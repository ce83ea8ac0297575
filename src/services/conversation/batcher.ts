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

export function createEventBatcher(apply: (events: ConversationEvent[]) => void, maxFps: number, now: () => number = Date.now): EventBatcher {
  const interval = 1000 / Math.max(1, maxFps);
  let pending: ConversationEvent[] = [];
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
    lastFlush = now();
    apply(events);
  };

  return {
    push(event) {
      const last = pending[pending.length - 1];
      if (last && (event.type === 'text-delta' || event.type === 'reasoning-delta') && last.type === event.type) {
        pending[pending.length - 1] = { type: event.type, text: last.text + event.text };
      } else {
        pending.push(event);
      }
      if (!timer) timer = setTimeout(flush, Math.max(0, lastFlush + interval - now()));
    },
    flush,
    dispose() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      pending = [];
    },
  };
}
