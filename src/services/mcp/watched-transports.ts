import type { ChildProcess } from 'node:child_process';
import { applyMiddlewares, createMiddleware, StreamableHTTPClientTransport, type FetchLike, type JSONRPCMessage, type Middleware, type StreamableHTTPClientTransportOptions } from '@modelcontextprotocol/client';
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/client';
import { StdioClientTransport, type StdioServerParameters } from '@modelcontextprotocol/client/stdio';
import { AwaitedAnswers, type RequestId } from './awaited-answers';
import { reportBodyEnd } from './body-end';
import { describeError } from './errors';
import { LineReadBuffer } from './line-buffer';
import { StrayStdout } from './stray-stdout';

// Transports that say when the other side is gone, which the SDK's own ones leave to timeouts.

type SendOptions = Parameters<StreamableHTTPClientTransport['send']>[1];

/** A GET that opened an event stream (notifications, or a resumed answer stream). */
function isEventStream(init: RequestInit | undefined, response: Response): boolean {
  return (init?.method ?? 'GET').toUpperCase() === 'GET' && response.ok && /event-stream/i.test(response.headers.get('content-type') ?? '');
}

/** What the watching middleware learns, for the transport it serves (told once that exists). */
interface FetchWatch {
  /** Why the last request got no answer at all (a refused connection), if it did not. */
  lastFailure: unknown;
  /** An event stream of the server ended: cleanly (`undefined`) or with the error it broke with. */
  onStreamEnd?: (error: unknown) => void;
}

/**
 * Notes why the last request failed (why a resumption failed is only visible at the fetch) and
 * watches how each event stream the server opened ends.
 */
function watchFetches(watch: FetchWatch): Middleware {
  return createMiddleware(async (next, input, init) => {
    let response: Response;
    try {
      response = await next(input, init);
      watch.lastFailure = undefined;
    } catch (error) {
      if (!init?.signal?.aborted) watch.lastFailure = error;
      throw error;
    }
    if (!isEventStream(init, response)) return response;
    return reportBodyEnd(response, init?.signal, (error) => watch.onStreamEnd?.(error));
  });
}

/**
 * When the SSE stream that carries a call's answer breaks, the SDK tries to resume it (GET with
 * Last-Event-ID, a bounded number of times) and then gives up without telling the request, which
 * then waits for its full timeout. This transport reports, through `onResponseLost`, a request
 * whose stream ended for good without its answer, and through `onStreamBroken` a notification
 * stream that broke (the first sign of a server that died while idle).
 */
export class WatchedStreamableTransport extends StreamableHTTPClientTransport {
  /**
   * Called once per request whose answer can no longer arrive, with the reason in one line.
   * `unreachable`: the server could not be reached when the stream was to be resumed.
   */
  onResponseLost?: (id: RequestId, reason: string, unreachable: boolean) => void;
  /** An event stream of the server broke (not a clean end: a reset, a server gone mid-stream). */
  onStreamBroken?: (reason: string) => void;
  readonly awaiting: AwaitedAnswers;
  private readonly watch: FetchWatch;
  private closing = false;

  constructor(url: URL, options: StreamableHTTPClientTransportOptions & { fetch: FetchLike }) {
    const watch: FetchWatch = { lastFailure: undefined };
    super(url, { ...options, fetch: applyMiddlewares(watchFetches(watch))(options.fetch) });
    watch.onStreamEnd = (error) => {
      if (error !== undefined && !this.closing) this.onStreamBroken?.(describeError(error));
    };
    this.watch = watch;
    this.awaiting = new AwaitedAnswers(this);
  }

  /** Notifications on their way (a cancellation sent just before closing must still arrive). */
  private readonly notifying = new Set<Promise<void>>();

