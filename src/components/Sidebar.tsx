import { Box, Text } from 'ink';
import type { ServerSnapshot, ServerState } from '../services/mcp/types';
import { sanitizeLabel } from '../services/terminal/sanitize';
import type { Theme } from './theme';

export interface SidebarProps {
  servers: ServerSnapshot[];
  width: number;
  height: number;
  focused: boolean;
  theme: Theme;
}

const GLYPH: Record<ServerState, string> = {
  ready: '●',
  connecting: '◌',
  error: '✖',
  'needs-auth': '⚿',
  disconnected: '○',
};

export function stateColor(state: ServerState, theme: Theme): string | undefined {
  switch (state) {
    case 'ready':
      return theme.ok;
    case 'connecting':
      return theme.warn;
    case 'error':
      return theme.error;
    case 'needs-auth':
      return theme.warn;
    case 'disconnected':
      return theme.muted;
  }
}

/** The MCP servers with their status; browsing tools lands on top of this list. */
export function Sidebar({ servers, width, height, focused, theme }: SidebarProps) {
  return (
    <Box
      flexDirection="column"
      width={width}
      height={height}
      borderStyle="single"
      borderColor={focused ? theme.focusBorder : theme.border}
      paddingX={1}
      overflow="hidden"
    >
      <Text bold>MCP servers</Text>
      {servers.length === 0 ? <Text color={theme.muted}>none configured</Text> : null}
      {servers.map((server) => (
        <Text key={server.alias} wrap="truncate-end">
          <Text color={stateColor(server.state, theme)}>{GLYPH[server.state]}</Text> {sanitizeLabel(server.alias)}
          <Text color={theme.muted}> {server.state === 'ready' ? `${server.tools.length} tools` : server.state}</Text>
        </Text>
      ))}
    </Box>
  );
}
