import { afterEach, describe, expect, it } from 'vitest';
import { startEverything, testManager, type RunningServer, type TestManager, until } from '../../helpers/mcp';
import { startCuttingProxy, type CuttingProxy } from './cutting-proxy';

// One call's answer stream ending early (a proxy's idle timeout; no event ids, so no resumption)
// costs that call only: a ping shows the server still answers, and the other calls go on. Behind
// the same proxy, a server that really died is shown in error.

let test: TestManager | undefined;
let server: RunningServer | undefined;
let proxy: CuttingProxy | undefined;
afterEach(async () => {
  await test?.dispose();
  await proxy?.close();
  await server?.stop();
  test = undefined;
  server = undefined;
  proxy = undefined;
});

const LONG = { duration: 30, steps: 30 };
const SHORT = { duration: 3, steps: 3 };

describe('an answer stream that ends without the answer', () => {
  it('fails only its own call when the server still answers a ping', async () => {
    server = await startEverything('streamableHttp');
    const isLong = (rpc: { method?: string; params?: Record<string, unknown> }) =>
      rpc.method === 'tools/call' && (rpc.params?.arguments as { duration?: number } | undefined)?.duration === LONG.duration;
    proxy = await startCuttingProxy(server.url, { cut: isLong, cutAfterMs: 800 });
    // Idle pings far away: any ping seen comes from the check the lost answer asked for.
    test = testManager({ ping: { intervalMs: 600_000, timeoutMs: 5_000 } });
    expect((await test.manager.connect('evp', { url: proxy.url, timeoutMs: 120_000 })).state).toBe('ready');

    let shortProgress = 0;
    const long = test.manager.callTool('evp', 'trigger-long-running-operation', LONG);
    const short = test.manager.callTool('evp', 'trigger-long-running-operation', SHORT, { onProgress: () => (shortProgress += 1) });
    const startedAt = Date.now();
    const lost = await long;
    expect(lost.kind).toBe('transport-error');
    expect(lost.content).toBe('[aish] tool transport error: the stream carrying the answer ended before the answer arrived');
    expect(Date.now() - startedAt).toBeLessThan(15_000);

    // The other call, on the same server, finishes normally.
    const done = await short;
    expect(done.kind).toBe('ok');
    expect(shortProgress).toBeGreaterThan(0);
    expect(proxy.rpcMethods()).toContain('ping');
    expect(test.manager.servers()[0]!.state).toBe('ready');
    expect(test.statuses().some((line) => line.includes('connection to the server was lost'))).toBe(false);
    // And the server takes new calls.
    expect((await test.manager.callTool('evp', 'echo', { message: 'still here' })).content).toBe('Echo: still here');
  }, 30_000);

  it('marks the server in error when the ping shows it gone (the proxy answers 502)', async () => {
    server = await startEverything('streamableHttp');
    proxy = await startCuttingProxy(server.url);
    test = testManager({ ping: { intervalMs: 600_000, timeoutMs: 5_000 } });
    expect((await test.manager.connect('evp', { url: proxy.url, timeoutMs: 120_000 })).state).toBe('ready');
    let progressed = 0;
    const call = test.manager.callTool('evp', 'trigger-long-running-operation', LONG, { onProgress: () => (progressed += 1) });
    await until(() => progressed > 0);
    const exited = new Promise((resolve) => server!.child.once('exit', resolve));
    server.child.kill('SIGKILL');
    await exited;
    server = undefined;
    const killedAt = Date.now();
    const outcome = await call;
    expect(outcome.kind).toBe('transport-error');
    expect(outcome.content).toMatch(/^\[aish\] tool transport error: (the stream carrying the answer ended before the answer arrived|the connection to the server was lost: .+)$/);
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    await until(() => test!.manager.servers()[0]?.state === 'error');
    expect(test.manager.servers()[0]!.error).toBe('the connection to the server was lost: a ping was answered with HTTP 502');
  }, 30_000);
});

describe('a legacy SSE event stream that a proxy ends', () => {
  it('fails the call it carried at once; the stream re-opens and the server stays ready', async () => {
    server = await startEverything('sse');
    let gets = 0;
    // The first event stream is ended after a while, once; its re-opened successor is left alone.
    proxy = await startCuttingProxy(server.url, { cut: (_rpc, httpMethod) => httpMethod === 'GET' && gets++ === 0, cutAfterMs: 1_500 });
    // Pings every 100 ms: one sent to the old session while the stream is down would be answered
    // 404 and taken for a dead server.
    test = testManager({ ping: { intervalMs: 100, timeoutMs: 3_000 } });
    expect((await test.manager.connect('evs', { url: proxy.url, transport: 'sse', timeoutMs: 120_000 })).state).toBe('ready');
    const startedAt = Date.now();
    const outcome = await test.manager.callTool('evs', 'trigger-long-running-operation', LONG);
    expect(outcome).toMatchObject({ kind: 'transport-error', content: "[aish] tool transport error: the server ended its event stream before the answer arrived" });
    expect(Date.now() - startedAt).toBeLessThan(15_000);
    // The event source re-opens the stream after about 3 s; the server stays ready through it.
    await until(() => proxy!.requests.filter((request) => request.httpMethod === 'GET').length >= 2);
    await until(() => proxy!.rpcMethods().filter((method) => method === 'ping').length >= 2);
    expect(test.manager.servers()[0]!.state).toBe('ready');
    expect((await test.manager.callTool('evs', 'echo', { message: 'again' })).content).toBe('Echo: again');
  }, 30_000);
});
