import { afterEach, describe, expect, it } from 'vitest';
import { describeServers } from '../../../src/services/mcp/index';
import type { ElicitationRequest } from '../../../src/services/mcp/types';
import { startLmcpServer, type LmcpServer } from '../../helpers/lmcp-server';
import { testManager, until, type TestManager } from '../../helpers/mcp';
import { startModernServer, type ModernServer } from '../../helpers/modern-mcp-server';

// The 2026-07-28 revision (stateless, found with server/discover) next to a 2025-03-26 server
// that only knows initialize (lmcp-style), through one manager as the app uses it.

let modern: ModernServer | undefined;
let lmcp: LmcpServer | undefined;
let test: TestManager | undefined;

afterEach(async () => {
  await test?.dispose();
  await modern?.close();
  await lmcp?.close();
  test = modern = lmcp = undefined;
});

describe('protocol 2026-07-28 with fallback to initialize', () => {
  it('speaks 2026-07-28 to the modern server and initialize to the old one, side by side', async () => {
    modern = await startModernServer();
    lmcp = await startLmcpServer();
    test = testManager();
    const [now, old] = await Promise.all([test.manager.connect('modern', { url: modern.url }), test.manager.connect('old', { url: lmcp.url })]);
    expect(now).toMatchObject({ state: 'ready', protocolVersion: '2026-07-28', protocolEra: 'modern', serverName: 'modern-test' });
    expect(now.tools.map((tool) => tool.name).sort()).toEqual(['confirm', 'echo']);
    expect(old).toMatchObject({ state: 'ready', protocolVersion: '2025-03-26', protocolEra: 'legacy' });
    // No initialize reaches the modern server: discovery, then plain requests.
    expect(modern.methods).not.toContain('initialize');
    expect(modern.methods[0]).toBe('server/discover');
    // 2026-07-28 is not in the initialize version list, and that is not a problem.
    expect(test.events.filter((event) => event.type === 'status' && event.level !== 'info')).toEqual([]);

    expect(await test.manager.callTool('modern', 'echo', { text: 'now' })).toEqual({ kind: 'ok', content: 'now', isError: false });
    expect(await test.manager.callTool('old', 'echo', { text: 'then' })).toEqual({ kind: 'ok', content: 'then', isError: false });

    const lines = describeServers(test.manager.servers());
    expect(lines.find((line) => line.startsWith('modern'))).toContain('protocol 2026-07-28 (stateless, server/discover)');
    expect(lines.find((line) => line.startsWith('old'))).toContain('protocol 2025-03-26 (initialize)');
  });

  it('routes a multi-round-trip question through the same elicitation handler', async () => {
    modern = await startModernServer();
    const asked: ElicitationRequest[] = [];
    test = testManager({
      elicit: async (request) => {
        asked.push(request);
        return { action: 'accept', content: { ok: true } };
      },
    });
    await test.manager.connect('modern', { url: modern.url });
    const outcome = await test.manager.callTool('modern', 'confirm', { question: 'Deploy now?' });
    expect(asked).toEqual([expect.objectContaining({ mode: 'form', alias: 'modern', message: 'Deploy now?' })]);
    expect(outcome).toEqual({ kind: 'ok', content: 'confirmed: true', isError: false });
  });

  it('hears of a changed tool list through subscriptions/listen', async () => {
    modern = await startModernServer();
    test = testManager();
    await test.manager.connect('modern', { url: modern.url });
    await until(() => modern!.methods.includes('subscriptions/listen'));
    modern.addShout();
    await until(() => test!.manager.servers()[0]!.tools.some((tool) => tool.name === 'shout'));
  });

  it('protocol: legacy skips the probe', async () => {
    lmcp = await startLmcpServer();
    test = testManager();
    const snapshot = await test.manager.connect('old', { url: lmcp.url, protocol: 'legacy' });
    expect(snapshot).toMatchObject({ state: 'ready', protocolEra: 'legacy' });
    expect(lmcp.requests.map((request) => request.rpcMethod)).not.toContain('server/discover');
  });
});
