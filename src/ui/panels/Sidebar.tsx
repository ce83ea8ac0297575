import { Box, Text } from 'ink';
import { memo } from 'react';
import type { ServerSnapshot, ServerState } from '../../services/mcp/types';
import { sanitizeLabel } from '../../services/terminal/sanitize';
import { toolBadge } from './toolBadges';
import type { SidebarUi } from '../../state/types';
import { LineText } from './Lines';
import { padLine, signInUrlSegments, truncate, width as textWidth, wrapLine, wrapWords, type Line, type Tone } from './text';
import type { Theme } from '../../terminal/theme';
import { pushAll } from '../../services/terminal/rows';

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

/** One stderr line for display: colour codes dropped (they mean nothing here), everything else escaped. */
export function stderrLine(line: string): string {
  // eslint-disable-next-line no-control-regex
  return sanitizeLabel(line.replace(/\x1b\[[0-9;]*m/g, ''));
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

/** Notes under a server start below its name (after the cursor, marker and state columns). */
const NOTE_INDENT = '    ';

/** The selected row: the one chosen, or the first when none is (or the chosen one is gone). */
export function effectiveSelection(rows: readonly SidebarRow[], selected: string | undefined): string | undefined {
  return rows.some((row) => row.id === selected) ? selected : rows[0]?.id;
}

/**
 * Wraps text under a server row at word boundaries, indented to the server's name; past
 * `maxRows` the last row ends in `…`.
 */
function indented(text: string, tone: Tone, columns: number, maxRows = Infinity): Line[] {
  const room = Math.max(1, columns - NOTE_INDENT.length);
  const wrapped = wrapWords(text, room, tone);
  const shown = wrapped.slice(0, maxRows);
  if (wrapped.length > shown.length && shown.length > 0) {
    const last = shown[shown.length - 1]!.map((seg) => seg.text).join('');
    shown[shown.length - 1] = [{ text: truncate(`${last} …`, room).replace(/ …$/, '…'), tone }];
  }
  return shown.map((line) => [{ text: NOTE_INDENT }, ...line]);
}

/** Lines under a server that say what is wrong: the error, stderr tail, or where to authorize. */
function serverNotes(server: ServerSnapshot, columns: number): Line[] {
  const lines: Line[] = [];
  if (server.state === 'error' && server.error) {
    pushAll(lines, indented(sanitizeLabel(server.error), 'error', columns, 3));
    if (transportLabel(server) === 'stdio') {
      for (const line of server.stderr.slice(-3)) lines.push([{ text: NOTE_INDENT }, { text: truncate(stderrLine(line), columns - NOTE_INDENT.length), tone: 'muted' }]);
      if (server.stderr.length > 0) lines.push([{ text: NOTE_INDENT }, { text: truncate('Enter shows all of it', columns - NOTE_INDENT.length), tone: 'muted' }]);
    }
  } else if (server.state === 'needs-auth') {
    if (server.error) pushAll(lines, indented(sanitizeLabel(server.error), 'warn', columns, 2));
    // The whole URL, hard-wrapped: the user has to be able to copy it.
    if (server.authUrl) {
      lines.push([{ text: NOTE_INDENT }, { text: 'o opens it in a browser', tone: 'muted' }]);
      for (const line of wrapLine(signInUrlSegments(server.authUrl), Math.max(1, columns - NOTE_INDENT.length))) lines.push([{ text: NOTE_INDENT }, ...line]);
    }
  } else if (server.state === 'disconnected' && server.error) {
    pushAll(lines, indented(sanitizeLabel(server.error), 'muted', columns, 2));
  }
  return lines;
}

interface DrawnRow {
  line: Line;
  /** The selectable row this line belongs to (notes belong to their server). */
  id?: string;
  /** Where the server this line belongs to starts in the drawn list (its own index for a server row). */
  header: number;
}

/** The cursor column: which row ↑/↓ are on, apart from whether a server is expanded. */
const CURSOR = '›';
const EXPANDED = '▾';
const COLLAPSED = '▸';

/** The row the cursor is on: marked in the cursor column, and drawn inverse while the sidebar has the focus. */
function cursorRow(line: Line, selected: boolean, focused: boolean, columns: number): Line {
  const marked: Line = [{ text: selected ? CURSOR : ' ', tone: 'accent' }, ...line];
  if (!selected || !focused) return marked;
  return padLine(marked, columns).map((seg) => ({ ...seg, tone: 'selected' as const }));
}

function drawRows(servers: ServerSnapshot[], ui: SidebarUi, selectedId: string | undefined, columns: number, focused: boolean): DrawnRow[] {
  const drawn: DrawnRow[] = [];
  for (const server of servers) {
    const id = serverRowId(server.alias);
    const open = ui.expanded.includes(server.alias);
    const right = `${transportLabel(server)} ${server.state === 'ready' ? server.tools.length : server.state === 'connecting' ? '…' : '-'}`;
    const nameRoom = Math.max(1, columns - textWidth(right) - 5);
    const name = truncate(sanitizeLabel(server.alias), nameRoom);
    // Only a server with tools to show can be expanded; the others open their details.
    const marker = open ? EXPANDED : server.state === 'ready' && server.tools.length > 0 ? COLLAPSED : ' ';
    const line: Line = [
      { text: marker, tone: 'muted' },
      { text: GLYPH[server.state], tone: STATE_TONE[server.state] },
      { text: ' ' },
      { text: name, tone: 'bold' },
    ];
    const gap = columns - 4 - textWidth(name) - textWidth(right);
    line.push({ text: ' '.repeat(Math.max(1, gap)) }, { text: right, tone: 'muted' });
    const header = drawn.length;
    drawn.push({ line: cursorRow(line, selectedId === id, focused, columns), id, header });
    for (const note of serverNotes(server, columns)) drawn.push({ line: note, id, header });
    if (!open) continue;
    server.tools.forEach((tool, index) => {
      const toolId = toolRowId(server.alias, tool.name);
      const branch = index === server.tools.length - 1 ? '└ ' : '├ ';
      const badge = toolBadge(tool);
      const toolLine: Line = [
        { text: `  ${branch}`, tone: 'muted' },
        { text: truncate(badge.name, columns - 5 - (badge.text ? textWidth(badge.text) + 1 : 0)) },
        ...(badge.text ? [{ text: ` ${badge.text}`, tone: 'warn' as const }] : []),
      ];
      drawn.push({ id: toolId, line: cursorRow(toolLine, selectedId === toolId, focused, columns), header });
    });
    if (server.tools.length === 0) drawn.push({ line: [{ text: '    no tools', tone: 'muted' }], id, header });
  }
  return drawn;
}

/**
 * Which drawn lines fit: the window that keeps the selected row in view. A window that starts
 * inside a server's tools shows that server's row on top in place of its first line (sticky),
 * so the tools on screen always say whose they are.
 */
function windowAround(drawn: DrawnRow[], selected: string | undefined, rows: number): DrawnRow[] {
  if (drawn.length <= rows) return drawn;
  const index = Math.max(0, drawn.findIndex((row) => row.id === selected));
  const first = Math.max(0, Math.min(index - Math.floor(rows / 3), drawn.length - rows));
  const top = drawn[first]!;
  // The selected row itself on top (a window of one or two rows) stays: it is what ↑/↓ are on.
  if (top.header === first || index === first) return drawn.slice(first, first + rows);
  // Only the last line of a server's tools would be left under its pinned row: start at the next server instead.
  if (drawn[first + 1]?.header === first + 1 && first + 1 + rows <= drawn.length) return drawn.slice(first + 1, first + 1 + rows);
  return [drawn[top.header]!, ...drawn.slice(first + 1, first + rows)];
}

/** Every MCP server with its status; browsing expands a server's tools. */
export const Sidebar = memo(function Sidebar({ servers, width, height, focused, theme, ui = { expanded: [] } }: SidebarProps) {
  const columns = Math.max(4, width - 4);
  const ready = servers.filter((server) => server.state === 'ready').length;
  // Focused, the cursor is always on a row; unfocused, only a row the user chose keeps its mark.
  const rows = sidebarRows(servers, ui.expanded);
  const selectedId = focused ? effectiveSelection(rows, ui.selected) : rows.find((row) => row.id === ui.selected)?.id;
  const drawn = drawRows(servers, ui, selectedId, columns, focused);
  const listRows = Math.max(1, height - 3);
  const shown = windowAround(drawn, selectedId, listRows);
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
