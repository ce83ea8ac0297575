import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { FetchLike } from '@modelcontextprotocol/client';
import { startLmcpServer, type LmcpServer } from '../../helpers/lmcp-server';
import { browse, startOAuthMcpServer, type OAuthMcpServer } from '../../helpers/oauth-mcp-server';
import { startEverything, testManager, type RunningServer, type TestManager, killHard, until } from '../../helpers/mcp';

// A remote server that goes away while nobody calls it is shown in error (with the reason) soon,
// not at the next call; a healthy idle server gets an occasional ping and nothing more.

let test: TestManager | undefined;
let server: RunningServer | undefined;
let lmcp: LmcpServer | undefined;
let oauthServer: OAuthMcpServer | undefined;
afterEach(async () => {
  await oauthServer?.close();
  oauthServer = undefined;
  await test?.dispose();
  // A stopped server must run again to see the SIGTERM that ends it.
  server?.child.kill('SIGCONT');
  await server?.stop();
  await lmcp?.close().catch(() => {});
  test = undefined;
  server = undefined;
  lmcp = undefined;
});

/** Kills the server for good; already gone, it is nothing for afterEach to stop. */
async function kill(running: RunningServer): Promise<void> {
  await killHard(running);
  if (server === running) server = undefined;
}

/** A fetch that counts the pings it carries (the manager's own fetch option, no mock). */
function countingPings(): { fetch: FetchLike; pings: () => number; inFlight: () => number; mostInFlight: () => number } {
  let pings = 0;
  let inFlight = 0;
  let mostInFlight = 0;
  const counting: FetchLike = async (input, init) => {
    const isPing = typeof init?.body === 'string' && init.body.includes('"method":"ping"');
    if (!isPing) return fetch(input, init);
    pings += 1;
    inFlight += 1;
    mostInFlight = Math.max(mostInFlight, inFlight);
    try {
      return await fetch(input, init);
    } finally {
      inFlight -= 1;
    }
  };
  return { fetch: counting, pings: () => pings, inFlight: () => inFlight, mostInFlight: () => mostInFlight };
}

function snapshot(alias: string) {
  return test!.manager.servers().find((entry) => entry.alias === alias)!;
}

