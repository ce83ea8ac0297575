import { applyMiddlewares, createMiddleware, SSEClientTransport, type FetchLike, type JSONRPCMessage, type Middleware, type SSEClientTransportOptions, type TransportSendOptions } from '@modelcontextprotocol/client';
import { AwaitedAnswers } from './awaited-answers';
import { reportBodyEnd } from './body-end';
import { describeError, httpStatusOf } from './errors';
import { requestUrl } from './fetch-middleware';

// The legacy HTTP+SSE transport carries every answer on one event stream, bound on the server to
// one session. When that stream ends, the answers still owed are gone with it: the server sends
// them to a stream nobody reads. The SDK's transport only re-opens the stream (every few seconds,
// forever, when the server is down) and leaves the calls to their timeouts.

/** How long the stream may stay down (the event source waits about 3 s before it re-opens it). */
const REOPEN_LIMIT_MS = 15_000;

/** What becomes of the requests for the event stream, told to the transport that owns it. */
interface StreamRequests {
  /** After start, a request for the stream is the event source re-opening it after it ended. */
  reopening(): boolean;
  /** No answer at all (a refused connection; `aborted`: we cancelled the request ourselves). */
  failed(error: unknown, reopening: boolean, aborted: boolean): void;
  /** Anything but 200: the event source gives up for good, the connection is over. */
  refused(status: number, reopening: boolean): void;
  /** The stream is open: its end is watched. */
  opened(response: Response, signal: AbortSignal | null | undefined): Response;
}

/** Watches the GETs for the event stream at `streamUrl`; everything else passes untouched. */
function watchStreamRequests(streamUrl: string, owner: () => StreamRequests | undefined): Middleware {
  return createMiddleware(async (next, input, init) => {
    const requests = owner();
    const isStream = (init?.method ?? 'GET').toUpperCase() === 'GET' && requestUrl(input) === streamUrl;
    if (!isStream || !requests) return next(input, init);
    const reopening = requests.reopening();
    let response: Response;
    try {
      response = await next(input, init);
    } catch (error) {
      requests.failed(error, reopening, Boolean(init?.signal?.aborted));
      throw error;
    }
    if (response.status !== 200) {
      requests.refused(response.status, reopening);
      return response;
    }
    return requests.opened(response, init?.signal);
  });
}

export class WatchedSseTransport extends SSEClientTransport {
  /**
   * The event stream ended after the connection was up and could not be re-opened: the server is
   * unreachable, refuses it, or does not answer. (The calls it carried failed when it ended.)
   */
  onUnreachable?: (reason: string) => void;
  readonly awaiting: AwaitedAnswers;
  private started = false;
  /** Why the first request for the stream got no answer at all (a refused connection). */
  private openFailure: unknown;
  private closing = false;
  private streamDown = false;
  private reopenTimer: NodeJS.Timeout | undefined;

  constructor(url: URL, options: SSEClientTransportOptions & { fetch: FetchLike }) {
    // The middleware exists before the transport does; it is told once there is one to tell.
    let requests: StreamRequests | undefined;
    super(url, { ...options, fetch: applyMiddlewares(watchStreamRequests(url.href, () => requests))(options.fetch) });
    requests = {
      reopening: () => this.started,
      failed: (error, reopening, aborted) => {
        if (reopening && !aborted) this.reportUnreachable(describeError(error));
        if (!reopening) this.openFailure = error;
      },
      refused: (status, reopening) => {
        if (reopening) this.reportUnreachable(`the event stream could not be re-opened (HTTP ${status})`);
      },
      opened: (response, signal) => this.watchStream(response, signal),
    };
    this.awaiting = new AwaitedAnswers(this);
  }

  override async start(): Promise<void> {
    try {
      await super.start();
    } catch (error) {
      // The event source words a refused connection as "SSE error: TypeError: fetch failed: ...";
      // the fetch's own error reads like every other transport's ("cannot reach the server").
      throw httpStatusOf(error) === undefined && this.openFailure ? this.openFailure : error;
    }
    this.started = true;
  }

  /**
   * False while the event stream is down: a POST then goes to the old session, which the server
   * answers with 404 although it is alive, so nothing should be judged by one.
   */
  get streamOpen(): boolean {
    return !this.streamDown;
  }

  /**
   * Every stream's end is watched; an end before `start` resolved fails the start instead. A
   * re-opened stream counts as open from its first event on (the new session's endpoint): before
   * that, POSTs would still go to the old session.
   */
  private watchStream(response: Response, signal: AbortSignal | null | undefined): Response {
    return reportBodyEnd(
      response,
      signal,
      (error) => this.streamEnded(error === undefined ? 'the server ended its event stream' : `the server's event stream broke (${describeError(error)})`),
      () => this.streamReopened(),
    );
  }

  private streamEnded(reason: string): void {
    if (this.closing || !this.started) return;
    for (const id of this.awaiting.takeAll()) this.awaiting.fail(id, `${reason} before the answer arrived`);
    this.streamDown = true;
    // A re-open that hangs (a server that accepts connections but never answers) must end too.
    clearTimeout(this.reopenTimer);
    this.reopenTimer = setTimeout(() => {
      if (this.streamDown) this.reportUnreachable(`${reason} and was not re-opened within ${REOPEN_LIMIT_MS / 1000} s`);
    }, REOPEN_LIMIT_MS);
    this.reopenTimer.unref();
  }

  private streamReopened(): void {
    if (!this.streamDown) return;
    this.streamDown = false;
    clearTimeout(this.reopenTimer);
  }

  private reportUnreachable(reason: string): void {
    if (!this.closing) this.onUnreachable?.(reason);
  }

  override async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const id = this.awaiting.noteOutgoing(message, options?.requestSignal);
    try {
      await super.send(message);
    } catch (error) {
      if (id !== undefined) this.awaiting.forget(id);
      throw error;
    }
  }

  override async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.reopenTimer);
    this.awaiting.takeAll();
    return super.close();
  }
}
