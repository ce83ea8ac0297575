import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browse, startOAuthMcpServer, type OAuthMcpServer } from '../../helpers/oauth-mcp-server';
import { MISBEHAVING } from '../../helpers/mcp';
import { startScriptedBroker, textReply, type ScriptedBroker } from '../../helpers/scripted-broker';
import { CLI, makeScratchHome, TerminalSession, testEnv, writeHomeConfig } from '../../helpers/terminal';

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// A server that needs an OAuth sign-in, next to one that does not, through the built binary. The
// non-interactive commands (`mcp list`, `-p`) must neither wait for a browser nor open one: the
// server is reported at once and the others proceed. `mcp login <alias>` signs in from a shell.

let oauth: OAuthMcpServer;
let broker: ScriptedBroker;

beforeAll(async () => {
  oauth = await startOAuthMcpServer();
  broker = await startScriptedBroker();
});
afterAll(async () => {
  await oauth.close();
  await broker.close();
});

interface Scratch {
  home: string;
  /** Where the stand-in `xdg-open` writes each URL it is asked to open. */
  opened: string;
  env: Record<string, string>;
}

/** A scratch home with both servers configured and an `xdg-open` on PATH that records instead of opening. */
function scratch(): Scratch {
  const home = makeScratchHome('aish-sign-in-');
  writeHomeConfig(home, { mcp: { servers: { secure: { url: oauth.url }, plain: { command: process.execPath, args: [MISBEHAVING] } } } });
  const bin = path.join(home, 'bin');
  mkdirSync(bin);
  const opened = path.join(home, 'opened.log');
  writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" >> '${opened}'\n`);
  chmodSync(path.join(bin, 'xdg-open'), 0o755);
  return { home, opened, env: testEnv(home, { PATH: `${bin}:${process.env.PATH}`, BROWSER: path.join(bin, 'xdg-open') }) };
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI. A run that has not ended after `giveUpMs` is stopped, so that a test that waits
 * for something that never comes fails with what the CLI said rather than with vitest's timeout.
 */
function aish(where: Scratch, args: string[], onStderr?: (text: string) => void, giveUpMs = 20_000): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: where.env, cwd: where.home });
    let stdout = '';
    let stderr = '';
    const giveUp = setTimeout(() => {
      stderr += `[test] stopped after ${giveUpMs} ms\n`;
      child.kill('SIGKILL');
    }, giveUpMs);
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => {
      stderr += data.toString();
      onStderr?.(stderr);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(giveUp);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end();
  });
}

const NEEDS_LOGIN = 'needs authorization: run aish-tui mcp login secure';

describe('a server that needs an OAuth sign-in, from non-interactive commands', () => {
  it('mcp list reports it at once, lists the others, and opens no browser', async () => {
    const where = scratch();
    const authorizationsBefore = oauth.stats.authorizations;
    const result = await aish(where, ['mcp', 'list']);
    expect(result.code).toBe(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines.find((line) => line.startsWith('secure'))).toMatch(new RegExp(`^secure\\s+needs-auth\\s+${oauth.url}\\s+\\(${NEEDS_LOGIN}\\)$`));
    expect(lines.find((line) => line.startsWith('plain'))).toMatch(/^plain\s+ready\s/);
    expect(result.stderr).toContain(`aish-tui: mcp secure: ${NEEDS_LOGIN}\n`);
    // No browser was asked to open anything, and nobody asked the authorization endpoint.
    expect(existsSync(where.opened)).toBe(false);
    expect(oauth.stats.authorizations).toBe(authorizationsBefore);

    // A call to it is answered at once, with the same advice.
    const call = await aish(where, ['mcp', 'call', 'secure__whoami']);
    expect(call).toMatchObject({ code: 1, stdout: `[aish] tool transport error: server "secure" is not connected (needs-auth: ${NEEDS_LOGIN})\n` });
    expect(existsSync(where.opened)).toBe(false);
  });

  it('-p gives the model the other servers\' tools and says how to sign in', async () => {
    const where = scratch();
    const start = broker.requests.length;
    broker.enqueue(textReply('done'));
    const result = await aish(where, ['--base-url', broker.url, '--model', 'scripted', '-p', 'hello']);
    expect(result).toMatchObject({ code: 0, stdout: 'done\n' });
    expect(result.stderr).toContain(`aish-tui: mcp secure: ${NEEDS_LOGIN}\n`);
    const names = (broker.requests[start]!.body!.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
    expect(names).toContain('plain__echo');
    expect(names.some((name) => name.startsWith('secure__'))).toBe(false);
    expect(existsSync(where.opened)).toBe(false);
  });
});

describe('aish-tui mcp login <alias>', () => {
  it('prints the URL, waits for the browser, stores the token; mcp list then connects', async () => {
    const where = scratch();
    let visited = false;
    let browserTrouble = '';
    const login = await aish(where, ['mcp', 'login', 'secure'], (stderr) => {
      // The whole line: the address ends where the line does.
      const url = /authorize in your browser: (\S+)\n/.exec(stderr)?.[1];
      if (url && !visited) {
        visited = true;
        // What the user's browser does with the printed URL.
        browse(url).catch((error: unknown) => (browserTrouble = `the browser's visit failed: ${String(error)} (${String((error as { cause?: unknown }).cause)})`));
      }
    });
    // On failure, what the CLI said is the first thing to read.
    if (login.code !== 0 || browserTrouble) expect.fail(`exit ${login.code}; ${browserTrouble || 'the browser came back'}; the CLI said:\n${login.stderr}`);
    expect(login.stdout).toBe('secure: signed in; the token is stored for aish-tui and aish-tui mcp\n');
    // Without a terminal nobody can say yes: the address is printed with its host, no browser opens.
    const printed = /authorize in your browser: (\S+)/.exec(login.stderr)![1]!;
    expect(login.stderr).toContain(`the sign-in page is on ${new URL(printed).host}\n  ${printed}\n`);
    expect(login.stderr).toContain('open that address in your browser to sign in');
    expect(existsSync(where.opened)).toBe(false);

    const list = await aish(where, ['mcp', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^secure\s+ready\s.*\(1 tool, streamable-http, oauth-protected/m);
    const call = await aish(where, ['mcp', 'call', 'secure__whoami']);
    expect(call).toMatchObject({ code: 0, stdout: 'an authorized user\n' });
  });

  it('on a terminal it asks before opening the browser; y opens exactly the address shown', async () => {
    const where = scratch();
    const term = new TerminalSession({ cols: 200, rows: 30, home: where.home, args: ['mcp', 'login', 'secure'], env: { PATH: where.env.PATH, BROWSER: where.env.BROWSER } });
    try {
      const screen = await term.waitFor('Open it in your browser? [y/N]', 20_000);
      expect(existsSync(where.opened)).toBe(false);
      const host = /the sign-in page is on (\S+)/.exec(screen)![1]!;
      term.write('y\r');
      await until(() => existsSync(where.opened), 10_000);
      const opened = readFileSync(where.opened, 'utf8').trim();
      expect(new URL(opened).host).toBe(host);
      expect(term.raw).toContain(opened);
      await browse(opened);
      expect(await term.waitForExit(20_000)).toBe(0);
    } finally {
      await term.dispose();
    }
  }, 60_000);

  it('refuses a server that has nothing to sign in to', async () => {
    const where = scratch();
    const result = await aish(where, ['mcp', 'login', 'plain']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('mcp login: plain is a stdio server; only HTTP servers sign in');
    const unknown = await aish(where, ['mcp', 'login', 'nope']);
    expect(unknown.stderr).toContain('mcp login: no configured server named "nope" (configured: secure, plain)');
  });
});
