import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, type RunEvent, type RunOptions } from '../../../src/services/shell/run';
import type { SandboxSettings } from '../../../src/services/sandbox/index';
import { sandboxMissing } from '../../helpers/sandbox';

const SANDBOX: SandboxSettings = { writable: [], network: false, hide: [], readable: [] };

async function collect(options: Partial<RunOptions> & { command: string }) {
  const events: RunEvent[] = [];
  for await (const event of runCommand({ timeoutMs: 20_000, maxOutputBytes: 64 * 1024, shell: '/bin/sh', sandbox: SANDBOX, ...options })) events.push(event);
  const output = events.flatMap((event) => (event.type === 'output' ? [event.chunk] : [])).join('');
  const exit = events.at(-1);
  if (!exit || exit.type !== 'exit') throw new Error('no exit event last');
  return { output, exit };
}

/**
 * A fake home that is also the workspace (the hardest case: the workspace bind must not bring the
 * secrets back), with secrets in it, and a directory outside both that is not under /tmp (the
 * private /tmp would hide it anyway).
 */
function scratch() {
  const home = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'aish-sbx-home-')));
  mkdirSync(path.join(home, '.ssh'));
  writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n');
  writeFileSync(path.join(home, '.netrc'), 'machine example.com password hunter2\n');
  mkdirSync(path.join(home, '.config', 'aish'), { recursive: true });
  writeFileSync(path.join(home, '.config', 'aish', 'config.json'), '{"apiKey":"sk-secret"}\n');
  const outside = realpathSync(mkdtempSync(path.join('/var/tmp', 'aish-sbx-outside-')));
  const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_STATE_HOME: path.join(home, '.local', 'state') };
  return { home, outside, env };
}

describe.skipIf(sandboxMissing !== undefined)('sandboxed shell commands (bubblewrap)', () => {
  let listener: net.Server;
  let port = 0;
  beforeAll(async () => {
    listener = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.end('hello\n');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as net.AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  it('writes in the workspace, not outside it, and the denied write is the command\'s own error', async () => {
    const { home, outside, env } = scratch();
    const { output, exit } = await collect({ command: `touch inside && echo made; touch ${outside}/escaped`, cwd: home, env });
    expect(output).toMatch(/made\n.*touch: cannot touch '.*escaped': Read-only file system/s);
    expect(exit.exitCode).not.toBe(0);
    expect(existsSync(path.join(home, 'inside'))).toBe(true);
    expect(existsSync(path.join(outside, 'escaped'))).toBe(false);
  });

  it('hides home secrets and aish-tui\'s own config, also when started as root', async () => {
    const { home, env } = scratch();
    const { output } = await collect({
      command: 'id -u; ls -A ~/.ssh | wc -l; cat ~/.ssh/id_ed25519; cat ~/.netrc | wc -c; cat ~/.config/aish/config.json; umount ~/.ssh || echo still-hidden',
      cwd: home,
      env,
    });
    expect(output).not.toContain('PRIVATE KEY');
    expect(output).not.toContain('hunter2');
    expect(output).not.toContain('sk-secret');
    expect(output).toContain('still-hidden');
    // The files are still there outside the sandbox.
    expect(readFileSync(path.join(home, '.ssh', 'id_ed25519'), 'utf8')).toBe('PRIVATE KEY\n');
  });

  it('has a private /tmp and no network unless allowed', async () => {
    const { home, env } = scratch();
    const probe = `node -e "require('net').connect(${port},'127.0.0.1').on('connect',()=>{console.log('connected');process.exit(0)}).on('error',e=>{console.log(e.code);process.exit(1)})"`;
    const shared = path.join(os.tmpdir(), `aish-sbx-shared-${process.pid}`);
    writeFileSync(shared, 'x');
    const marker = `/tmp/aish-private-marker-${process.pid}-${Date.now()}`;
    const closed = await collect({ command: `touch ${marker}; test -e ${shared} && echo shared-visible || echo shared-hidden; ${probe}`, cwd: home, env });
    expect(closed.output).toMatch(/^shared-hidden\n/);
    expect(closed.output).toContain('ECONNREFUSED');
    expect(closed.output).not.toContain('connected');
    expect(existsSync(marker)).toBe(false);
    const open = await collect({ command: probe, cwd: home, env, sandbox: { ...SANDBOX, network: true } });
    expect(open.output).toContain('connected');
  });

  it('makes listed paths writable', async () => {
    const { home, outside, env } = scratch();
    const { exit } = await collect({ command: `touch ${outside}/allowed`, cwd: home, env, sandbox: { ...SANDBOX, writable: [outside] } });
    expect(exit.exitCode).toBe(0);
    expect(existsSync(path.join(outside, 'allowed'))).toBe(true);
  });

  it('ignores a secret path that is a dangling symlink (nothing to hide) instead of failing', async () => {
    const { home, env } = scratch();
    symlinkSync('/nonexistent/target', path.join(home, '.aws'));
    const { output, exit } = await collect({ command: 'touch made && echo ok', cwd: home, env });
    expect(output).toBe('ok\n');
    expect(exit.exitCode).toBe(0);
  });

  it('shows bubblewrap\'s own error in the output when it fails to start the command', async () => {
    const { home, env } = scratch();
    // A bwrap that passes the trial run and then fails as bwrap does.
    const bin = mkdtempSync(path.join(os.tmpdir(), 'aish-sbx-fakebin-'));
    writeFileSync(path.join(bin, 'bwrap'), '#!/bin/sh\nfor last; do :; done\n[ "$last" = true ] && exit 0\necho "bwrap: Can\'t mount tmpfs on /newroot/x: No space left" >&2\nexit 1\n', { mode: 0o755 });
    const { output, exit } = await collect({ command: 'touch never', cwd: home, env: { ...env, PATH: `${bin}:${process.env.PATH}` } });
    expect(output).toBe("bwrap: Can't mount tmpfs on /newroot/x: No space left\n");
    expect(exit.exitCode).toBe(1);
    expect(existsSync(path.join(home, 'never'))).toBe(false);
  });

  it('a cancelled command ends with everything it started inside', async () => {
    const { home, env } = scratch();
    const marker = `aish-sbx-sleep-${process.pid}-${Date.now()}`;
    const controller = new AbortController();
    const events: RunEvent[] = [];
    const run = runCommand({ command: `sh -c 'exec -a ${marker} sleep 300' & echo started; wait`, timeoutMs: 60_000, maxOutputBytes: 4096, shell: '/bin/bash', cwd: home, env, sandbox: SANDBOX, signal: controller.signal, killGraceMs: 500 });
    for await (const event of run) {
      events.push(event);
      if (event.type === 'output' && event.chunk.includes('started')) controller.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: 'exit', cancelled: true });
    const alive = () => readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).some((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker);
      } catch {
        return false;
      }
    });
    await expect.poll(alive, { timeout: 10_000 }).toBe(false);
  });
});

describe('a sandbox that cannot be had', () => {
  it('refuses to run the command (never unconfined) and names the package to install', async () => {
    const { home, env } = scratch();
    const { output, exit } = await collect({ command: 'touch ran', cwd: home, env: { ...env, PATH: '/nonexistent' } });
    expect(exit.refused).toMatch(/shell\.sandbox is set, but bwrap was not found on PATH: install the bubblewrap package/);
    expect(output).toBe('');
    expect(existsSync(path.join(home, 'ran'))).toBe(false);
  });
});
