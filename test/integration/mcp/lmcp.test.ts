import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { buildToolIndex } from '../../../src/services/tools/names';
import { LMCP_PROTOCOL_VERSION, startLmcpServer, type LmcpServer } from '../../helpers/lmcp-server';
import { testManager, type TestManager } from '../../helpers/mcp';

// The lmcp servers met in the field and their quirks (docs/ARCHITECTURE.md, Conversation rules: servers with quirks).

let lmcp: LmcpServer | undefined;
let test: TestManager | undefined;

afterEach(async () => {
  await test?.dispose();
  await lmcp?.close();
  test = undefined;
  lmcp = undefined;
});

describe('an lmcp-style server', () => {
  it('connects, lists and calls despite every quirk', async () => {
    lmcp = await startLmcpServer();
    test = testManager();
    const snapshot = await test.manager.connect('boltzmann', { url: lmcp.url });
    expect(snapshot).toMatchObject({ state: 'ready', transport: 'streamable-http', protocolVersion: LMCP_PROTOCOL_VERSION, serverName: 'lmcp' });
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(['echo', 'read_file', 'list_dir']);

    const echo = await test.manager.callTool('boltzmann', 'echo', { text: 'hi' });
    expect(echo).toEqual({ kind: 'ok', content: 'hi', isError: false });

    // No session id is ever invented by the client, and every RPC is its own POST.
    expect(lmcp.requests.every((request) => request.sessionHeader === undefined)).toBe(true);
    const rpc = lmcp.requests.filter((request) => request.httpMethod === 'POST').map((request) => request.rpcMethod);
    // The 2026-07-28 probe first (protocol.ts); the server does not know it, so `initialize` follows.
    expect(rpc).toEqual(['server/discover', 'initialize', 'notifications/initialized', 'tools/list', 'tools/call']);
    expect(snapshot.protocolEra).toBe('legacy');
    // Ordered by name (README.md, "Tool budget": a stable prefix), not in the server's order.
    expect(buildToolIndex(test.manager.servers()).specs.map((spec) => spec.function.name)).toEqual([
      'boltzmann__echo',
      'boltzmann__list_dir',
      'boltzmann__read_file',
    ]);
  });

  it('accepts the fixed older protocol version without a warning (ordinary negotiation)', async () => {
    lmcp = await startLmcpServer();
    test = testManager();
    const snapshot = await test.manager.connect('boltzmann', { url: lmcp.url });
    expect(snapshot.protocolVersion).toBe(LMCP_PROTOCOL_VERSION);
    expect(test.statuses().filter((line) => line.includes('protocol'))).toEqual([]);
  });

  it('opens the GET stream at most once per connect', async () => {
    lmcp = await startLmcpServer();
    test = testManager();
    await test.manager.connect('boltzmann', { url: lmcp.url });
    // The transport would retry a closed stream after about a second; give it several chances.
    await sleep(3_500);
    expect(lmcp.gets()).toBeLessThanOrEqual(1);
    await test.manager.reconnect('boltzmann');
    await sleep(1_500);
    expect(lmcp.gets()).toBeLessThanOrEqual(2);
    expect(test.manager.servers()[0]?.state).toBe('ready');
  });

  it('passes a failed read through as content (isError false is advisory)', async () => {
    lmcp = await startLmcpServer({ files: {} });
    test = testManager();
    await test.manager.connect('boltzmann', { url: lmcp.url });
    const outcome = await test.manager.callTool('boltzmann', 'read_file', { path: '/etc/shadow' });
    expect(outcome).toEqual({ kind: 'ok', content: 'Error: cannot open /etc/shadow: No such file or directory', isError: false });
  });

  it('turns -32601 for an unknown tool into a dispatch failure for the model', async () => {
    lmcp = await startLmcpServer();
    test = testManager();
    await test.manager.connect('boltzmann', { url: lmcp.url });
    const outcome = await test.manager.callTool('boltzmann', 'format_disk', {});
    expect(outcome).toEqual({ kind: 'rpc-error', content: '[aish] tool dispatch failed: Tool not found', isError: true });
  });

  it('sends the Bearer token from authToken, or from the variable named by authEnv', async () => {
    lmcp = await startLmcpServer({ token: 'fleet-token-0123456789' });
    test = testManager({ env: { ...process.env, LMCP_TOKEN: 'fleet-token-0123456789' } });
    const literal = await test.manager.connect('literal', { url: lmcp.url, authToken: 'fleet-token-0123456789', authEnv: 'UNSET_VARIABLE' });
    expect(literal.state).toBe('ready');
    const fromEnv = await test.manager.connect('fromenv', { url: lmcp.url, authEnv: 'LMCP_TOKEN' });
    expect(fromEnv.state).toBe('ready');
    expect(lmcp.requests.every((request) => request.authorization === 'Bearer fleet-token-0123456789')).toBe(true);
  });

  it('reports a refused token as HTTP 401 without ever showing the token', async () => {
    lmcp = await startLmcpServer({ token: 'the-right-token-xyz' });
    test = testManager();
    const snapshot = await test.manager.connect('boltzmann', { url: lmcp.url, authToken: 'wrong-token-abcdef' });
    expect(snapshot.state).toBe('error');
    expect(snapshot.error).toBe('HTTP 401: unauthorized');
    expect(JSON.stringify(test.events)).not.toContain('wrong-token-abcdef');
  });

  it('explains a 401 when no token is configured and the server offers no OAuth', async () => {
    lmcp = await startLmcpServer({ token: 'the-right-token-xyz' });
    test = testManager();
    const snapshot = await test.manager.connect('boltzmann', { url: lmcp.url });
    expect(snapshot.state).toBe('error');
    expect(snapshot.error).toMatch(/^HTTP 401 .*set authToken or authEnv/);
  });

  it('connects at runtime with an alias from the host name, deduplicated and validated', async () => {
    lmcp = await startLmcpServer();
    test = testManager();
    const first = await test.manager.connectUrl(lmcp.url);
    expect(first).toMatchObject({ alias: `127-0-0-1-${lmcp.port}`, state: 'ready' });
    // Another path on the same host gets a second alias; the same URL again is a reconnect.
    const other = await test.manager.connectUrl(lmcp.url.replace('/mcp', '/other'));
    expect(other.alias).toBe(`127-0-0-1-${lmcp.port}-2`);
    expect(other.state).toBe('error');
    expect((await test.manager.connectUrl(lmcp.url)).alias).toBe(first.alias);
    await expect(test.manager.connectUrl(lmcp.url, 'bad__alias')).rejects.toThrow('must not contain "__"');
    await expect(test.manager.connectUrl(lmcp.url, first.alias)).rejects.toThrow('already in use');
    await expect(test.manager.connectUrl('ftp://example.com')).rejects.toThrow('not an http(s) URL');
    expect((await test.manager.connectUrl(lmcp.url, 'fleet')).state).toBe('ready');
  });
});

