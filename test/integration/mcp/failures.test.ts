import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../src/services/config/schema';
import { EVERYTHING, MISBEHAVING, testManager, type TestManager, until } from '../../helpers/mcp';

// Servers that fail in the ways real ones do. Every call still ends in text for the model, and the
// user sees one clear line per server.

const misbehaving = (...args: string[]): ServerConfig => ({ command: process.execPath, args: [MISBEHAVING, ...args] });
/** A process that never speaks MCP but, like a real server, exits when its stdin closes. */
const SILENT = 'process.stdin.resume(); process.stdin.on("end", () => process.exit(0));';

let test: TestManager | undefined;
afterEach(async () => {
  await test?.dispose();
  test = undefined;
});

describe('misbehaving servers', () => {
  it('answers a call whose server dies in the middle of it, and shows why', async () => {
    test = testManager();
    await test.manager.connect('fragile', misbehaving());
    const outcome = await test.manager.callTool('fragile', 'crash', {});
    expect(outcome.kind).toBe('transport-error');
    expect(outcome.content).toBe('[aish] tool transport error: the server process exited with code 3 (stderr: fatal: simulated crash in the middle of a call)');
    await until(() => test!.manager.servers()[0]?.state === 'error');
    const snapshot = test.manager.servers()[0]!;
    // How it ended and the line that says why; the whole tail stays in the snapshot.
    expect(snapshot.error).toBe('the server process exited with code 3 (stderr: fatal: simulated crash in the middle of a call)');
    expect(snapshot.stderr).toContain('fatal: simulated crash in the middle of a call');
    expect(snapshot.tools).toEqual([]);
    // Later calls are answered at once instead of hanging.
    const later = await test.manager.callTool('fragile', 'echo', { text: 'x' });
    expect(later.content).toMatch(/^\[aish\] tool transport error: server "fragile" is not connected \(error: /);
    // Reconnecting on request works.
    expect((await test.manager.reconnect('fragile')).state).toBe('ready');
  });

  it('names the signal when a server is killed in the middle of a call, not its last stderr line', async () => {
    test = testManager();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aish-mcp-kill-'));
    const pidFile = path.join(dir, 'pid');
    try {
      // `exec` keeps the shell's pid, so the test knows which process to kill.
      const config: ServerConfig = { command: '/bin/sh', args: ['-c', `echo $$ > '${pidFile}'; exec '${process.execPath}' '${EVERYTHING}' stdio`] };
      expect((await test.manager.connect('ev', config)).state).toBe('ready');
      let progressed = 0;
      const call = test.manager.callTool('ev', 'trigger-long-running-operation', { duration: 30, steps: 30 }, { onProgress: () => (progressed += 1) });
      await until(() => progressed > 0, 10_000);
      process.kill(Number(readFileSync(pidFile, 'utf8').trim()), 'SIGKILL');
      const outcome = await call;
      expect(outcome.content).toBe('[aish] tool transport error: the server process was killed by SIGKILL');
      await until(() => test!.manager.servers()[0]?.state === 'error');
      const snapshot = test.manager.servers()[0]!;
      expect(snapshot.error).toBe('the server process was killed by SIGKILL');
      // server-everything's start-up banner is in the tail, not in the error line.
      expect(snapshot.stderr.join('\n')).toMatch(/Starting default \(STDIO\) server/);
      expect(test.statuses()).toContain('mcp ev: the server process was killed by SIGKILL');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the exit code and the error message of a server that exits while connecting, not a stack frame', async () => {
    test = testManager();
    // A start-up failure as Node reports it: message, frames, then the runtime's footer.
    const script = 'function load() { throw new Error("cannot read /etc/aish-nope.json: ENOENT"); } try { load(); } catch (e) { console.error(e.stack); console.error("Node.js " + process.version); process.exit(3); }';
    const snapshot = await test.manager.connect('broken', { command: process.execPath, args: ['-e', script] });
    expect(snapshot).toMatchObject({ state: 'error', error: 'the server process exited with code 3 (stderr: Error: cannot read /etc/aish-nope.json: ENOENT)' });
    expect(snapshot.stderr.some((line) => line.trim().startsWith('at load'))).toBe(true);
    expect(test.statuses()).toContain('mcp broken: the server process exited with code 3 (stderr: Error: cannot read /etc/aish-nope.json: ENOENT)');
  });

  it('names the signal of a server killed while connecting, without its banner', async () => {
    test = testManager();
    const script = 'console.error("server starting"); process.kill(process.pid, "SIGKILL");';
    const snapshot = await test.manager.connect('killed', { command: process.execPath, args: ['-e', script] });
    expect(snapshot).toMatchObject({ state: 'error', error: 'the server process was killed by SIGKILL' });
  });

  it('says what a server printed on stdout instead of MCP, escaped', async () => {
    test = testManager();
    const hello = await test.manager.connect('hello', { command: process.execPath, args: ['-e', `console.log("Hello world"); ${SILENT}`], connectTimeoutMs: 500 });
    expect(hello).toMatchObject({ state: 'error', error: 'timed out after 500ms; it printed "Hello world" on stdout, which is not an MCP message' });
    const escapes = await test.manager.connect('escapes', { command: process.execPath, args: ['-e', 'process.stdout.write("Hello \\u001b[31mworld")'] });
    expect(escapes).toMatchObject({ state: 'error', error: 'the server process exited with code 0; it printed "Hello \\u001b[31mworld" on stdout, which is not an MCP message' });
  });

  it('does not repeat a hung server\'s banner in its timeout message (the stderr tail has it)', async () => {
    test = testManager();
    const snapshot = await test.manager.connect('hung', { command: process.execPath, args: ['-e', `console.error("listening on stdio"); ${SILENT}`], connectTimeoutMs: 500 });
    expect(snapshot).toMatchObject({ state: 'error', error: 'timed out after 500ms', stderr: ['listening on stdio'] });
  });

  it('times out a call that never returns and tells the server it was cancelled', async () => {
    test = testManager();
    await test.manager.connect('sleepy', { ...misbehaving(), timeoutMs: 300 });
    const outcome = await test.manager.callTool('sleepy', 'hang', {});
    expect(outcome).toEqual({ kind: 'timeout', content: '[aish] tool transport error: timed out after 300ms', isError: true });
    // The server writes every notifications/cancelled it receives to stderr, which we keep.
    await until(() => test!.manager.servers()[0]!.stderr.some((line) => line.startsWith('cancelled request')));
    expect(test.manager.servers()[0]!.stderr.find((line) => line.startsWith('cancelled request'))).toMatch(/timed out/i);
  });

  it('sends notifications/cancelled when the user cancels', async () => {
    test = testManager();
    await test.manager.connect('sleepy', misbehaving());
    const controller = new AbortController();
    const call = test.manager.callTool('sleepy', 'hang', {}, { signal: controller.signal });
    await until(() => test!.manager.servers()[0]!.stderr.some((line) => line.startsWith('hanging on request')));
    controller.abort();
    expect((await call).kind).toBe('cancelled');
    await until(() => test!.manager.servers()[0]!.stderr.some((line) => line.startsWith('cancelled request')));
  });

  it('ignores non-JSON lines and escape sequences on stdout, keeps stderr capped and raw', async () => {
    test = testManager();
    const snapshot = await test.manager.connect('noisy', misbehaving('--banner'));
    expect(snapshot.state).toBe('ready');
    const outcome = await test.manager.callTool('noisy', 'noisy', {});
    expect(outcome.kind).toBe('ok');
    // The model gets the text as the server sent it; the UI sanitizes at display time.
    expect(outcome.content).toBe('noisy but fine \u001b[1mbold\u001b[0m');
    await until(() => test!.manager.servers()[0]!.stderr.some((line) => line.includes('clipboard attempt')));
    const stderr = test.manager.servers()[0]!.stderr;
    const long = stderr.find((line) => line.startsWith('xxx'))!;
    expect(long.length).toBeLessThan(600);
    expect(long).toMatch(/more characters\)$/);
  });

  it('keeps only the last lines of a chatty stderr', async () => {
    test = testManager();
    const script = `for (let i = 0; i < 500; i++) console.error("line " + i); ${SILENT}`;
    await test.manager.connect('chatty', { command: process.execPath, args: ['-e', script], connectTimeoutMs: 1_500 });
    const stderr = test.manager.servers()[0]!.stderr;
    expect(stderr.length).toBe(200);
    expect(stderr.at(-1)).toBe('line 499');
  });

  it('reports a command that does not exist in one line', async () => {
    test = testManager();
    const snapshot = await test.manager.connect('missing', { command: 'aish-no-such-command-xyz' });
    expect(snapshot.state).toBe('error');
    expect(snapshot.error).toBe('spawn aish-no-such-command-xyz ENOENT');
  });

  it('reports a server that never finishes the handshake as a timeout', async () => {
    test = testManager();
    const snapshot = await test.manager.connect('silent', { command: process.execPath, args: ['-e', SILENT], connectTimeoutMs: 400 });
    expect(snapshot).toMatchObject({ state: 'error', error: 'timed out after 400ms' });
  });

  it('gives the child a minimal environment plus its configured env', async () => {
    test = testManager({ env: { PATH: process.env.PATH, HOME: '/home/tester', AISH_SECRET_API_KEY: 'must-not-leak' } });
    const script = [
      'const rl = require("readline").createInterface({ input: process.stdin });',
      'rl.on("line", (l) => { const m = JSON.parse(l); if (m.id === undefined) return;',
      'const r = m.method === "initialize" ? { protocolVersion: m.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "env", version: "1" } }',
      ': m.method === "tools/list" ? { tools: [] } : {};',
      'process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: m.id, result: r }) + "\\n"); });',
      'console.error(JSON.stringify(Object.keys(process.env).filter((k) => !k.startsWith("npm_"))));',
    ].join('\n');
    await test.manager.connect('env', { command: process.execPath, args: ['-e', script + '\nconsole.error("my key is " + process.env.CONFIGURED);'], env: { CONFIGURED: 'sk-configured-secret' } });
    await until(() => test!.manager.servers()[0]!.stderr.length > 0);
    const keys = JSON.parse(test.manager.servers()[0]!.stderr[0]!) as string[];
    expect(keys).toContain('CONFIGURED');
    expect(keys).toContain('HOME');
    expect(keys).not.toContain('AISH_SECRET_API_KEY');
    // A configured value is a secret as far as the screen is concerned.
    await until(() => test!.manager.servers()[0]!.stderr.length > 1);
    expect(test.manager.servers()[0]!.stderr[1]).toBe('my key is [redacted]');
  });
});

describe('notifications/tools/list_changed', () => {
  it('re-lists once for a burst of notifications and updates the snapshot', async () => {
    test = testManager();
    await test.manager.connect('growing', misbehaving());
    expect(test.manager.servers()[0]!.tools).toHaveLength(5);
    await test.manager.callTool('growing', 'grow', {});
    await until(() => test!.manager.servers()[0]!.tools.length === 6);
    expect(test.manager.servers()[0]!.tools.at(-1)?.name).toBe('extra_5');
    await sleep(500);
    const listings = test.manager.servers()[0]!.stderr.filter((line) => line.startsWith('tools/list #'));
    expect(listings).toEqual(['tools/list #1', 'tools/list #2']);
    // The status names the tool that appeared.
    expect(test.statuses()).toContain('mcp growing: tool list changed (6 tools; added: extra_5)');
  });
});

describe('connecting in the background', () => {
  it('starts every server at once and reports each one as it settles', async () => {
    test = testManager({ builtin: true });
    test.manager.connectAll({
      slow: { command: process.execPath, args: ['-e', SILENT], connectTimeoutMs: 600 },
      missing: { command: 'aish-no-such-command-xyz' },
      off: { command: 'aish-no-such-command-xyz', disabled: true },
    });
    // Nothing was awaited: every enabled server is already listed as connecting.
    expect(test.manager.servers().map((server) => [server.alias, server.state])).toEqual([
      ['builtin', 'connecting'],
      ['slow', 'connecting'],
      ['missing', 'connecting'],
    ]);
    const settled = await test.manager.settled(5_000);
    expect(Object.fromEntries(settled.map((server) => [server.alias, server.state]))).toEqual({ builtin: 'ready', slow: 'error', missing: 'error' });
    // No automatic retry: the failed server stays failed until asked.
    await sleep(800);
    expect(test.manager.servers().find((server) => server.alias === 'missing')?.state).toBe('error');
  });
});
