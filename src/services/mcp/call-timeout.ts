import { SdkError } from '@modelcontextprotocol/client';
import { formatDuration } from '../shared/duration';

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
   * `timed out after 4s` when the server sent no progress; otherwise the real time, and which
   * limit ended the call: the overall cap, or a silence as long as the limit after some progress.
   */
  /**
   * A signal that aborts when the caller's does or when the call has run `maxTotalMs` in all,
   * whatever progress arrives; `expired()` says which.
   */
  overallSignal(caller: AbortSignal | undefined): { signal: AbortSignal; expired(): boolean; stop(): void } {
    const controller = new AbortController();
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      controller.abort(new Error(`the call ran longer than ${formatDuration(this.maxTotalMs)} in all (${TOTAL_TIMEOUT_FACTOR}x its timeout)`));
    }, this.maxTotalMs);
    const follow = () => controller.abort(caller?.reason);
    if (caller?.aborted) follow();
    else caller?.addEventListener('abort', follow, { once: true });
    return {
      signal: controller.signal,
      expired: () => expired,
      stop: () => {
        clearTimeout(timer);
        caller?.removeEventListener('abort', follow);
      },
    };
  }

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
