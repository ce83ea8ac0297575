import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { startLegacySseServer, type LegacySseServer } from '../../helpers/legacy-sse-server';
import { testManager, type TestManager } from '../../helpers/mcp';

// The client offers its newest protocol version; a server may answer with an older one. One the
// client also speaks is ordinary negotiation; one it does not know ends the connect, saying so.

let server: LegacySseServer | undefined;
let test: TestManager | undefined;

afterEach(async () => {
  await test?.dispose();
  await server?.close();
  test = undefined;
  server = undefined;
});

describe('protocol version negotiation', () => {
  it.each([
    ['streamable HTTP', 'mcpUrl'],
    ['legacy SSE', 'sseUrl'],
  ] as const)('an older supported version (2024-11-05) over %s connects without a warning', async (_, which) => {
    server = await startLegacySseServer({ protocolVersion: '2024-11-05' });
    test = testManager();
    const snapshot = await test.manager.connect('old', { url: server[which] });
    expect(snapshot).toMatchObject({ state: 'ready', protocolVersion: '2024-11-05' });
    const warnings = test.events.filter((event) => event.type === 'status' && event.level !== 'info');
    expect(warnings).toEqual([]);
  });

  it('a version the client does not support fails the connect with a clear reason', async () => {
    server = await startLegacySseServer({ protocolVersion: '1999-01-01' });
    test = testManager();
    const snapshot = await test.manager.connect('ancient', { url: server.mcpUrl });
    expect(snapshot.state).toBe('error');
    expect(snapshot.error).toBe(`the server answered with protocol version 1999-01-01, which this client does not support (it supports ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`);
  });
});