  /** Waits, at most `ms`, for the notifications already sent to reach the server. */
  async flushNotifications(ms: number): Promise<void> {
    if (this.notifying.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
    });
    await Promise.race([Promise.allSettled([...this.notifying]), limit]);
    clearTimeout(timer);
  }

  /**
   * Per request on its way, what stops reading its answer stream. The SDK sends a cancellation
   * for a call it gives up on (the user cancelled, the call timed out) but goes on reading the
   * call's event stream for as long as the server writes to it; aborting this stops the fetch at
   * once, and the SDK takes it as intentional (no resumption, no error).
   */
  private readonly answerStreams = new Map<RequestId, AbortController>();

  private stopAnswerStream(id: RequestId): void {
    this.answerStreams.get(id)?.abort();
    this.answerStreams.delete(id);
  }

  override async send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    if (!Array.isArray(message) && !('id' in message)) {
      const cancelled = (message as { method?: unknown; params?: { requestId?: unknown } }).method === 'notifications/cancelled' ? (message as { params?: { requestId?: unknown } }).params?.requestId : undefined;
      if (typeof cancelled === 'string' || typeof cancelled === 'number') this.stopAnswerStream(cancelled);
      const sent = super.send(message, options);
      this.notifying.add(sent);
      void sent.catch(() => {}).finally(() => this.notifying.delete(sent));
      return sent;
    }
    if (Array.isArray(message) || options?.onRequestStreamEnd) return super.send(message, options);
    // Answers that arrived (or were given up) need no stopping any more.
    for (const known of this.answerStreams.keys()) if (!this.awaiting.has(known)) this.answerStreams.delete(known);
    const stop = new AbortController();
    const caller = options?.requestSignal;
    if (caller?.aborted) stop.abort();
    else caller?.addEventListener('abort', () => stop.abort(), { once: true });
    const id = this.awaiting.noteOutgoing(message, stop.signal);
    if (id === undefined) return super.send(message, options);
    this.answerStreams.set(id, stop);
    try {
      await super.send(message, {
        ...options,
        requestSignal: stop.signal,
        onRequestStreamEnd: () => {
          this.answerStreams.delete(id);
          this.streamEnded(id);
        },
      });
    } catch (error) {
      // The call itself fails with this error; nothing is left waiting.
      this.awaiting.forget(id);
      this.answerStreams.delete(id);
      throw error;
    }
  }

  /** Ends the call waiting for `id` now, with `reason` (its answer cannot arrive any more). */
  failRequest(id: RequestId, reason: string): void {
    this.awaiting.fail(id, reason);
  }

  private streamEnded(id: RequestId): void {
    // Also called after a stream that delivered its answer: only a missing answer counts.
    if (this.closing || !this.awaiting.forget(id)) return;
    const last = this.watch.lastFailure;
    this.onResponseLost?.(id, last ? describeError(last) : 'the stream carrying the answer ended before the answer arrived', last !== undefined);
  }

  override async close(): Promise<void> {
    this.closing = true;
    this.awaiting.takeAll();
    return super.close();
  }
}

export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** `the server process was killed by SIGKILL`, `the server process exited with code 3`. */
export function describeExit(exit: ProcessExit | undefined): string {
  if (exit?.signal) return `the server process was killed by ${exit.signal}`;
  if (exit?.code !== null && exit?.code !== undefined) return `the server process exited with code ${exit.code}`;
  return 'the server process exited';
}

/**
 * The stdio transport reports only that the child closed; how it ended (exit code or signal) is
 * what the user needs, since a server's last stderr line is often just its start-up banner.
 */
export class ExitWatchingStdioTransport extends StdioClientTransport {
  exit: ProcessExit | undefined;
  /** What the server printed on stdout that is not MCP (a greeting, a log line), if anything. */
  readonly strayStdout = new StrayStdout();

  /** `spillAfterBytes`: see LineReadBuffer (a tool result's long text is read into a file past it). */
  constructor(server: StdioServerParameters, spillAfterBytes?: number) {
    super(server);
    // A long message (a tool result of tens of megabytes) is read without the SDK buffer's copies.
    (this as unknown as { _readBuffer: LineReadBuffer })._readBuffer = new LineReadBuffer(server.maxBufferSize ?? STDIO_DEFAULT_MAX_BUFFER_SIZE, spillAfterBytes);
  }

  override async start(): Promise<void> {
    await super.start();
    // The SDK keeps the child private; without it the exit is described without a code.
    const child = (this as unknown as { _process?: ChildProcess })._process;
    child?.once('exit', (code, signal) => {
      this.exit = { code, signal };
    });
    this.strayStdout.watch(child?.stdout);
  }
}
