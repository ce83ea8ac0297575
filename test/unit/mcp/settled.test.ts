import { createServer, type Server, type Socket } from 'node:net';
import { setTimeout as realSleep } from 'node:timers/promises';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { testManager, type TestManager } from '../../helpers/mcp';

// settled() waits for the sessions' state changes themselves: no timer has to fire for it to see a
// server become ready (timers are fake here, so a polling wait would never look again), and its
// own timer only ends the wait for a server that is still connecting.

let current: TestManager | undefined;
let silent: { server: Server; sockets: Set<Socket> } | undefined;

afterEach(async () => {
  vi.useRealTimers();
  await current?.dispose();
  current = undefined;
  if (silent) {
    for (const socket of silent.sockets) socket.destroy();
    await new Promise((resolve) => silent!.server.close(resolve));
    silent = undefined;
  }
});

/** A loopback server that accepts connections and never answers. */
async function silentServer(): Promise<string> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  silent = { server, sockets };
  const address = server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/mcp`;
}

describe('settled()', () => {
  it('resolves when the server becomes ready, without any timer firing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    current = testManager({ builtin: true });
    current.manager.connectAll({});
    expect(current.manager.servers().map((server) => server.state)).toEqual(['connecting']);
    const outcome = await Promise.race([current.manager.settled(60_000), realSleep(10_000).then(() => 'still waiting' as const)]);
    expect(outcome === 'still waiting' ? outcome : outcome.map((server) => server.state)).toEqual(['ready']);
  });

  it('ends the wait at its timeout for a server that is still connecting', async () => {
    const url = await silentServer();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    current = testManager({ connectTimeoutMs: 60_000 });
    current.manager.connectAll({ quiet: { url, transport: 'http' } });
    let result: string[] | undefined;
    void current.manager.settled(1_000).then((servers) => {
      result = servers.map((server) => server.state);
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toEqual(['connecting']);
  });
});
