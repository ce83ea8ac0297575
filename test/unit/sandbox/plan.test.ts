import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bwrapArgs, checkSandbox, describeSandbox, planSandbox, prepareSandbox, sandboxSettings } from '../../../src/services/sandbox/index';
import { parseConfig } from '../../../src/services/config/parse';

function fakeHome() {
  const home = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'aish-sbx-plan-')));
  mkdirSync(path.join(home, '.ssh'));
  mkdirSync(path.join(home, '.config', 'aish'), { recursive: true });
  writeFileSync(path.join(home, '.netrc'), 'x');
  return { home, env: { HOME: home, PATH: process.env.PATH } as NodeJS.ProcessEnv };
}

describe('sandbox settings and plan', () => {
  it('fills in the defaults of true and of an object; false and absent are off', () => {
    expect(sandboxSettings(true)).toEqual({ writable: [], network: false, hide: [], readable: [] });
    expect(sandboxSettings({ network: true })).toEqual({ writable: [], network: true, hide: [], readable: [] });
    expect(sandboxSettings(false)).toBeUndefined();
    expect(sandboxSettings(undefined)).toBeUndefined();
  });

  it('hides the secrets that exist, aish-tui\'s own config included, after the workspace bind even when the workspace is the home', () => {
    const { home, env } = fakeHome();
    const plan = planSandbox({ writable: ['~/.cache-missing', '.'], network: false, hide: ['~/.netrc'], readable: [] }, { workspace: home, env });
    expect(plan.hidden).toEqual(expect.arrayContaining([path.join(home, '.ssh'), path.join(home, '.netrc'), path.join(home, '.config', 'aish')]));
    expect(plan.hidden).not.toContain(path.join(home, '.aws'));
    // Missing writable paths and the workspace itself are left out.
    expect(plan.writable).toEqual([]);
    const args = bwrapArgs(plan);
    const bind = args.findIndex((arg, index) => arg === '--bind' && args[index + 1] === home);
    const cover = args.findIndex((arg, index) => arg === '--tmpfs' && args[index + 1] === path.join(home, '.ssh'));
    expect(bind).toBeGreaterThan(args.indexOf('/tmp'));
    expect(cover).toBeGreaterThan(bind);
    expect(args.slice(args.indexOf(path.join(home, '.netrc')) - 2, args.indexOf(path.join(home, '.netrc')) + 1)).toEqual(['--ro-bind', '/dev/null', path.join(home, '.netrc')]);
    expect(args).toContain('--unshare-net');
    expect(args.join(' ')).toContain('--cap-drop ALL');
    expect(bwrapArgs({ ...plan, network: true })).not.toContain('--unshare-net');
  });

  it('makes readable paths visible again over the private /tmp, read-only, before the secrets are covered', () => {
    const { home, env } = fakeHome();
    const below = mkdtempSync(path.join(os.tmpdir(), 'aish-sbx-readable-'));
    const plan = planSandbox({ writable: [], network: false, hide: [], readable: [below, '/nonexistent-aish'] }, { workspace: home, env });
    expect(plan.readable).toEqual([below]);
    const args = bwrapArgs(plan);
    const shown = args.findIndex((arg, index) => arg === '--ro-bind' && args[index + 1] === below);
    expect(shown).toBeGreaterThan(args.indexOf('/tmp'));
    expect(args.findIndex((arg, index) => arg === '--tmpfs' && args[index + 1] === path.join(home, '.ssh'))).toBeGreaterThan(shown);
  });

  it('says what it allows in one line, with ~ for the home', () => {
    const { home, env } = fakeHome();
    const plan = planSandbox({ writable: [], network: false, hide: [], readable: [] }, { workspace: path.join(home, '.ssh', '..'), env });
    expect(describeSandbox(plan)).toBe('sandboxed: writes ~ and a private /tmp only · no network · ~/.ssh and other secrets hidden');
    expect(describeSandbox({ ...plan, network: true }, 'short')).toBe('sandboxed: network · writes ~');
  });

  it('refuses where it cannot confine: not Linux, no bwrap on PATH, a workspace of /', async () => {
    expect(await checkSandbox({ PATH: process.env.PATH }, 'darwin')).toEqual({ ok: false, reason: 'the sandbox needs Linux with bubblewrap; this is darwin' });
    const missing = await checkSandbox({ PATH: '/nonexistent' }, 'linux');
    expect(missing).toMatchObject({ ok: false });
    expect(!missing.ok && missing.reason).toMatch(/bwrap was not found on PATH: install the bubblewrap package \(Debian\/Ubuntu: sudo apt-get install bubblewrap/);
    const root = await prepareSandbox({ writable: [], network: false, hide: [], readable: [] }, '/', process.env);
    expect(root).toMatchObject({ ok: false, reason: expect.stringContaining('the workspace is /, so nothing would stay read-only') });
  });

  it('refuses where bwrap is there but cannot make namespaces (user namespaces off)', async () => {
    const bin = mkdtempSync(path.join(os.tmpdir(), 'aish-sbx-bin-'));
    writeFileSync(path.join(bin, 'bwrap'), '#!/bin/sh\necho "bwrap: No permissions to create new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2\nexit 1\n', { mode: 0o755 });
    const answer = await checkSandbox({ PATH: bin }, 'linux');
    expect(answer).toMatchObject({ ok: false });
    expect(!answer.ok && answer.reason).toMatch(/^bubblewrap \(.*\/bwrap\) cannot make a sandbox here: bwrap: No permissions to create new namespace.*; user namespaces may be off/);
  });

  it('is a config key of shell and of stdio servers', () => {
    const config = parseConfig({ shell: { sandbox: { writable: ['~/.cache'], network: true } }, mcp: { servers: { fs: { command: 'fs-server', sandbox: true } } } }, 'config.json');
    expect(config.shell.sandbox).toEqual({ writable: ['~/.cache'], network: true });
    expect(config.mcp.servers.fs).toMatchObject({ sandbox: true });
    expect(parseConfig({}, 'config.json').shell.sandbox).toBe(false);
    expect(() => parseConfig({ shell: { sandbox: { network: 'yes' } } }, 'config.json')).toThrow();
    let message = '';
    try {
      parseConfig({ mcp: { servers: { web: { url: 'https://example.com/mcp', sandbox: true } } } }, 'config.json');
    } catch (error) {
      message = String((error as { lines?: string[] }).lines ?? error);
    }
    expect(message).toContain('mcp.servers.web: unknown key "sandbox"');
  });
});
