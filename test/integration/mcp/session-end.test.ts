import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { startSessionHttpMcpServer, type SessionHttpMcpServer } from '../../helpers/session-http-mcp-server';
import { testManager, type TestManager, until } from '../../helpers/mcp';
import { CLI, makeScratchHome, testEnv, writeHomeConfig } from '../../helpers/terminal';

// Streamable HTTP with a session: a call the user interrupts is cancelled on the wire
// (notifications/cancelled with its request id), and a session we leave is ended with a DELETE
// carrying its Mcp-Session-Id, on disconnect and on exit alike.

let server: SessionHttpMcpServer | undefined;
let test: TestManager | undefined;
afterEach(async () => {
  await test?.dispose();
  test = undefined;
  await server?.close();
  server = undefined;
});

describe('leaving a streamable-HTTP session', () => {
  it('aish-tui mcp call: Ctrl+C sends notifications/cancelled for the call, then DELETEs the session', async () => {
    server = await startSessionHttpMcpServer();
    const home = makeScratchHome('aish-session-end-');
    writeHomeConfig(home, { builtin: false, mcp: { servers: { web: { url: server.url } } } });
    const child = spawn(process.execPath, [CLI, 'mcp', 'call', 'web__wait', '{}'], { env: testEnv(home), cwd: home });
    let stdout = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    await until(() => server!.waiting.length === 1);
    child.kill('SIGINT');
    expect(await exited).toBe(1);
    expect(stdout).toBe('[aish] tool call cancelled by the user\n');
    const [session] = server.sessions;
    expect(server.notifications.filter((note) => note.method === 'notifications/cancelled')).toEqual([
      { method: 'notifications/cancelled', params: expect.objectContaining({ requestId: server.waiting[0] }), sessionId: session },
    ]);
    expect(server.deleted).toEqual([session]);
    // The cancellation reaches the server before the session ends.
    expect(server.log.slice(-2)).toEqual(['notifications/cancelled', 'DELETE']);
  });

  it('disconnecting, reconnecting and closing each end the session that was open', async () => {
    server = await startSessionHttpMcpServer();
    test = testManager();
    expect((await test.manager.connect('web', { url: server.url })).state).toBe('ready');
    await test.manager.disconnect('web');
    expect(server.deleted).toEqual([server.sessions[0]]);
    await test.manager.reconnect('web');
    await test.manager.reconnect('web');
    expect(server.deleted).toEqual(server.sessions.slice(0, 2));
    await test.manager.close();
    expect(server.deleted).toEqual(server.sessions);
    expect(server.sessions).toHaveLength(3);
  });
});
