import type { BrokerEvent } from './types';

/**
 * Events produced by callbacks (ky's retry hook) while the stream waits on a promise. The
 * generator drains them as they come, so a retry wait is visible while it happens, not after.
 */
export class StatusQueue {
  private readonly items: BrokerEvent[] = [];
  private wake: (() => void) | undefined;

  push(event: BrokerEvent): void {
    this.items.push(event);
    this.wake?.();
  }

  /** Yields queued events until `promise` settles, then returns its value (or throws its error). */
  async *drainUntil<T>(promise: Promise<T>): AsyncGenerator<BrokerEvent, T, undefined> {
    let settled = false;
    const outcome = promise.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    void outcome.then(() => {
      settled = true;
      this.wake?.();
    });
    for (;;) {
      while (this.items.length > 0) yield this.items.shift()!;
      if (settled) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        if (settled || this.items.length > 0) resolve();
      });
      this.wake = undefined;
    }
    const result = await outcome;
    if (!result.ok) throw result.error;
    return result.value;
  }
}
