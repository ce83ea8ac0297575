import { applyMiddlewares, Client, type ListChangedHandlers, type Transport } from '@modelcontextprotocol/client';
import { isStdioServer } from '../config/checks';
import type { HttpServerConfig, ServerConfig } from '../config/schema';
import type { AishOAuthProvider } from './oauth';
import type { ResolvedMcpOptions } from './options';
import type { StderrTail } from './stderr';
import { limitMessageSize, recordStatus } from './fetch-middleware';
import { spillResultTexts } from './spill-http';
import { sseTransport, stdioTransport, streamableTransport, withLegacyFallback } from './transports';
import type { SessionSpec } from './target';
import type { TransportKind } from './types';
import { watchConnection } from './connection-watch';
import { endHttpSession } from './session-end';
import type { Liveness } from './liveness';
import { processEndLine } from './connect-failure';
import { clientCapabilities } from './capabilities';
import { TaskAwareClient } from './task-client';
import { guardToolLists } from './tool-list-guard';
import { MAX_TOOLS } from './tool-list';
import { watchLateProgress, type LateProgress } from './late-progress';
import { versionNegotiation } from './protocol';
import { sandboxedStdio } from './sandboxed-stdio';

// Opens one client connection: picks the transport, attaches auth, falls back from streamable HTTP
// to the legacy SSE transport when the server does not know the first POST.

export type { SessionSpec } from './target';

export interface Connection {
  client: Client;
  transport: Transport;
  kind: TransportKind;
  /** `endSession: false` when the server is gone or hangs: no DELETE that would only wait. */
  close(options?: { endSession?: boolean }): Promise<void>;
  /** How a stdio server's process ended (`exited with code 3 (stderr: Error: ...)`), once it has. */
  processEnd?: () => string;
  /** Pings a remote server while idle; started once the session is ready. */
  liveness?: Liveness;
}

export interface OpenContext {
  options: ResolvedMcpOptions;
  timeoutMs: number;
  stderr: StderrTail;
  onStderr: () => void;
  listChanged: ListChangedHandlers;
  /** Registers the client's handlers before connecting: server-to-client requests (client-requests.ts), sampling and logging (client-handlers.ts). */
  prepareClient?: (client: Client) => void;
  /** Static Authorization header value (from authToken/authEnv), if any. */
  bearer?: string;
  oauth?: AishOAuthProvider;
  /** Every transport created, so a timed-out attempt can be torn down from outside. */
  track: (transport: Transport) => void;
  /** The HTTP transport of the last attempt (OAuth completion needs the same one). */
  onHttpTransport?: (transport: { finishAuth(params: URLSearchParams): Promise<void> }) => void;
  /** Status of the last HTTP response from the server, to explain OAuth failures after a 401. */
  recordStatus: (status: number) => void;
  /** Why the transport stopped the server (a stdio message over the size limit). */
  onTransportProblem?: (message: string) => void;
  /** The server is gone: a stream could not be resumed or re-opened, or a ping went unanswered. */
  onConnectionLost?: (reason: string) => void;
  /** A tool dropped from a tools/list answer before it was parsed (too large, too deep, malformed). */
  onToolDropped?: (note: string) => void;
  /** A stdio server printed a line that is not an MCP message: the kept ones, newest last. */
  onStrayStdout?: (lines: string[]) => void;
  /** Progress for a call that already returned (late-progress.ts). */
  onLateProgress?: (late: LateProgress) => void;
}

/** `config` is absent for the built-in server, which is spoken to with `initialize` (nothing to find out). */
function newClient(options: ResolvedMcpOptions, context: Pick<OpenContext, 'listChanged' | 'prepareClient' | 'timeoutMs'>, config?: ServerConfig, transport: 'streamable-http' | 'sse' | 'stdio' = 'stdio'): Client {
  const negotiation = config ? versionNegotiation(config, context.timeoutMs, transport) : { mode: 'legacy' as const };
  const client = new TaskAwareClient(
    { name: options.clientName, version: options.clientVersion },
    {
      capabilities: clientCapabilities(options.features),
      listChanged: context.listChanged,
      // Absent for `legacy`: the plain 2025 client, exactly as before negotiation existed.
      ...(negotiation.mode === 'legacy' ? {} : { versionNegotiation: negotiation }),
    },
  );
  context.prepareClient?.(client);
  return client;
}

