import { lostAnswerReason } from './awaited-answers';
import { describeError, formatDuration, httpStatusOf, isNetworkFailure, isTimeout } from './errors';

// A remote server that dies while nobody calls it is otherwise noticed only by the next call, and
// the sidebar calls it ready until then. While a server is idle it gets an MCP ping now and then;
// one that cannot be reached or does not answer in time is reported dead. Pings never overlap,
// never go to a server busy with calls (those have their own ways of noticing), and their timers
// never keep the process alive.

export interface PingOptions {
  /** Time between checks of an idle server; 0 turns the checks off (a broken stream still triggers one). */
  intervalMs: number;
  /** How long a ping may go unanswered before the server counts as gone. */
  timeoutMs: number;
}

export const DEFAULT_PING: PingOptions = { intervalMs: 30_000, timeoutMs: 10_000 };

export interface PingTarget {
  ping(options: { timeout: number; signal: AbortSignal }): Promise<unknown>;
  /** True while calls wait for their answers. */
  busy(): boolean;
  /** performance.now() of the last message from the server. */
  lastHeardAt(): number;
}

/** The legacy SSE transport gives a failed POST's status only in its message: `... (HTTP 502): ...`. */
function statusOf(error: unknown): number | undefined {
  const status = httpStatusOf(error);
  if (status !== undefined || !(error instanceof Error)) return status;
  const match = /^Error POSTing to endpoint \(HTTP (\d{3})\)/.exec(error.message);
  return match ? Number(match[1]) : undefined;
}

/**
 * Why a failed ping means the server is gone, or undefined when it does not: an error answer (a
 * server without `ping`, a refused authorization) is still an answer from a live server.
 */
export function deadServerReason(error: unknown, timeoutMs: number): string | undefined {
  const lost = lostAnswerReason(error);
  if (lost) return `a ping got no answer: ${lost}`;
  if (isTimeout(error)) return `the server did not answer a ping within ${formatDuration(timeoutMs)}`;
  if (isNetworkFailure(error)) return describeError(error);
  const status = statusOf(error);
  // The session is gone (the server restarted) or a gateway in front says the server is.
  if (status === 404 || status === 410) return `the server no longer knows this session (HTTP ${status})`;
  if (status === 502 || status === 503 || status === 504) return `a ping was answered with HTTP ${status}`;
  return undefined;
}

export class Liveness {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<string | undefined> | undefined;
  private readonly stopping = new AbortController();
  private checkedAt = performance.now();
  private reported = false;

  constructor(
    private readonly target: PingTarget,
    private readonly options: PingOptions,
    private readonly onDead: (reason: string) => void,
  ) {}

  /** Starts the idle checks (when an interval is set), counting from now: call it once connected. */
  start(): void {
    clearTimeout(this.timer);
    this.checkedAt = performance.now();
    this.reported = false;
    this.schedule();
  }

  private schedule(): void {
    if (this.stopping.signal.aborted || this.options.intervalMs <= 0) return;
    this.timer = setTimeout(() => void this.tick(), this.options.intervalMs);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    // Anything the server sent since the last check shows it alive; a busy server is left alone.
    const heard = this.target.lastHeardAt() > this.checkedAt;
    if (!heard && !this.target.busy()) await this.check();
    this.checkedAt = performance.now();
    this.schedule();
  }

  /**
   * Pings now (or joins the ping already on its way) and reports the server dead if the ping
   * shows it is. Used by the idle timer and whenever a stream breaks.
   */
  async check(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    this.running ??= this.ping().finally(() => {
      this.running = undefined;
    });
    const reason = await this.running;
    if (reason === undefined || this.stopping.signal.aborted || this.reported) return;
    this.reported = true;
    this.onDead(reason);
  }

  private async ping(): Promise<string | undefined> {
    try {
      await this.target.ping({ timeout: this.options.timeoutMs, signal: this.stopping.signal });
      return undefined;
    } catch (error) {
      return this.stopping.signal.aborted ? undefined : deadServerReason(error, this.options.timeoutMs);
    }
  }

  /** No more pings; one on its way is abandoned. */
  stop(): void {
    clearTimeout(this.timer);
    this.stopping.abort();
  }
}
