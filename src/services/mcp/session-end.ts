import type { WatchedSseTransport } from './watched-sse';
import { WatchedStreamableTransport } from './watched-transports';

// Leaving a streamable-HTTP server politely: the notifications already sent (a cancellation sent
// as the user pressed Ctrl+C) get to arrive, then the session is ended with an HTTP DELETE that
// carries its Mcp-Session-Id (the spec's SHOULD), so the server can free what it holds for it.
// Both waits are short and bounded: a server that does not answer must not hold up an exit.

const FLUSH_MS = 1_000;
const DELETE_MS = 2_000;

export async function endHttpSession(transport: WatchedStreamableTransport | WatchedSseTransport): Promise<void> {
  if (!(transport instanceof WatchedStreamableTransport)) return;
  await transport.flushNotifications(FLUSH_MS);
  if (!transport.sessionId) return;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, DELETE_MS);
  });
  // A server that refuses or does not know the session has nothing left to free.
  await Promise.race([transport.terminateSession().catch(() => {}), limit]);
  clearTimeout(timer);
}
