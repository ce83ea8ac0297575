import { SUPPORTED_PROTOCOL_VERSIONS, type Client } from '@modelcontextprotocol/client';
import type { ServerSnapshot } from './types';

// What a connected client tells about its server, for the snapshot: the protocol (version and
// era: 2026-07-28 found with `server/discover`, or the `initialize` handshake), who the server
// is, its instructions, and whether it runs tool calls as tasks.

export type ReadyFacts = Pick<ServerSnapshot, 'protocolVersion' | 'protocolEra' | 'serverName' | 'serverVersion' | 'instructions' | 'taskCalls'>;

export function readyFacts(client: Client): { facts: ReadyFacts; warning?: string } {
  const negotiated = client.getNegotiatedProtocolVersion();
  const era = client.getProtocolEra();
  const server = client.getServerVersion();
  const capabilities = client.getServerCapabilities() as { tasks?: { requests?: { tools?: { call?: unknown } } } } | undefined;
  const facts: ReadyFacts = {
    protocolVersion: negotiated,
    protocolEra: era,
    serverName: server?.name,
    serverVersion: server?.version,
    instructions: client.getInstructions(),
    // Tasks as 2025-11-25 has them; on 2026-07-28 they are an extension the SDK does not run.
    taskCalls: era !== 'modern' && capabilities?.tasks?.requests?.tools?.call !== undefined,
  };
  // An older version the client also speaks (2024-11-05) is ordinary negotiation, not a problem.
  // The SDK refuses a version it does not know at initialize; this only guards a change there.
  // 2026-07-28 and later come through server/discover (era `modern`), not this initialize list.
  if (negotiated && era !== 'modern' && !SUPPORTED_PROTOCOL_VERSIONS.includes(negotiated)) {
    return { facts, warning: `the server's protocol version ${negotiated} is not one this client supports (${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}); proceeding` };
  }
  return { facts };
}