async function connectClient(client: Client, transport: Transport, context: OpenContext): Promise<void> {
  context.track(transport);
  // Before the client attaches its handler: every tools/list answer is screened before it is parsed.
  guardToolLists(transport, { ...context.options.limits, maxTools: MAX_TOOLS }, (note) => context.onToolDropped?.(note));
  watchLateProgress(transport, (late) => context.onLateProgress?.(late));
  await client.connect(transport, { timeout: context.timeoutMs });
}

async function openHttp(config: HttpServerConfig, context: OpenContext): Promise<Connection> {
  const url = new URL(config.url);
  const headers: Record<string, string> = { ...config.headers };
  if (context.bearer) headers.Authorization = `Bearer ${context.bearer}`;
  // Innermost first: each answer's status is recorded as it arrives, then its size bounded, then
  // a huge result's text read into a file past its head (spill-http.ts).
  const limits = context.options.limits;
  const fetchImpl = applyMiddlewares(recordStatus(url, context.recordStatus), limitMessageSize(limits.httpMaxMessageBytes), spillResultTexts(limits.resultHeadBytes))(context.options.fetch ?? fetch);
  const base = { url, headers, authProvider: context.bearer ? undefined : context.oauth, fetch: fetchImpl };

  const attempt = async (kind: 'streamable-http' | 'sse'): Promise<Connection> => {
    const client = newClient(context.options, context, config, kind);
    const transport = kind === 'sse' ? sseTransport(base) : streamableTransport(base);
    const liveness = watchConnection({ client, transport, oauth: base.authProvider }, context.options.ping, (reason) => context.onConnectionLost?.(reason));
    context.onHttpTransport?.(transport);
    const close = async ({ endSession = true } = {}) => {
      liveness.stop();
      if (endSession) await endHttpSession(transport);
      await client.close();
    };
    try {
      await connectClient(client, transport, context);
    } catch (error) {
      await close().catch(() => {});
      throw error;
    }
    return { client, transport, kind, liveness, close };
  };

  if (config.transport === 'sse') return attempt('sse');
  if (config.transport === 'http') return attempt('streamable-http');
  // Only a 4xx answer to the POST suggests the legacy transport: a timeout or a refused
  // connection would fail the same way there.
  return withLegacyFallback(() => attempt('streamable-http'), () => attempt('sse'));
}

export async function openConnection(spec: SessionSpec, context: OpenContext): Promise<Connection> {
  if (spec.kind === 'builtin') {
    // Loaded only when the built-in server starts: the MCP server SDK carries its own copy of the
    // protocol's schemas, about 5 MB of memory a config without the built-in tools does not need.
    const { startBuiltinServer } = await import('../builtin/index');
    const builtin = await startBuiltinServer({ version: context.options.clientVersion });
    const client = newClient(context.options, context);
    try {
      await connectClient(client, builtin.transport, context);
    } catch (error) {
      await builtin.close().catch(() => {});
      throw error;
    }
    return {
      client,
      transport: builtin.transport,
      kind: 'in-memory',
      close: async () => {
        await client.close().catch(() => {});
        await builtin.close().catch(() => {});
      },
    };
  }
  const config = spec.config;
  if (!isStdioServer(config)) return openHttp(config, context);

  const transport = stdioTransport(await sandboxedStdio(config, context.options.env), context.options.env, context.options.limits.stdioMaxLineBytes, context.onTransportProblem, context.options.limits.resultHeadBytes);
  transport.strayStdout.onLine = () => context.onStrayStdout?.(transport.strayStdout.tail.snapshot());
  const stream = transport.stderr;
  stream?.on('data', (chunk: Buffer | string) => {
    context.stderr.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
    context.onStderr();
  });
  const client = newClient(context.options, context, config);
  try {
    await connectClient(client, transport, context);
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  const processEnd = () => processEndLine({ exit: transport.exit, stderr: context.stderr, strayStdout: transport.strayStdout.first });
  return { client, transport, kind: 'stdio', close: () => client.close(), processEnd };
}
