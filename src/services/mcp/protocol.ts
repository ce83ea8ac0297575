import type { VersionNegotiationOptions } from '@modelcontextprotocol/client';
import type { ServerConfig } from '../config/schema';
import type { ServerSnapshot } from './types';

// Which protocol revision a server is spoken to in. The SDK does the work: with `auto` it first
// sends `server/discover` (2026-07-28: stateless, no `initialize`, no session id; a server's
// questions come back as multi-round-trip answers, fulfilled by the same handlers as the
// server-to-client requests of older servers, client-requests.ts and client-handlers.ts) and
// falls back to the `initialize` handshake when the server does not know it. `legacy` skips the
// probe (a server that misbehaves on unknown requests); `modern` accepts only 2026-07-28.

/** The probe waits at most this long for an answer (a silent stdio server is an older one). */
const PROBE_TIMEOUT_MS = 5_000;

/**
 * The default is `auto` over streamable HTTP only: the legacy SSE transport predates 2026-07-28,
 * and a stdio server is probed in its own process (stray output, exits on an unknown request), so
 * stdio servers are probed only when configured with `protocol: 'auto'` or `'modern'`.
 */
export function versionNegotiation(config: Pick<ServerConfig, 'protocol'> | undefined, connectTimeoutMs: number, transport: 'streamable-http' | 'sse' | 'stdio'): VersionNegotiationOptions {
  if (transport === 'sse') return { mode: 'legacy' };
  const mode = config?.protocol ?? (transport === 'streamable-http' ? 'auto' : 'legacy');
  if (mode === 'legacy') return { mode: 'legacy' };
  const probe = { timeoutMs: Math.min(PROBE_TIMEOUT_MS, Math.max(1, Math.floor(connectTimeoutMs / 3))) };
  return mode === 'modern' ? { mode: { pin: '2026-07-28' }, probe } : { mode: 'auto', probe };
}

/** `2026-07-28 (stateless)` or `2025-11-25 (initialize)`, for `:mcp list` and the server details. */
export function protocolLabel(snapshot: Pick<ServerSnapshot, 'protocolVersion' | 'protocolEra'>): string | undefined {
  if (!snapshot.protocolVersion) return undefined;
  return `${snapshot.protocolVersion} (${snapshot.protocolEra === 'modern' ? 'stateless, server/discover' : 'initialize'})`;
}
