import { SdkError } from '@modelcontextprotocol/client';
import { formatDuration } from '../shared/duration';
import type { UserWaits } from './user-waits';

// A tool call's timeout counts silence: every progress notification from the server starts it
// again, and the whole call is bounded by TOTAL_TIMEOUT_FACTOR times it. A call that timed out
// after progress ran far longer than the configured limit, so its message gives the real time
// and the rule; "timed out after 4s" after 40 s of progress would read as a bug.

/** Long operations report progress; the timeout counts silence, bounded overall by this factor. */
export const TOTAL_TIMEOUT_FACTOR = 10;

/** Times a call and counts its progress notifications, to explain a timeout. */
export class CallClock {
  private readonly started = performance.now();
  progressCount = 0;

  constructor(readonly timeoutMs: number) {}

  get maxTotalMs(): number {
    return this.timeoutMs * TOTAL_TIMEOUT_FACTOR;
  }

  noteProgress(): void {
    this.progressCount += 1;
  }

  /**
   * The call's two limits as one signal: silence (no progress for `timeoutMs`; each progress
   * notification starts it again) and the overall cap. Both stand still while `waits` says the
   * server waits for the user (a form, a URL, a sampling review asked in the middle of the call);
   * the silence starts afresh when the user has answered. `expired()` says which limit ended it.
   */
  guard(caller: AbortSignal | undefined, waits?: UserWaits): CallGuard {
    const controller = new AbortController();
    let expired: 'silence' | 'overall' | undefined;
    const fire = (which: 'silence' | 'overall') => () => {
      expired = which;
      controller.abort(new Error(which === 'overall' ? `the call ran longer than ${formatDuration(this.maxTotalMs)} in all (${TOTAL_TIMEOUT_FACTOR}x its timeout)` : `timed out: no answer or progress for ${formatDuration(this.timeoutMs)}`));
    };
    const silence = new PausableTimer(this.timeoutMs, fire('silence'));
    const overall = new PausableTimer(this.maxTotalMs, fire('overall'));
    const onWaits = (waiting: boolean) => {
      if (waiting) {
        silence.pause();
        overall.pause();
      } else {
        silence.restart();
        overall.resume();
      }
    };
    if (!waits?.waiting) {
      silence.restart();
      overall.resume();
    }
    const unsubscribe = waits?.subscribe(onWaits);
    const follow = () => controller.abort(caller?.reason);
    if (caller?.aborted) follow();
    else caller?.addEventListener('abort', follow, { once: true });
    return {
      signal: controller.signal,
      expired: () => expired,
      progress: () => {
        this.noteProgress();
        if (!waits?.waiting) silence.restart();
      },
      stop: () => {
        silence.stop();
        overall.stop();
        unsubscribe?.();
        caller?.removeEventListener('abort', follow);
      },
    };
  }

  /**
   * `timed out after 4s` when the server sent no progress; otherwise the real time, and which
   * limit ended the call: the overall cap, or a silence as long as the limit after some progress.
   */
  timeoutMessage(error: unknown, overall = false): string {
    const limit = formatDuration(this.timeoutMs);
    if (this.progressCount === 0) return `timed out after ${limit}`;
    // Shown to the tenth of a second: the timers are not more exact than that.
    const elapsed = formatDuration(Math.round((performance.now() - this.started) / 100) * 100);
    const capped = overall || (SdkError.isInstance(error) && (error.data as { maxTotalTimeout?: unknown } | undefined)?.maxTotalTimeout !== undefined);
    const cap = `up to ${TOTAL_TIMEOUT_FACTOR}x: ${formatDuration(this.maxTotalMs)}`;
    return capped
      ? `timed out after ${elapsed} (progress notifications extended the ${limit} limit, ${cap})`
      : `timed out after ${elapsed} (no progress notification for ${limit}; each one extends the limit, ${cap})`;
  }
}

export interface CallGuard {
  signal: AbortSignal;
  expired(): 'silence' | 'overall' | undefined;
  /** A progress notification arrived: the silence starts again. */
  progress(): void;
  stop(): void;
}

/** A one-shot timer that can stand still and go on with what was left, or start again in full. */
class PausableTimer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private remaining: number;
  private startedAt = 0;

  constructor(
    private readonly ms: number,
    private readonly onFire: () => void,
  ) {
    this.remaining = ms;
  }

  /** Runs again with the whole time. */
  restart(): void {
    this.stop();
    this.remaining = this.ms;
    this.resume();
  }

  /** Runs on with what was left. */
  resume(): void {
    if (this.timer) return;
    this.startedAt = performance.now();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.onFire();
    }, this.remaining);
  }

  pause(): void {
    if (!this.timer) return;
    this.stop();
    this.remaining = Math.max(0, this.remaining - (performance.now() - this.startedAt));
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
