import type http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Listens on a loopback port and counts the connections the client opened and the ones closed, so
 * a test can tell a kept-alive connection from a new one. The base URL ends in /v1.
 */
export async function listenCounted(server: http.Server): Promise<{ url: string; connections: () => number; closed: () => number }> {
  let connections = 0;
  let closed = 0;
  // Longer than the client's idle limit: which side closes an unused connection is then the client's doing.
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => {
    connections++;
    socket.on('close', () => closed++);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, connections: () => connections, closed: () => closed };
}
