import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { startOAuthMcpServer, type OAuthMcpServer } from '../helpers/oauth-mcp-server';
import { keys, makeScratchHome, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// The built binary in a pseudo-terminal: sign-in addresses in the TUI (README "Safety"), and a
// damaged session file's warnings after --continue.
const { broker, track } = useBrokerAndTerminals();

let oauth: OAuthMcpServer | undefined;
afterEach(async () => {
  await oauth?.close();
  oauth = undefined;
});

/** A home whose browser (xdg-open on PATH, and $BROWSER) records each address it is asked to open. */
function homeWithBrowser(servers: Record<string, unknown>) {
  const home = makeScratchHome('aish-edges-');
  writeHomeConfig(home, { models: { scripted: { baseUrl: broker.url, model: 'scripted' } }, defaultModel: 'scripted', builtin: false, mcp: { servers } });
  const bin = path.join(home, 'bin');
  mkdirSync(bin);
  const opened = path.join(home, 'opened.log');
  writeFileSync(path.join(bin, 'xdg-open'), `#!/bin/sh\necho "$@" >> '${opened}'\n`);
  chmodSync(path.join(bin, 'xdg-open'), 0o755);
  return { home, opened, env: { PATH: `${bin}:${process.env.PATH}`, BROWSER: path.join(bin, 'xdg-open') } };
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await sleep(50);
  }
}

describe('end to end: sign-in addresses in the TUI', () => {
  it('a good address is shown with its host and opens only when o is pressed on the server', async () => {
    oauth = await startOAuthMcpServer();
    const where = homeWithBrowser({ secure: { url: oauth.url } });
    const term = track(new TerminalSession({ cols: 120, rows: 40, home: where.home, env: where.env }));
    await term.waitFor('o opens it in a browser', 20_000);
    await sleep(500);
    expect(existsSync(where.opened)).toBe(false);
    // Into the sidebar (the server is selected), then o.
    term.write(keys.tab);
    await sleep(300);
    term.write('o');
    // The browser stand-in creates the file before it writes the line: wait for the whole line.
    await until(() => existsSync(where.opened) && readFileSync(where.opened, 'utf8').endsWith('\n'), 10_000);
    const opened = readFileSync(where.opened, 'utf8').trim();
    expect(opened.startsWith(`${new URL(oauth.url).origin}/authorize?`)).toBe(true);
    await term.waitFor(`mcp secure: opening ${new URL(oauth.url).host} in your browser`);
  }, 60_000);

  it('a file: address from the metadata is refused in words and nothing opens', async () => {
    oauth = await startOAuthMcpServer({ metadata: { authorization_endpoint: () => 'file:///etc/passwd' } });
    const where = homeWithBrowser({ secure: { url: oauth.url } });
    const term = track(new TerminalSession({ cols: 120, rows: 40, home: where.home, env: where.env }));
    await term.waitFor(/was refused: only https\s+(│\s+)?addresses/, 20_000);
    term.write(keys.tab);
    await sleep(300);
    term.write('o');
    await term.waitFor('secure is not waiting for a sign-in');
    expect(existsSync(where.opened)).toBe(false);
  }, 60_000);
});

describe('end to end: a damaged session file', () => {
  it("its warnings stay on screen after --continue, with the history", async () => {
    const home = makeScratchHome('aish-edges-');
    writeHomeConfig(home, { models: { scripted: { baseUrl: broker.url, model: 'scripted' } }, defaultModel: 'scripted', builtin: false, mcp: { servers: {} } });
    const sessions = path.join(home, '.local', 'state', 'aish', 'sessions');
    mkdirSync(sessions, { recursive: true, mode: 0o700 });
    const at = new Date().toISOString();
    const lines = [
      { type: 'session', version: 1, id: '20260101-000000-abcdef', createdAt: at },
      { type: 'message', message: { id: 'u1', role: 'user', content: 'old question', at } },
      { type: 'message', message: { id: 'a1', role: 'assistant', content: 'old answer\u2028still the answer', finishReason: 'stop', at } },
    ].map((record) => JSON.stringify(record));
    writeFileSync(path.join(sessions, '20260101-000000-abcdef.jsonl'), `${lines.join('\n')}\nnot json at all\n`, { mode: 0o600 });
    const term = track(new TerminalSession({ cols: 120, rows: 40, home, args: ['--continue'] }));
    const screen = await term.waitFor('line 4 is not valid JSON; skipped', 20_000);
    expect(screen).toContain('old answer');
    expect(screen).toContain('resumed session 20260101-000000-abcdef');
    // Still there a moment later (nothing wipes it once the transcript has loaded).
    await sleep(1_000);
    expect(await term.screen()).toContain('line 4 is not valid JSON; skipped');
  }, 60_000);
});
