import { applyMiddlewares, type FetchLike, type OAuthClientProvider, type Transport } from '@modelcontextprotocol/client';
import type { StdioServerConfig } from '../config/schema';
import { describeError, httpStatusOf, isUnauthorized } from './errors';
import { formatBytes, guardGetStream } from './fetch-middleware';
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

/**
 * Bytes of a result text, as sent, that stay in the message when `resultHeadBytes` of it are kept
 * in memory: an escape is up to 6 bytes for one byte of text, and 64 KiB more keep a secret that
 * spans the cut far from the head anyone reads (the rest is redacted on its own way to the side file).
 */
export function spillAfterBytes(resultHeadBytes: number): number {
  return 6 * (resultHeadBytes + 64 * 1024);
}

export function stdioTransport(
  config: StdioServerConfig,
  env: NodeJS.ProcessEnv,
  maxLineBytes: number,
  onOverflow: (message: string) => void = () => {},
  resultHeadBytes?: number,
): ExitWatchingStdioTransport {
  return watchOverflow(spawnTransport(config, env, maxLineBytes, resultHeadBytes), maxLineBytes, onOverflow);
}

function spawnTransport(config: StdioServerConfig, env: NodeJS.ProcessEnv, maxLineBytes: number, resultHeadBytes: number | undefined): ExitWatchingStdioTransport {
  return new ExitWatchingStdioTransport({
    command: config.command,
    args: config.args ?? [],
    env: minimalEnvironment(env, config.env),
    cwd: config.cwd,
    // Never inherit: a server's stderr must not write over our full-screen UI.
    stderr: 'pipe',
    maxBufferSize: maxLineBytes,
  }, resultHeadBytes !== undefined ? spillAfterBytes(resultHeadBytes) : undefined);
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
    fetch: applyMiddlewares(guardGetStream(options.url))(options.fetch ?? fetch),
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
