import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { isToolResultTurn, lastMessage, lastUserText, textReply, toolCallReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { sandboxMissing } from '../helpers/sandbox';
import { ROOT, sleep, TerminalSession } from '../helpers/terminal';
import { ask, FRAME_DELAY_MS, prepareHome, waitForSettled } from '../security/helpers/app';

// End to end in a real pseudo-terminal: shell.sandbox and a stdio server's `sandbox` confine what
// runs with bubblewrap (README.md, "Sandbox"). The workspace is the scratch home itself, so the
// private /tmp cannot be what hides ~/.ssh: the secrets must be covered on their own.

const { broker, track } = useBrokerAndTerminals();
const PROBE = path.join(ROOT, 'test', 'helpers', 'probe-mcp-server.mjs');

function home(config: Record<string, unknown>, servers: Record<string, unknown> = {}) {
  const dir = prepareHome({ broker, config, servers });
  mkdirSync(path.join(dir, '.ssh'), { recursive: true });
  writeFileSync(path.join(dir, '.ssh', 'id_rsa'), 'PRIVATE KEY\n');
  return realpathSync(dir);
}

const outsideDir = () => realpathSync(mkdtempSync(path.join('/var/tmp', 'aish-sbx-e2e-')));

describe.skipIf(sandboxMissing !== undefined)('the sandbox (built binary, real pty, bubblewrap)', () => {
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

  it('a sandboxed !touch works in the workspace and fails outside it with its own error; a CMD: frame says "sandboxed"', async () => {
    const dir = home({ shell: { sandbox: true } });
    const outside = outsideDir();
    broker.route(() => textReply('Make it:\nCMD: touch proposed.txt'));
    const term = track(new TerminalSession({ home: dir, cols: 120, rows: 40 }));
    await term.waitFor('Ask anything', 20_000);

    await ask(term, '!touch inside.txt');
    await term.waitFor(/touch inside\.txt exit 0 · sandboxed/, 15_000);
    expect(existsSync(path.join(dir, 'inside.txt'))).toBe(true);

    await ask(term, `!touch ${outside}/outside.txt`);
    const denied = (await waitForSettled(term, /outside\.txt exit 1 · sandboxed/)).replace(/[│\s]+/g, ' ');
    expect(denied).toContain(`touch: cannot touch '${outside}/outside.txt': Read-only file system`);
    expect(existsSync(path.join(outside, 'outside.txt'))).toBe(false);

    await ask(term, 'propose one');
    const frame = (await waitForSettled(term, 'Run this command?')).replace(/[│\s]+/g, ' ');
    expect(frame).toContain('sandboxed: writes ~ and a private /tmp only · no network');
    await sleep(FRAME_DELAY_MS);
    term.write('y');
    await term.waitFor(/touch proposed\.txt exit 0 · sandboxed/, 15_000);
    expect(existsSync(path.join(dir, 'proposed.txt'))).toBe(true);
  }, 90_000);

  it('a sandboxed stdio server cannot read ~/.ssh nor reach a loopback port; the sidebar says "sandboxed"', async () => {
    const dir = home({}, { probe: { command: process.execPath, args: [PROBE], sandbox: { readable: [ROOT] } } });
    const results: string[] = [];
    broker.route((request: ReceivedRequest) => {
      if (isToolResultTurn(request)) {
        results.push(String(lastMessage(request)?.content));
        return textReply(`model saw ${results.length}`);
      }
      return lastUserText(request).startsWith('read')
        ? toolCallReply([{ id: 'call_read', name: 'probe__read_file', arguments: { path: path.join(dir, '.ssh', 'id_rsa') } }])
        : toolCallReply([{ id: 'call_connect', name: 'probe__connect', arguments: { port } }]);
    });
    const term = track(new TerminalSession({ home: dir, cols: 120, rows: 40 }));
    const ready = await waitForSettled(term, 'mcp 1/1', 20_000);
    expect(ready).toMatch(/sandboxed: no network/);

    const allowOnce = async () => {
      const frame = await waitForSettled(term, 'Run this tool?');
      // The frame itself (left of the sidebar's column), not only the sidebar, says how the server is confined.
      const frameRows = frame.split('\n').map((row) => row.slice(0, 80));
      expect(frameRows.some((row) => row.includes('sandboxed: no network'))).toBe(true);
      await sleep(FRAME_DELAY_MS);
      term.write('y');
    };
    await ask(term, 'read the key');
    await allowOnce();
    await term.waitFor('model saw 1', 15_000);
    expect(results[0]).toContain('ENOENT');
    expect(results[0]).not.toContain('PRIVATE KEY');

    await ask(term, 'connect now');
    await allowOnce();
    await term.waitFor('model saw 2', 15_000);
    expect(results[1]).toContain('ECONNREFUSED');
  }, 90_000);
});

describe('a sandbox that cannot be had (built binary, real pty)', () => {
  it('refuses a !command when bwrap is not on PATH, naming the package, and never runs it', async () => {
    const dir = home({ shell: { sandbox: true } });
    const term = track(new TerminalSession({ home: dir, cols: 120, rows: 40, env: { PATH: '/nonexistent' } }));
    await term.waitFor('Ask anything', 20_000);
    await ask(term, '!touch ran.txt');
    const screen = (await waitForSettled(term, /touch ran\.txt not run/)).replace(/[│\s]+/g, ' ');
    expect(screen).toContain('[not run: shell.sandbox is set, but bwrap was not found on PATH: install the bubblewrap package');
    expect(existsSync(path.join(dir, 'ran.txt'))).toBe(false);
  }, 60_000);
});
