import { afterEach, describe, expect, it } from 'vitest';
import { browse, startOAuthMcpServer, type OAuthMcpServer } from '../../helpers/oauth-mcp-server';
import { testManager, type TestManager } from '../../helpers/mcp';

// A real OAuth-protected MCP server whose metadata names the sign-in address: a hostile one is
// refused with a readable reason and nothing is opened; a good one is opened only after the user
// said yes (docs/ARCHITECTURE.md, Security invariants 10).

let server: OAuthMcpServer | undefined;
const managers: TestManager[] = [];
afterEach(async () => {
  for (const manager of managers.splice(0)) await manager.dispose();
  await server?.close();
  server = undefined;
});

function recording(options: { confirm?: boolean } = {}) {
  const opened: string[] = [];
  const asked: Array<[string, string]> = [];
  const test = testManager({
    openUrl: async (url) => void opened.push(url),
    ...(options.confirm !== undefined
      ? {
          confirmOpen: async (url: string, host: string) => {
            asked.push([url, host]);
            return options.confirm!;
          },
        }
      : {}),
  });
  managers.push(test);
  return { test, opened, asked };
}

describe('sign-in addresses from server metadata', () => {
  it.each([
    ['file:///etc/passwd', /sign-in address file:\/\/\/etc\/passwd was refused: only https addresses are opened, not file:/],
    ['http://169.254.169.254/latest/meta-data', /was refused: 169\.254\.169\.254 is a link-local address/],
    ['https://metadata.google.internal/computeMetadata/v1', /was refused: metadata\.google\.internal is a cloud metadata service/],
    ['https://accounts.example@127.0.0.1/authorize', /was refused: it hides the real host behind a user name/],
    ['http://auth.example.com/authorize', /was refused: plain http is opened only for this machine/],
    // Refused by the SDK's own schema: the error says what, never "authorization failed: [".
    ['javascript:alert(document.cookie)', /not valid \(authorization_endpoint: URL cannot use javascript:/],
    ['not a url', /not valid \(authorization_endpoint: /],
  ])('refuses %s with a readable error, asks nothing and opens nothing', async (endpoint, message) => {
    server = await startOAuthMcpServer({ metadata: { authorization_endpoint: () => endpoint } });
    const { test, opened, asked } = recording({ confirm: true });
    const snapshot = await test.manager.connect('secure', { url: server.url });
    expect(snapshot.state).toBe('error');
    expect(snapshot.error).toMatch(message);
    expect(snapshot.error).not.toMatch(/failed: \[/);
    expect(snapshot.authUrl).toBeUndefined();
    expect(asked).toEqual([]);
    expect(opened).toEqual([]);
    expect(server.stats.authorizations).toBe(0);
  });

  it('a good address is opened only after the user said yes, and only the address shown', async () => {
    server = await startOAuthMcpServer();
    const said = recording({ confirm: false });
    const snapshot = await said.test.manager.connect('secure', { url: server.url });
    expect(snapshot.state).toBe('needs-auth');
    expect(said.asked).toEqual([[snapshot.authUrl, new URL(snapshot.authUrl!).host]]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(said.opened).toEqual([]);
  });

  it('without a question to ask (the TUI) nothing opens until openSignIn, which opens the checked address', async () => {
    server = await startOAuthMcpServer();
    const { test, opened } = recording();
    const snapshot = await test.manager.connect('secure', { url: server.url });
    expect(snapshot.state).toBe('needs-auth');
    expect(test.statuses().some((line) => line.includes(`sign in at ${new URL(snapshot.authUrl!).host} (select the server in the sidebar and press o`))).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(opened).toEqual([]);
    expect(await test.manager.openSignIn('secure')).toBe(`mcp secure: opening ${new URL(snapshot.authUrl!).host} in your browser`);
    expect(opened).toEqual([snapshot.authUrl]);
    // The browser completes the sign-in.
    await browse(opened[0]!);
    expect((await test.manager.settled(10_000))[0]?.state).toBe('ready');
    expect(await test.manager.openSignIn('secure')).toBe('mcp secure: no sign-in is waiting');
  });
});
