import { Box, Text } from 'ink';
import { memo } from 'react';
import type { ServerSnapshot, ServerState } from '../services/mcp/types';
import { sanitizeLabel } from '../services/terminal/sanitize';
import type { SidebarUi } from '../state/types';
import { LineText } from './Lines';
import { padLine, truncate, width as textWidth, wrapLine, type Line, type Tone } from './text';
import type { Theme } from './theme';

export interface SidebarProps {
  servers: ServerSnapshot[];
  width: number;
  height: number;
  focused: boolean;
  theme: Theme;
  ui?: SidebarUi;
}

export const GLYPH: Record<ServerState, string> = {
  ready: '●',
  connecting: '◌',
  error: '✗',
  'needs-auth': '⚿',
  disconnected: '○',
};

const STATE_TONE: Record<ServerState, Tone> = {
  ready: 'ok',
  connecting: 'warn',
  error: 'error',
  'needs-auth': 'warn',
  disconnected: 'muted',
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

/** A selectable row: a server, or one of its tools when the server is expanded. */
export interface SidebarRow {
  id: string;
  kind: 'server' | 'tool';
  alias: string;
  tool?: string;
}

export const serverRowId = (alias: string) => `s:${alias}`;
export const toolRowId = (alias: string, tool: string) => `t:${alias}:${tool}`;

/** The rows ↑/↓ move through, in order. */
export function sidebarRows(servers: ServerSnapshot[], expanded: readonly string[]): SidebarRow[] {
  const rows: SidebarRow[] = [];
  for (const server of servers) {
    rows.push({ id: serverRowId(server.alias), kind: 'server', alias: server.alias });
    if (!expanded.includes(server.alias)) continue;
    for (const tool of server.tools) rows.push({ id: toolRowId(server.alias, tool.name), kind: 'tool', alias: server.alias, tool: tool.name });
  }
  return rows;
}

/** Wraps text under a server row, indented by two columns on every row. */
function indented(text: string, tone: Tone, columns: number, maxRows = Infinity): Line[] {
  return wrapLine([{ text, tone }], Math.max(1, columns - 2))
    .slice(0, maxRows)
    .map((line) => [{ text: '  ' }, ...line]);
}

/** Lines under a server that say what is wrong: the error, stderr tail, or where to authorize. */
function serverNotes(server: ServerSnapshot, columns: number): Line[] {
  const lines: Line[] = [];
  if (server.state === 'error' && server.error) {
    lines.push(...indented(sanitizeLabel(server.error), 'error', columns, 3));
    if (transportLabel(server) === 'stdio') {
      for (const line of server.stderr.slice(-3)) lines.push([{ text: '  ' }, { text: truncate(sanitizeLabel(line), columns - 2), tone: 'muted' }]);
    }
  } else if (server.state === 'needs-auth') {
    if (server.error) lines.push(...indented(sanitizeLabel(server.error), 'warn', columns, 2));
    // The whole URL, wrapped: the user has to be able to copy it.
    if (server.authUrl) lines.push([{ text: '  open in a browser:', tone: 'muted' }], ...indented(sanitizeLabel(server.authUrl), 'accent', columns));
  } else if (server.state === 'disconnected' && server.error) {
    lines.push([{ text: '  ' }, { text: truncate(sanitizeLabel(server.error), columns - 2), tone: 'muted' }]);
  }
  return lines;
}

interface DrawnRow {
  line: Line;
  /** The selectable row this line belongs to (notes belong to their server). */
  id?: string;
}

function drawRows(servers: ServerSnapshot[], ui: SidebarUi, columns: number, focused: boolean): DrawnRow[] {
  const drawn: DrawnRow[] = [];
  for (const server of servers) {
    const id = serverRowId(server.alias);
    const selected = ui.selected === id;
    const open = ui.expanded.includes(server.alias);
    const right = `${transportLabel(server)} ${server.state === 'ready' ? server.tools.length : server.state === 'connecting' ? '…' : '-'}`;
    const nameRoom = Math.max(1, columns - textWidth(right) - 5);
    const name = truncate(sanitizeLabel(server.alias), nameRoom);
    const pointer = selected ? (focused ? '▸' : '›') : open ? '▾' : ' ';
    const line: Line = [
      { text: pointer, tone: selected ? 'accent' : 'muted' },
      { text: GLYPH[server.state], tone: STATE_TONE[server.state] },
      { text: ' ' },
      { text: name, tone: selected && focused ? 'selected' : 'bold' },
    ];
    const gap = columns - textWidth(pointer) - 2 - textWidth(name) - textWidth(right);
    line.push({ text: ' '.repeat(Math.max(1, gap)) }, { text: right, tone: 'muted' });
    drawn.push({ line, id });
    for (const note of serverNotes(server, columns)) drawn.push({ line: note, id });
    if (!open) continue;
    server.tools.forEach((tool, index) => {
      const toolId = toolRowId(server.alias, tool.name);
      const toolSelected = ui.selected === toolId;
      const branch = index === server.tools.length - 1 ? '└ ' : '├ ';
      drawn.push({
        id: toolId,
        line: [
          { text: toolSelected ? (focused ? '▸' : '›') : ' ', tone: 'accent' },
          { text: ` ${branch}`, tone: 'muted' },
          { text: truncate(sanitizeLabel(tool.name), columns - 4), tone: toolSelected && focused ? 'selected' : undefined },
        ],
      });
    });
    if (server.tools.length === 0) drawn.push({ line: [{ text: '   no tools', tone: 'muted' }], id });
  }
  return drawn;
}

/** Which drawn lines fit: the window that keeps the selected row in view. */
function windowAround(drawn: DrawnRow[], selected: string | undefined, rows: number): DrawnRow[] {
  if (drawn.length <= rows) return drawn;
  const index = Math.max(0, drawn.findIndex((row) => row.id === selected));
  const first = Math.max(0, Math.min(index - Math.floor(rows / 3), drawn.length - rows));
  return drawn.slice(first, first + rows);
}

/** Every MCP server with its status; browsing expands a server's tools. */
export const Sidebar = memo(function Sidebar({ servers, width, height, focused, theme, ui = { expanded: [] } }: SidebarProps) {
  const columns = Math.max(4, width - 4);
  const ready = servers.filter((server) => server.state === 'ready').length;
  const drawn = drawRows(servers, ui, columns, focused);
  const listRows = Math.max(1, height - 3);
  const shown = windowAround(drawn, ui.selected, listRows);
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
      <Text wrap="truncate-end">
        <Text bold>MCP servers</Text>
        <Text color={theme.muted}> {servers.length > 0 ? `${ready}/${servers.length} ready` : ''}</Text>
      </Text>
      {servers.length === 0 ? <Text color={theme.muted}>none configured · c connects</Text> : null}
      {shown.map((row, index) => (
        <LineText key={index} line={padLine(row.line, columns)} theme={theme} />
      ))}
    </Box>
  );
});
