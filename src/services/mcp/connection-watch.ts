import type { Client } from '@modelcontextprotocol/client';
import { Liveness, type PingOptions } from './liveness';
import type { AishOAuthProvider } from './oauth';
import { WatchedSseTransport } from './watched-sse';
import { WatchedStreamableTransport } from './watched-transports';

// What an HTTP connection does when one of its streams breaks or an idle server stops answering.
// A server that cannot be reached is lost at once; a stream that merely ended (a proxy's idle
// timeout ends streams too) costs only the calls it carried, and a ping decides about the rest.

export interface WatchedConnection {
  client: Client;
  transport: WatchedStreamableTransport | WatchedSseTransport;
  /** A ping that meets an expired authorization must not open a browser on its own. */
  oauth?: AishOAuthProvider;
}

export function watchConnection({ client, transport, oauth }: WatchedConnection, ping: PingOptions, lost: (reason: string) => void): Liveness {
  const liveness = new Liveness(
    {
      ping: (options) => (oauth ? oauth.unattended(() => client.ping(options)) : client.ping(options)),
      // A legacy SSE stream being re-opened: the old session's 404 would be taken for a death.
      busy: () => transport.awaiting.size > 0 || (transport instanceof WatchedSseTransport && !transport.streamOpen),
      lastHeardAt: () => transport.awaiting.lastHeardAt,
    },
    ping,
    lost,
  );
  if (transport instanceof WatchedStreamableTransport) {
    transport.onResponseLost = (id, reason, unreachable) => {
      if (unreachable) {
        lost(reason);
        return;
      }
      // Only this call is lost: a proxy's idle timeout ends one stream, not the server. The ping
      // tells whether the server itself went away, which would end every other call too.
      transport.failRequest(id, reason);
      void liveness.check();
    };
    transport.onStreamBroken = () => void liveness.check();
  } else {
    // The calls the stream carried have failed already. Whether the server is still there shows
    // when the event source re-opens the stream: a refused, failed or hanging re-open loses it.
    transport.onUnreachable = lost;
  }
  return liveness;
}
