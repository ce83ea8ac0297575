import { isStdioServer } from '../config/checks';
import type { ServerConfig } from '../config/schema';

// What a session connects to, and how the sidebar names it. Kept apart from the connection code so
// the front ends can name a server without loading the MCP client.

export type SessionSpec = { kind: 'config'; config: ServerConfig } | { kind: 'builtin' };

/** What the sidebar shows as the server's address; credentials in a URL are never shown. */
export function describeTarget(spec: SessionSpec): string {
  if (spec.kind === 'builtin') return 'built-in';
  const config = spec.config;
  if (isStdioServer(config)) return [config.command, ...(config.args ?? [])].join(' ');
  try {
    const url = new URL(config.url);
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return config.url;
  }
}
