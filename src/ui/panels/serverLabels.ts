import type { ServerSnapshot, ServerState } from '../../services/mcp/types';
import { sanitizeLabel } from '../../services/terminal/sanitize';
import type { Tone } from './text';

// How a server is named in the sidebar and in its details panel: its state's glyph and tone, its
// transport, its stderr lines.

export const GLYPH: Record<ServerState, string> = {
  ready: '●',
  connecting: '◌',
  error: '✗',
  'needs-auth': '⚿',
  disconnected: '○',
};

export const STATE_TONE: Record<ServerState, Tone> = {
  ready: 'ok',
  connecting: 'warn',
  error: 'error',
  'needs-auth': 'warn',
  disconnected: 'muted',
};

export function transportLabel(server: ServerSnapshot): string {
  switch (server.transport) {
    case 'streamable-http':
      return 'http';
    case 'sse':
      return 'sse';
    case 'stdio':
      return 'stdio';
    case 'in-memory':
      return 'built-in';
    default:
      if (server.target === 'built-in') return 'built-in';
      return /^https?:/i.test(server.target) ? 'http' : 'stdio';
  }
}

/** One stderr line for display: colour codes dropped (they mean nothing here), everything else escaped. */
export function stderrLine(line: string): string {
  // eslint-disable-next-line no-control-regex
  return sanitizeLabel(line.replace(/\x1b\[[0-9;]*m/g, ''));
}
