import { afterEach, describe, expect, it } from 'vitest';
import { LEGACY_TOOLS, startLegacySseServer, type LegacySseServer } from '../../helpers/legacy-sse-server';
import { freePort, testManager, type TestManager } from '../../helpers/mcp';

// The spec's backwards compatibility: a client that POSTs its initialize to a legacy HTTP+SSE
// server gets a 4xx (Playwright MCP: 400 at /sse) and then opens the event stream with a GET.

let server: LegacySseServer | undefined;
let test: TestManager | undefined;

afterEach(async () => {
  await test?.dispose();
  await server?.close();
  test = undefined;
  server = undefined;
});

const toolNames = LEGACY_TOOLS.map((tool) => tool.name);

describe('streamable HTTP falls back to legacy SSE', () => {
  it.each([400, 404, 405])('after a %i to the first POST, connects over SSE and lists the tools', async (status) => {
    server = await startLegacySseServer({ postStatus: status });
    test = testManager();
    const snapshot = await test.manager.connect('pw', { url: server.sseUrl });
    expect(snapshot).toMatchObject({ state: 'ready', transport: 'sse', serverName: 'legacy-sse' });
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(toolNames);
    // The server/discover probe and the initialize POST both fail; then the legacy transport.
    expect(server.requests.slice(0, 3).map((request) => `${request.method} ${request.path}`)).toEqual(['POST /sse', 'POST /sse', 'GET /sse']);
    const called = await test.manager.callTool('pw', 'browser_navigate', { url: 'https://example.com' });
    expect(called).toMatchObject({ kind: 'ok', isError: false, content: 'browser_navigate {"url":"https://example.com"}' });
  });

  it('with transport "http" forced, does not fall back and says why', async () => {
    server = await startLegacySseServer({ postStatus: 400 });
    test = testManager();
    const snapshot = await test.manager.connect('pw', { url: server.sseUrl, transport: 'http' });
    expect(snapshot.state).toBe('error');
    expect(snapshot.error).toMatch(/^HTTP 400: Invalid request: this endpoint only serves an event stream/);
    expect(server.requests.some((request) => request.method === 'GET')).toBe(false);
  });

  it('with transport "sse" forced, goes straight to the event stream', async () => {
    server = await startLegacySseServer({ postStatus: 400 });
    test = testManager();
    const snapshot = await test.manager.connect('pw', { url: server.sseUrl, transport: 'sse' });
    expect(snapshot).toMatchObject({ state: 'ready', transport: 'sse' });
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/sse' });
    expect(server.requests.some((request) => request.method === 'POST' && request.path === '/sse')).toBe(false);
  });

  it('does not fall back on 401: that is an authorization problem, not an old server', async () => {
    server = await startLegacySseServer({ token: 'right-token-1234' });
    test = testManager({ env: { PW_TOKEN: 'wrong-token-5678' } });
    const snapshot = await test.manager.connect('pw', { url: server.sseUrl, authEnv: 'PW_TOKEN' });
    expect(snapshot.state).toBe('error');
    expect(snapshot.error).toMatch(/^HTTP 401/);
    expect(server.requests.map((request) => `${request.method} ${request.path}`)).toEqual(['POST /sse']);
    expect(JSON.stringify(test.events)).not.toContain('wrong-token-5678');
  });

  it('sends the token from authEnv on the POST and on the event stream after falling back', async () => {
    server = await startLegacySseServer({ token: 'right-token-1234' });
    test = testManager({ env: { PW_TOKEN: 'right-token-1234' } });
    const snapshot = await test.manager.connect('pw', { url: server.sseUrl, authEnv: 'PW_TOKEN' });
    expect(snapshot).toMatchObject({ state: 'ready', transport: 'sse' });
    expect(server.requests.every((request) => request.authorization === 'Bearer right-token-1234')).toBe(true);
    expect(JSON.stringify(test.events)).not.toContain('right-token-1234');
  });

  it('names both failures when the legacy transport fails too', async () => {
    server = await startLegacySseServer({ postStatus: 400 });
    test = testManager();
    // Nothing serves a stream at /nothing: the POST gets a 404, and so does the GET.
    const snapshot = await test.manager.connect('gone', { url: server.sseUrl.replace('/sse', '/nothing') });
    expect(snapshot.state).toBe('error');
    expect(snapshot.error).toMatch(/^HTTP 404: Not found \(streamable HTTP\); the legacy SSE transport failed too: .*404/);
  });

  it('with transport "sse" forced, a refused connection reads like any other transport\'s', async () => {
    test = testManager();
    const snapshot = await test.manager.connect('dead', { url: `http://127.0.0.1:${await freePort()}/sse`, transport: 'sse' });
    expect(snapshot.state).toBe('error');
    expect(snapshot.error).toBe('cannot reach the server (ECONNREFUSED)');
  });
});
