import { afterEach, describe, expect, it } from 'vitest';
import { startEverything, testManager, type RunningServer, type TestManager, killHard, until } from '../../helpers/mcp';

// An HTTP server that goes away: the call in flight ends soon with the reason (not after the tool
// timeout), and the server is shown in error instead of ready.

let test: TestManager | undefined;
let server: RunningServer | undefined;
afterEach(async () => {
  await test?.dispose();
  await server?.stop();
  test = undefined;
  server = undefined;
});

/** Kills the server for good; already gone, it is nothing for afterEach to stop. */
async function kill(running: RunningServer): Promise<void> {
  await killHard(running);
  if (server === running) server = undefined;
}

describe('a streamable HTTP server that dies', () => {
  it('fails the running call once the stream is lost and cannot be resumed, and marks the server in error', async () => {
    server = await startEverything('streamableHttp');
    test = testManager();
    // A tool timeout far longer than the test: the call must end because the connection is gone.
    const ready = await test.manager.connect('evh', { url: server.url, timeoutMs: 120_000 });
    expect(ready.state).toBe('ready');
    let progressed = 0;
    const call = test.manager.callTool('evh', 'trigger-long-running-operation', { duration: 60, steps: 60 }, { onProgress: () => (progressed += 1) });
    await until(() => progressed > 0, 10_000);
    const killedAt = Date.now();
    await kill(server);
    const outcome = await call;
    expect(outcome.kind).toBe('transport-error');
    expect(outcome.content).toMatch(/^\[aish\] tool transport error: the connection to the server was lost/);
    // Bounded by the transport's resumption attempts, never the 120 s tool timeout.
    expect(Date.now() - killedAt).toBeLessThan(15_000);
    await until(() => test!.manager.servers()[0]?.state === 'error');
    const snapshot = test.manager.servers()[0]!;
    expect(snapshot.error).toMatch(/^the connection to the server was lost/);
    expect(snapshot.error).not.toContain('\n');
    expect(snapshot.tools).toEqual([]);
    expect(test.statuses().filter((line) => line.startsWith('mcp evh: the connection to the server was lost'))).toHaveLength(1);
  }, 30_000);

  it('moves to error when a later call cannot reach the server', async () => {
    server = await startEverything('streamableHttp');
    test = testManager();
    expect((await test.manager.connect('evh', { url: server.url })).state).toBe('ready');
    await kill(server);
    const outcome = await test.manager.callTool('evh', 'echo', { message: 'hi' });
    expect(outcome.kind).toBe('transport-error');
    expect(outcome.content).toMatch(/^\[aish\] tool transport error: .*cannot reach the server \(ECONNREFUSED\)/);
    await until(() => test!.manager.servers()[0]?.state === 'error');
    expect(test.manager.servers()[0]!.error).toMatch(/cannot reach the server \(ECONNREFUSED\)/);
    // The next call is answered from the state, without another attempt.
    const later = await test.manager.callTool('evh', 'echo', { message: 'again' });
    expect(later.content).toMatch(/^\[aish\] tool transport error: server "evh" is not connected \(error: /);
  }, 30_000);
});
