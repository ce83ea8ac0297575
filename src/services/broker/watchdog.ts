import type { BrokerTimeouts } from './types';

export type TimeoutKind = 'first-byte' | 'idle';

/**
 * The two timeouts of a streamed answer. Until the first body byte the first-byte timer runs (a
 * local server may spend minutes loading the model); from then on every read restarts the idle
 * wait. Retry waits pause it. When a wait runs out, `onTimeout` aborts the request.
 *
 * A read only notes the time: a streamed answer is a read per token, and replacing a timer on each
 * (clearTimeout + setTimeout) was a measurable part of its CPU. The idle timer, when it fires,
 * looks at the last read and waits again for what is left.
 */
export class Watchdog {
  fired: TimeoutKind | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private streaming = false;
  private lastActivity = 0;

  constructor(
    private readonly timeouts: BrokerTimeouts,
    private readonly onTimeout: (kind: TimeoutKind) => void,
    private readonly now: () => number = Date.now,
  ) {}

  /** (Re)starts the wait for the first byte: at the start and before every retry. */
  armFirstByte(): void {
    this.streaming = false;
    this.set('first-byte', this.timeouts.firstByteMs);
  }

  /** Bytes arrived. */
  activity(): void {
    this.lastActivity = this.now();
    if (this.streaming && this.timer) return;
    this.streaming = true;
    this.set('idle', this.timeouts.idleMs);
  }

  get receivedBytes(): boolean {
    return this.streaming;
  }

  pause(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  stop(): void {
    this.pause();
  }

  private set(kind: TimeoutKind, ms: number): void {
    if (this.fired) return;
    this.pause();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (kind === 'idle') {
        const quiet = this.now() - this.lastActivity;
        if (quiet < this.timeouts.idleMs) return this.set('idle', this.timeouts.idleMs - quiet);
      }
      this.fired = kind;
      this.onTimeout(kind);
    }, ms);
    // A pending timeout alone must not keep the process alive (e.g. headless mode exiting).
    this.timer.unref?.();
  }
}
