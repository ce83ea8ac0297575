import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { SUPPORTED_PROTOCOL_VERSIONS, type Tool, type Transport } from '@modelcontextprotocol/client';
import { ConnectTimeout } from './connect-failure';
import { openConnection, type Connection, type OpenContext, type SessionSpec } from './connection';

// One attempt to connect a server: open the connection and list its tools, within the connect
// timeout. A connect is "done" only once the tools are known: a server that accepts the handshake
// but never lists its tools is as useless to the model as one that never answers.

/**
 * One attempt to connect a server, and the connection it opens. A newer attempt, a disconnect or
 * closing the session aborts it; whatever it started (its callbacks, the connection it opened)
 * checks `current` before it touches the session, so a stale attempt (a slow server that answers
 * after the user reconnected) never changes the server's state.
 */
export class ConnectAttempt {
  private readonly controller = new AbortController();
  /** Every transport the attempt created, so an aborted or failed attempt can tear them down. */
  readonly opening: Transport[] = [];

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get current(): boolean {
    return !this.controller.signal.aborted;
  }

  abort(): void {
    this.controller.abort();
  }

  /** Closes the transports the attempt opened (before it produced a connection). */
  async closeOpening(): Promise<void> {
    const transports = this.opening.splice(0);
    await Promise.all(transports.map((transport) => transport.close().catch(() => {})));
  }
}

export interface OpenedServer {
  connection: Connection;
  tools: Tool[];
}

/**
 * The SDK refuses an `initialize` answer with a protocol version it does not know, in words that
 * do not say what it would have accepted; the user needs both to tell which side is too old.
 */
export function unsupportedVersionError(error: unknown): unknown {
  const match = error instanceof Error ? /^Server's protocol version is not supported: (.*)$/.exec(error.message) : null;
  if (!match) return error;
  return new Error(`the server answered with protocol version ${match[1]}, which this client does not support (it supports ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`, { cause: error });
}

/** A failed 2026-07-28 probe (protocol.ts) is explained by what failed under it (a refused connection, a 401). */
function probeCause(error: unknown): unknown {
  if (SdkError.isInstance(error) && error.code === SdkErrorCode.EraNegotiationFailed && error.cause !== undefined) return error.cause;
  return error;
}

export async function openAndList(spec: SessionSpec, context: OpenContext): Promise<OpenedServer> {
  const connection = await openConnection(spec, context).catch((error: unknown) => {
    throw unsupportedVersionError(probeCause(error));
  });
  const listed = await connection.client.listTools(undefined, { timeout: context.timeoutMs });
  return { connection, tools: listed.tools };
}

/**
 * Waits at most `timeoutMs` for `attempt`, and not past `signal`. When it fails, times out or is
 * aborted, a connection the attempt still opens later is closed: nothing opened for a failed
 * connect lingers.
 */
export async function within(attempt: Promise<OpenedServer>, timeoutMs: number, signal: AbortSignal): Promise<OpenedServer> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectTimeout(timeoutMs)), timeoutMs);
  });
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([attempt, timeout, aborted]);
  } catch (error) {
    attempt.then((late) => late.connection.close().catch(() => {}), () => {});
    throw error;
  } finally {
    clearTimeout(timer);
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
