import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { browse, startOAuthMcpServer, type OAuthMcpServer } from '../../helpers/oauth-mcp-server';
import { testManager, type TestManager } from '../../helpers/mcp';

// OAuth 2.0 authorization code + PKCE for a server that answers 401 with OAuth metadata.

let server: OAuthMcpServer | undefined;
const managers: TestManager[] = [];
afterEach(async () => {
  for (const manager of managers.splice(0)) await manager.dispose();
  await server?.close();
  server = undefined;
});

function tokenFiles(stateDir: string): string[] {
  const dir = path.join(stateDir, 'oauth');
  return readdirSync(dir).map((name) => path.join(dir, name));
}

describe('OAuth', () => {
  it('asks the user to authorize, then connects with the tokens it stored (0600)', async () => {
    server = await startOAuthMcpServer();
    const opened: string[] = [];
    // The "browser" opens a moment later, as a person would.
    const test = testManager({ confirmOpen: async () => true, openUrl: async (url) => void setTimeout(() => void (opened.push(url), browse(url)), 100) });
    managers.push(test);

    const first = await test.manager.connect('secure', { url: server.url });
    expect(first.state).toBe('needs-auth');
    expect(first.authUrl).toMatch(new RegExp(`^${server.url.replace('/mcp', '')}/authorize\\?`));
    expect(first.authUrl).toContain('code_challenge_method=S256');
    expect(test.statuses()).toContain(`mcp secure: sign in at ${new URL(first.authUrl!).host}; authorize in your browser: ${first.authUrl}`);

    const [settled] = await test.manager.settled(10_000);
    expect(settled).toMatchObject({ state: 'ready', serverName: 'oauth-protected' });
    expect(opened).toEqual([first.authUrl]);
    expect(server.stats).toMatchObject({ registrations: 1, authorizations: 1, codeExchanges: 1 });
    expect((await test.manager.callTool('secure', 'whoami', {})).content).toBe('an authorized user');

    const [file] = tokenFiles(test.stateDir);
    expect(statSync(file!).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file!)).mode & 0o777).toBe(0o700);
    expect(readFileSync(file!, 'utf8')).toContain(server.issuedTokens[0]);
    // Tokens never appear in what the UI or a log receives.
    const everything = JSON.stringify(test.events);
    for (const token of server.issuedTokens) expect(everything).not.toContain(token);
  });

  it('reuses stored tokens in a new session, and refreshes an expired one before reconnecting', async () => {
    server = await startOAuthMcpServer({ expiresIn: 30 });
    const first = testManager({ confirmOpen: async () => true, openUrl: browse });
    managers.push(first);
    await first.manager.connect('secure', { url: server.url });
    expect((await first.manager.settled(10_000))[0]?.state).toBe('ready');

    // A later run of aish-tui with the same state directory: no browser, the token is refreshed
    // first because it expires within the safety margin.
    const refreshesBefore = server.stats.refreshes;
    const opened: string[] = [];
    const second = testManager({ confirmOpen: async () => true, openUrl: async (url) => void opened.push(url), stateDir: first.stateDir });
    managers.unshift(second);
    const snapshot = await second.manager.connect('secure', { url: server.url });
    expect(snapshot.state).toBe('ready');
    expect(opened).toEqual([]);
    expect(server.stats.refreshes).toBe(refreshesBefore + 1);
    expect(server.stats.rejectedTokens).toBe(0);
    await second.manager.reconnect('secure');
    expect(server.stats.refreshes).toBe(refreshesBefore + 2);
    expect(server.stats.authorizations).toBe(1);
  });

  it('shows an authorization the user never completes as needs-auth, not as a failure', async () => {
    server = await startOAuthMcpServer();
    const test = testManager({ confirmOpen: async () => true, openUrl: async () => {} });
    managers.push(test);
    const snapshot = await test.manager.connect('secure', { url: server.url });
    expect(snapshot).toMatchObject({ state: 'needs-auth', error: 'authorization required: open the URL to continue' });
    // Disconnecting stops waiting for the browser.
    await test.manager.disconnect('secure');
    expect(test.manager.servers()[0]?.state).toBe('disconnected');
  });
});
