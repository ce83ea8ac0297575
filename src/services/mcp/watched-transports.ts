import type { ChildProcess } from 'node:child_process';
import { StreamableHTTPClientTransport, type FetchLike, type JSONRPCMessage, type StreamableHTTPClientTransportOptions } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describeError } from './errors';

// Transports that say when the other side is gone, which the SDK's own ones leave to timeouts.

type SendOptions = Parameters<StreamableHTTPClientTransport['send']>[1];
type MessageHandler = NonNullable<StreamableHTTPClientTransport['onmessage']>;
type RequestId = string | number;

/** Plain shape checks: every message passes here, so no schema parsing. */
function requestId(message: JSONRPCMessage): RequestId | undefined {
  const record = message as { id?: unknown; method?: unknown };
  return typeof record.method === 'string' && (typeof record.id === 'string' || typeof record.id === 'number') ? record.id : undefined;
}

function answeredId(message: JSONRPCMessage): RequestId | undefined {
  const record = message as { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
  if (record.method !== undefined || (record.result === undefined && record.error === undefined)) return undefined;
  return typeof record.id === 'string' || typeof record.id === 'number' ? record.id : undefined;
}

function cancelledId(message: JSONRPCMessage): RequestId | undefined {
  const record = message as { method?: unknown; params?: { requestId?: unknown } };
  if (record.method !== 'notifications/cancelled') return undefined;
  const id = record.params?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * When the SSE stream that carries a call's answer breaks, the SDK tries to resume it (GET with
 * Last-Event-ID, a bounded number of times) and then gives up without telling the request, which
 * then waits for its full timeout. This transport reports, through `onResponseLost`, a request
 * whose stream ended for good without its answer; the session treats that as a lost connection.
 */
export class WatchedStreamableTransport extends StreamableHTTPClientTransport {
  /** Called once per request whose answer can no longer arrive, with the reason in one line. */
  onResponseLost?: (reason: string) => void;
  private readonly awaiting = new Set<RequestId>();
  private readonly failures: { last: unknown };

  constructor(url: URL, options: StreamableHTTPClientTransportOptions & { fetch: FetchLike }) {
    const failures: { last: unknown } = { last: undefined };
    const base = options.fetch;
    super(url, {
      ...options,
      // The reason a resumption failed (a refused connection) is only visible at the fetch.
      fetch: async (input, init) => {
        try {
          const response = await base(input, init);
          failures.last = undefined;
          return response;
        } catch (error) {
          if (!init?.signal?.aborted) failures.last = error;
          throw error;
        }
      },
    });
    this.failures = failures;
    // The client assigns `onmessage` when it connects; answers are noted on their way to it.
    let handler: MessageHandler | undefined;
    Object.defineProperty(this, 'onmessage', {
      configurable: true,
      enumerable: true,
      get: (): MessageHandler | undefined =>
        handler &&
        ((message: JSONRPCMessage, ...rest: unknown[]) => {
          const id = answeredId(message);
          if (id !== undefined) this.awaiting.delete(id);
          // Whatever else the transport passes along (request info) goes on unchanged.
          (handler as ((message: JSONRPCMessage, ...rest: unknown[]) => void) | undefined)?.(message, ...rest);
        }),
      set: (value: MessageHandler | undefined) => {
        handler = value;
      },
    });
  }

  override async send(message: JSONRPCMessage | JSONRPCMessage[], options?: SendOptions): Promise<void> {
    if (Array.isArray(message)) return super.send(message, options);
    // A request the client gave up on (timeout, user cancel) no longer waits for its answer.
    const cancelled = cancelledId(message);
    if (cancelled !== undefined) this.awaiting.delete(cancelled);
    const id = requestId(message);
    if (id === undefined || options?.onRequestStreamEnd) return super.send(message, options);
    this.awaiting.add(id);
    options?.requestSignal?.addEventListener('abort', () => this.awaiting.delete(id), { once: true });
    try {
      await super.send(message, { ...options, onRequestStreamEnd: () => this.streamEnded(id) });
    } catch (error) {
      // The call itself fails with this error; nothing is left waiting.
      this.awaiting.delete(id);
      throw error;
    }
  }

  private streamEnded(id: RequestId): void {
    // Also called after a stream that delivered its answer: only a missing answer counts.
    if (!this.awaiting.delete(id)) return;
    const last = this.failures.last;
    this.onResponseLost?.(last ? describeError(last) : 'the server ended the response stream without an answer');
  }

  override async close(): Promise<void> {
    this.awaiting.clear();
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

  override async start(): Promise<void> {
    await super.start();
    // The SDK keeps the child private; without it the exit is described without a code.
    const child = (this as unknown as { _process?: ChildProcess })._process;
    child?.once('exit', (code, signal) => {
      this.exit = { code, signal };
    });
  }
}