describe('an idle streamable HTTP server', () => {
  it('that dies is shown in error with the reason, without a call', async () => {
    server = await startEverything('streamableHttp');
    test = testManager({ ping: { intervalMs: 300, timeoutMs: 3_000 } });
    expect((await test.manager.connect('evh', { url: server.url })).state).toBe('ready');
    await kill(server);
    await until(() => snapshot('evh').state === 'error');
    expect(snapshot('evh').error).toMatch(/^the connection to the server was lost: cannot reach the server \(ECONN(REFUSED|RESET)\)$/);
    expect(snapshot('evh').tools).toEqual([]);
    // The status line names the server.
    expect(test.statuses().filter((line) => /^mcp evh: the connection to the server was lost: /.test(line))).toHaveLength(1);
    // The next call is answered from the state, without waiting for anything.
    const outcome = await test.manager.callTool('evh', 'echo', { message: 'hi' });
    expect(outcome.content).toMatch(/^\[aish\] tool transport error: server "evh" is not connected \(error: the connection to the server was lost/);
  });

  it('without a notification stream (lmcp) is found gone by the ping', async () => {
    lmcp = await startLmcpServer();
    test = testManager({ ping: { intervalMs: 200, timeoutMs: 3_000 } });
    expect((await test.manager.connect('boltzmann', { url: lmcp.url })).state).toBe('ready');
    // lmcp has no stream that could break: only a ping can notice.
    await until(() => lmcp!.requests.some((request) => request.rpcMethod === 'ping'));
    await lmcp.close();
    lmcp = undefined;
    await until(() => snapshot('boltzmann').state === 'error');
    expect(snapshot('boltzmann').error).toBe('the connection to the server was lost: cannot reach the server (ECONNREFUSED)');
  });

  it('that stops answering (process stopped, connections still accepted) is shown in error after the ping timeout', async () => {
    server = await startEverything('streamableHttp');
    test = testManager({ ping: { intervalMs: 200, timeoutMs: 1_000 } });
    expect((await test.manager.connect('evh', { url: server.url })).state).toBe('ready');
    server.child.kill('SIGSTOP');
    await until(() => snapshot('evh').state === 'error');
    expect(snapshot('evh').error).toBe('the connection to the server was lost: the server did not answer a ping within 1s');
  });

  it('that is healthy gets one ping at a time, none while a call runs, and none after disconnect', async () => {
    server = await startEverything('streamableHttp');
    const counter = countingPings();
    test = testManager({ fetch: counter.fetch, ping: { intervalMs: 100, timeoutMs: 3_000 } });
    expect((await test.manager.connect('evh', { url: server.url })).state).toBe('ready');
    await until(() => counter.pings() >= 3);
    expect(snapshot('evh').state).toBe('ready');
    expect(counter.mostInFlight()).toBe(1);

    // A running call (no progress asked for, so the server stays silent) keeps the pings away.
    await until(() => counter.inFlight() === 0);
    const call = test.manager.callTool('evh', 'trigger-long-running-operation', { duration: 2, steps: 1 });
    await sleep(50);
    const before = counter.pings();
    const outcome = await call;
    expect(outcome.kind).toBe('ok');
    expect(counter.pings()).toBe(before);

    await test.manager.disconnect('evh');
    const atDisconnect = counter.pings();
    await sleep(600);
    expect(counter.pings()).toBe(atDisconnect);
    expect(snapshot('evh').state).toBe('disconnected');
  });

  it('is not pinged when the interval is 0', async () => {
    server = await startEverything('streamableHttp');
    const counter = countingPings();
    test = testManager({ fetch: counter.fetch, ping: { intervalMs: 0 } });
    expect((await test.manager.connect('evh', { url: server.url })).state).toBe('ready');
    await sleep(800);
    expect(counter.pings()).toBe(0);
  });
});

describe('a legacy SSE server', () => {
  it('that dies mid-call fails the call at once (not at the tool timeout) and is shown in error', async () => {
    server = await startEverything('sse');
    test = testManager({ ping: { intervalMs: 60_000 } });
    const ready = await test.manager.connect('evs', { url: server.url, transport: 'sse', timeoutMs: 120_000 });
    expect(ready).toMatchObject({ state: 'ready', transport: 'sse' });
    let progressed = 0;
    const call = test.manager.callTool('evs', 'trigger-long-running-operation', { duration: 60, steps: 60 }, { onProgress: () => (progressed += 1) });
    await until(() => progressed > 0);
    const killedAt = Date.now();
    await kill(server);
    const outcome = await call;
    expect(outcome.kind).toBe('transport-error');
    expect(outcome.content).toMatch(/^\[aish\] tool transport error: the server's event stream broke \(.+\) before the answer arrived$/);
    // A generous bound, far below the 120 s tool timeout.
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    // Re-opening the stream is refused: the server is shown gone.
    await until(() => snapshot('evs').state === 'error');
    expect(snapshot('evs').error).toMatch(/^the connection to the server was lost: cannot reach the server \(ECONNREFUSED\)$/);
    expect(test.statuses().filter((line) => line.startsWith('mcp evs: the connection to the server was lost'))).toHaveLength(1);
  });

  it('that dies while idle is shown in error', async () => {
    server = await startEverything('sse');
    test = testManager({ ping: { intervalMs: 60_000 } });
    expect((await test.manager.connect('evs', { url: server.url, transport: 'sse' })).state).toBe('ready');
    await kill(server);
    await until(() => snapshot('evs').state === 'error');
    expect(snapshot('evs').error).toMatch(/^the connection to the server was lost: cannot reach the server \(ECONNREFUSED\)$/);
  });

  it('that stops answering while idle is found by the ping', async () => {
    server = await startEverything('sse');
    test = testManager({ ping: { intervalMs: 200, timeoutMs: 1_000 } });
    expect((await test.manager.connect('evs', { url: server.url, transport: 'sse' })).state).toBe('ready');
    server.child.kill('SIGSTOP');
    await until(() => snapshot('evs').state === 'error');
    expect(snapshot('evs').error).toBe('the connection to the server was lost: the server did not answer a ping within 1s');
  });
});

describe('an idle OAuth server whose authorization ran out', () => {
  it('is pinged without opening a browser; the next call asks for authorization', async () => {
    oauthServer = await startOAuthMcpServer();
    const opened: string[] = [];
    test = testManager({ confirmOpen: async () => true, openUrl: async (url) => void (opened.push(url), await browse(url)), ping: { intervalMs: 150, timeoutMs: 3_000 } });
    await test.manager.connect('secure', { url: oauthServer.url });
    expect((await test.manager.settled(10_000))[0]?.state).toBe('ready');
    expect(opened).toHaveLength(1);

    // The stored access token stops working and there is no refresh token to renew it.
    const dir = path.join(test.stateDir, 'oauth');
    const file = path.join(dir, readdirSync(dir).find((name) => name.endsWith('.json'))!);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { tokens: Record<string, unknown> };
    stored.tokens = { ...stored.tokens, access_token: 'at-revoked-0123456789' };
    delete stored.tokens.refresh_token;
    writeFileSync(file, JSON.stringify(stored), { mode: 0o600 });

    const rejected = oauthServer.stats.rejectedTokens;
    await until(() => oauthServer!.stats.rejectedTokens >= rejected + 2);
    // Pings met the 401 twice: no browser, and the server is not called gone (it answered).
    expect(opened).toHaveLength(1);
    expect(snapshot('secure').state).toBe('ready');

    // The user's own call asks for authorization and then runs.
    const outcome = await test.manager.callTool('secure', 'whoami', {});
    expect(opened).toHaveLength(2);
    expect(outcome.content).toBe('an authorized user');
  });
});
