import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../src/services/config/schema';
import { testManager, type TestManager } from '../../helpers/mcp';
import { sandboxMissing } from '../../helpers/sandbox';

// A stdio server with `sandbox` in its config runs inside bubblewrap: the probe server tries to
// read a key under a fake ~/.ssh, reach a loopback port and write outside its workspace.

const PROBE = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'helpers', 'probe-mcp-server.mjs');
// The checkout may itself live under /tmp, which the sandbox replaces: the probe server and its
// packages are made visible again, read-only.
const REPO = path.resolve(path.dirname(PROBE), '..', '..');

function fakeHome() {
  const home = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'aish-sbx-mcp-')));
  mkdirSync(path.join(home, '.ssh'));
  writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
  const outside = realpathSync(mkdtempSync(path.join('/var/tmp', 'aish-sbx-mcp-outside-')));
  return { home, outside, env: { ...process.env, HOME: home } };
}

const text = (outcome: { content: unknown }) => JSON.stringify(outcome.content);

let test: TestManager | undefined;
afterEach(async () => {
  await test?.dispose();
  test = undefined;
});

describe.skipIf(sandboxMissing !== undefined)('a sandboxed stdio server (bubblewrap)', () => {
  let listener: net.Server;
  let port = 0;
  beforeAll(async () => {
    listener = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.end();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it('cannot read ~/.ssh, reach a loopback port or write outside its workspace; the sidebar line says so', async () => {
    const { home, outside, env } = fakeHome();
    test = testManager({ env });
    const config: ServerConfig = { command: process.execPath, args: [PROBE], cwd: home, sandbox: { readable: [REPO] } };
    const snapshot = await test.manager.connect('probe', config);
    expect(snapshot.state).toBe('ready');
    expect(snapshot.sandbox).toMatch(/^sandboxed: no network · writes ~$/);
    const key = await test.manager.callTool('probe', 'read_file', { path: path.join(home, '.ssh', 'id_rsa') });
    expect(text(key)).toContain('ENOENT');
    expect(text(key)).not.toContain('PRIVATE KEY');
    const connection = await test.manager.callTool('probe', 'connect', { port });
    expect(text(connection)).toContain('ECONNREFUSED');
    const escape = await test.manager.callTool('probe', 'write_file', { path: path.join(outside, 'x'), text: 'x' });
    expect(text(escape)).toContain('EROFS');
    expect(existsSync(path.join(outside, 'x'))).toBe(false);
    const inside = await test.manager.callTool('probe', 'write_file', { path: path.join(home, 'notes.txt'), text: 'x' });
    expect(text(inside)).toContain('written');
    expect(existsSync(path.join(home, 'notes.txt'))).toBe(true);
  });

  it('reaches the network when its sandbox allows it', async () => {
    const { home, env } = fakeHome();
    test = testManager({ env });
    const config: ServerConfig = { command: process.execPath, args: [PROBE], cwd: home, sandbox: { network: true, readable: [REPO] } };
    expect((await test.manager.connect('probe', config)).state).toBe('ready');
    expect(text(await test.manager.callTool('probe', 'connect', { port }))).toContain('connected');
  });
});

describe('a stdio server whose sandbox cannot be had', () => {
  it('is not started, and the error names the package to install', async () => {
    const { home, env } = fakeHome();
    test = testManager({ env: { ...env, PATH: '/nonexistent' } });
    const marker = path.join(home, 'started');
    const config: ServerConfig = { command: '/bin/sh', args: ['-c', `touch '${marker}'; exec '${process.execPath}' '${PROBE}'`], cwd: home, sandbox: true };
    const snapshot = await test.manager.connect('probe', config);
    expect(snapshot.state).toBe('error');
    expect(snapshot.error).toMatch(/not started: sandbox is set for this server, but bwrap was not found on PATH: install the bubblewrap package/);
    expect(existsSync(marker)).toBe(false);
  });
});
