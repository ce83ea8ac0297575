import type { FetchLike, OAuthClientProvider, Transport } from '@modelcontextprotocol/client';
import type { StdioServerConfig } from '../config/schema';
import { describeError, httpStatusOf, isUnauthorized } from './errors';
import { WatchedSseTransport } from './watched-sse';
import { ExitWatchingStdioTransport, WatchedStreamableTransport } from './watched-transports';

/** Variables a stdio server inherits from us; everything else must be configured in its `env`. */
export const INHERITED_ENV = ['HOME', 'LOGNAME', 'USER', 'PATH', 'SHELL', 'TERM', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TMPDIR', 'TZ'];

export function minimalEnvironment(env: NodeJS.ProcessEnv, extra: Record<string, string> | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const key of INHERITED_ENV) {
    const value = env[key];
    // Exported shell functions (`() { ...`) are never passed on.
    if (value !== undefined && !value.startsWith('()')) result[key] = value;
  }
  return { ...result, ...extra };
}

/**
 * The stdio transport stops a server whose message outgrows `maxLineBytes` (a server that never
 * writes a line end) and reports the overflow on `onerror`. The client chains a handler set before
 * it connects, so this one passes that error on to `onOverflow`: the user learns why.
 */
function watchOverflow(transport: ExitWatchingStdioTransport, maxLineBytes: number, onOverflow: (message: string) => void): ExitWatchingStdioTransport {
  transport.onerror = (error: Error) => {
    if (/ReadBuffer exceeded/i.test(error?.message ?? '')) {
      onOverflow(`the server wrote more than ${formatBytes(maxLineBytes)} without a line end (limits.stdioMaxLineBytes); it was stopped`);
    }
  };
  return transport;
}

export function stdioTransport(config: StdioServerConfig, env: NodeJS.ProcessEnv, maxLineBytes: number, onOverflow: (message: string) => void = () => {}): ExitWatchingStdioTransport {
  return watchOverflow(spawnTransport(config, env, maxLineBytes), maxLineBytes, onOverflow);
}

function spawnTransport(config: StdioServerConfig, env: NodeJS.ProcessEnv, maxLineBytes: number): ExitWatchingStdioTransport {
  return new ExitWatchingStdioTransport({
    command: config.command,
    args: config.args ?? [],
    env: minimalEnvironment(env, config.env),
    cwd: config.cwd,
    // Never inherit: a server's stderr must not write over our full-screen UI.
    stderr: 'pipe',
    maxBufferSize: maxLineBytes,
  });
}

/**
 * A server that closes its GET stream at once (lmcp sends one `endpoint` event and hangs up) has
 * no notification channel; re-opening it would only poll. The stream is re-opened only after one
 * that stayed open a while; otherwise the transport is told 405, which it takes as "no stream".
 * Resumption requests (with Last-Event-ID) always pass.
 */
export function guardGetStream(base: FetchLike, streamUrl: URL, minimumLifeMs = 5_000): FetchLike {
  let allowAnother = true;
  const target = streamUrl.href;
  return async (input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init?.headers);
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : String(input);
    // Only the notification stream itself is guarded: OAuth discovery also uses GET.
    if (method !== 'GET' || headers.has('last-event-id') || url !== target) return base(input, init);
    if (!allowAnother) return new Response(null, { status: 405, statusText: 'GET stream not re-opened' });
    allowAnother = false;
    const response = await base(input, init);
    if (!response.ok || !response.body) return response;
    const opened = Date.now();
    const watched = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        flush() {
          if (Date.now() - opened >= minimumLifeMs) allowAnother = true;
        },
      }),
    );
    return new Response(watched, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** The error a body stream fails with when a server sends a message larger than the limit. */
export class MessageTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the server sent a message larger than ${formatBytes(limitBytes)} (limits.httpMaxMessageBytes); it was not read`);
    this.name = 'MessageTooLargeError';
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

/**
 * Bounds what one message from an HTTP server may occupy in memory: a JSON body as a whole, an
 * event stream per event (bytes since the last blank line). A long-lived notification stream may
 * carry any number of events; one event that never ends fails the stream instead of growing.
 */
export function limitMessageSize(base: FetchLike, maxBytes: number): FetchLike {
  return async (input, init) => {
    const response = await base(input, init);
    if (!response.body) return response;
    const eventStream = /event-stream/i.test(response.headers.get('content-type') ?? '');
    let size = 0;
    let previous = 0;
    const limited = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (!eventStream) {
            size += chunk.length;
          } else {
            for (const byte of chunk) {
              // A line feed after a line feed (a CR in between is part of a CRLF) ends an event.
              if (byte === 0x0a && previous === 0x0a) size = 0;
              else size += 1;
              if (byte !== 0x0d) previous = byte;
            }
          }
          if (size > maxBytes) {
            controller.error(new MessageTooLargeError(maxBytes));
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

export interface HttpTransportOptions {
  url: URL;
  headers: Record<string, string>;
  authProvider?: OAuthClientProvider;
  fetch?: FetchLike;
}

export function streamableTransport(options: HttpTransportOptions): WatchedStreamableTransport {
  return new WatchedStreamableTransport(options.url, {
    requestInit: { headers: options.headers },
    authProvider: options.authProvider,
    fetch: guardGetStream(options.fetch ?? fetch, options.url),
    // Streams that break are retried a little, never forever (no automatic reconnect storms); a
    // call whose answer is lost with its stream then fails about 3 s later instead of at its timeout.
    reconnectionOptions: { initialReconnectionDelay: 1_000, maxReconnectionDelay: 10_000, reconnectionDelayGrowFactor: 2, maxRetries: 2 },
  });
}

export function sseTransport(options: HttpTransportOptions): WatchedSseTransport {
  // The stream request and the POSTs both take their headers from requestInit.
  return new WatchedSseTransport(options.url, {
    requestInit: { headers: options.headers },
    authProvider: options.authProvider,
    fetch: options.fetch ?? fetch,
  });
}

/**
 * Whether a failed streamable-HTTP connect means "a server of the older HTTP+SSE kind". The spec's
 * backwards-compatibility section says any 4xx answer to the first POST (Playwright MCP sends 400
 * at /sse, others 404 or 405). An authorization answer (401, 403) is the exception: it is the same
 * server asking for credentials, and the legacy transport would only hide that behind its own
 * failure (and OAuth must start from the 401).
 */
export function suggestsLegacyServer(error: unknown): boolean {
  if (isUnauthorized(error)) return false;
  const status = httpStatusOf(error);
  return status !== undefined && status >= 400 && status < 500 && status !== 401 && status !== 403;
}

/** Both transports failed: the user needs both reasons, the first one most. */
export class LegacyFallbackError extends Error {
  constructor(
    readonly streamableError: unknown,
    readonly legacyError: unknown,
  ) {
    super(`${describeError(streamableError)} (streamable HTTP); the legacy SSE transport failed too: ${describeError(legacyError)}`);
    this.name = 'LegacyFallbackError';
  }
}

/**
 * Connects with streamable HTTP and, when the answer suggests an older server, with the legacy
 * HTTP+SSE transport. An authorization failure of the legacy attempt is passed on as it is: it
 * starts the OAuth flow like any 401.
 */
export async function withLegacyFallback<T>(streamable: () => Promise<T>, legacy: () => Promise<T>): Promise<T> {
  try {
    return await streamable();
  } catch (error) {
    if (!suggestsLegacyServer(error)) throw error;
    try {
      return await legacy();
    } catch (legacyError) {
      if (isUnauthorized(legacyError)) throw legacyError;
      throw new LegacyFallbackError(error, legacyError);
    }
  }
}

export type { Transport };
