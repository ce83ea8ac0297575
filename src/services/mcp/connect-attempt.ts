import { SUPPORTED_PROTOCOL_VERSIONS, type Tool } from '@modelcontextprotocol/client';
import { ConnectTimeout } from './connect-failure';
import { openConnection, type Connection, type OpenContext, type SessionSpec } from './connection';

// One attempt to connect a server: open the connection and list its tools, within the connect
// timeout. A connect is "done" only once the tools are known: a server that accepts the handshake
// but never lists its tools is as useless to the model as one that never answers.

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

export async function openAndList(spec: SessionSpec, context: OpenContext): Promise<OpenedServer> {
  const connection = await openConnection(spec, context).catch((error: unknown) => {
    throw unsupportedVersionError(error);
  });
  const listed = await connection.client.listTools(undefined, { timeout: context.timeoutMs });
  return { connection, tools: listed.tools };
}

/**
 * Waits at most `timeoutMs` for `attempt`. When it fails or times out, a connection the attempt
 * still opens later is closed: nothing opened for a failed connect lingers.
 */
export async function within(attempt: Promise<OpenedServer>, timeoutMs: number): Promise<OpenedServer> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ConnectTimeout(timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([attempt, timeout]);
  } catch (error) {
    attempt.then((late) => late.connection.close().catch(() => {}), () => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
