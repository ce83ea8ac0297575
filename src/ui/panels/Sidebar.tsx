import { Box, Text } from 'ink';
import { memo } from 'react';
import type { ServerSnapshot } from '../../services/mcp/types';
import { sanitizeLabel } from '../../services/terminal/sanitize';
import { toolBadge } from './toolBadges';
import { GLYPH, STATE_TONE, stderrLine, transportLabel } from './serverLabels';
import { effectiveSelection, NO_RESOURCES, resourceRowId, serverRowId, sidebarRows, toolRowId, type SidebarRow } from './sidebarRows';
import type { SidebarResource, SidebarUi, ToolBudgetView } from '../../state/types';
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
  /** Each tool's cost and switch (absent until the session computed it). */
  budget?: ToolBudgetView;
  /** Each server's resources, listed under its tools (Enter shows one). */
  resources?: Record<string, SidebarResource[]>;
}

/** `312`, `4.1k`, `12k`: token counts for a narrow column (README.md, "Tool budget"). */
export function tokenLabel(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 10_000) return `${(tokens / 1000).toFixed(1)}k`;
  return `${Math.round(tokens / 1000)}k`;
}

/** Marks a switch the user made here (remembered for this directory) apart from the config's. */
const SWITCHED_MARK = '*';

const CHANGED_MARK = ' ●';

/** Notes under a server start below its name (after the cursor, marker and state columns). */
const NOTE_INDENT = '    ';

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

/** Lines under a server that say what is wrong (the error, stderr tail, or where to authorize) and whether it is sandboxed. */
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
  // How its `sandbox` config confines a stdio server; an error above already says why it was refused.
  if (server.sandbox && server.state !== 'error') pushAll(lines, indented(sanitizeLabel(server.sandbox), 'muted', columns, 2));
  return lines;
}

interface DrawnRow {
  /** The line without the cursor column (a selectable row) or as shown (a note). */
  line: Line;
  /** The selectable row this line belongs to (notes belong to their server). */
  id?: string;
  /** Where the server this line belongs to starts in the drawn list (its own index for a server row). */
  header: number;
  /** A server or tool row: it has the cursor column. */
  selectable: boolean;
  /** Its place in the drawn list: the key of its element, so a scrolled window moves elements instead of redrawing all. */
  index: number;
  /** The line as shown when the cursor is not on it, padded to the width (made once). */
  plain?: Line;
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

/** A drawn row as shown: only the rows the cursor is on are made anew; the others keep their line (and element). */
function shownLine(row: DrawnRow, selectedId: string | undefined, focused: boolean, columns: number): Line {
  if (!row.selectable) return (row.plain ??= padLine(row.line, columns));
  if (row.id === selectedId) return padLine(cursorRow(row.line, true, focused, columns), columns);
  return (row.plain ??= padLine(cursorRow(row.line, false, focused, columns), columns));
}

/** `stdio 13 4.1k`, `stdio 11/13 3.2k` with tools off (or withheld), `stdio off* 13` when the user switched all of it off. */
function serverRight(server: ServerSnapshot, budget: ToolBudgetView | undefined, withTransport = true): string {
  const transport = withTransport ? transportLabel(server) : '';
  const right = serverColumns(server, budget, transport);
  return withTransport ? right : right.trimStart();
}

/** Fewer than this many columns left for the name (or fewer than the alias needs): the transport label makes room. */
const MIN_NAME_COLUMNS = 6;

function serverColumns(server: ServerSnapshot, budget: ToolBudgetView | undefined, transport: string): string {
  if (server.state !== 'ready') return `${transport} ${server.state === 'connecting' ? '…' : '-'}`;
  const cost = budget?.servers[server.alias];
  if (!cost) return `${transport} ${server.tools.length}`;
  const count = server.tools.length;
  const on = cost.on;
  if (count > 0 && on === 0) return `${transport} off${cost.switched ? SWITCHED_MARK : ''} ${count}`;
  return `${transport} ${on === count ? count : `${on}/${count}`} ${tokenLabel(cost.tokens)}${cost.switched ? SWITCHED_MARK : ''}`;
}

/** A tool's right column: its cost, `off` (config) or `off*` (switched here), `*` when switched back on here. */
function toolRight(alias: string, tool: string, budget: ToolBudgetView | undefined): { text: string; tone: Tone; off: boolean } {
  const entry = budget?.tools[alias]?.[tool];
  if (!entry) return { text: '', tone: 'muted', off: false };
  const cost = entry.tokens === undefined ? '-' : tokenLabel(entry.tokens);
  if (!entry.enabled) return { text: `off${entry.switched ? SWITCHED_MARK : ''} ${cost}`, tone: entry.switched ? 'warn' : 'muted', off: true };
  return { text: `${cost}${entry.switched ? SWITCHED_MARK : ''}`, tone: 'muted', off: false };
}

/** A server's resources under its tools: `◇ name`, `●` when a subscribed one changed. */
function resourceRows(alias: string, resources: readonly SidebarResource[], columns: number, header: number): Array<Omit<DrawnRow, 'index'>> {
  return resources.map((resource, index) => {
    const id = resourceRowId(alias, resource.uri);
    const branch = index === resources.length - 1 ? '└ ' : '├ ';
    const mark = resource.changed ? CHANGED_MARK : '';
    // A template is marked with its parameters: Enter puts it into the input to fill them in.
    const params = resource.parameters ? ` {${resource.parameters.map(sanitizeLabel).join(', ')}}` : '';
    const name = truncate(sanitizeLabel(resource.name) + params, Math.max(1, columns - 7 - mark.length));
    const line: Line = [{ text: `  ${branch}`, tone: 'muted' }, { text: resource.parameters ? '⬚ ' : '◇ ', tone: 'accent' }, { text: name }, ...(mark ? [{ text: mark, tone: 'warn' as const }] : [])];
    return { id, line, header, selectable: true };
  });
}

/**
 * Every row of the list without the cursor: made again only when the servers, resources, what is
 * expanded, the width or the costs change, not when the cursor moves (kept per server list).
 */
const drawnCache = new WeakMap<
  readonly ServerSnapshot[],
  { expanded: readonly string[]; columns: number; budget: ToolBudgetView | undefined; resources: Record<string, SidebarResource[]>; drawn: DrawnRow[] }
>();

function drawnRows(servers: readonly ServerSnapshot[], expanded: readonly string[], columns: number, budget: ToolBudgetView | undefined, resources: Record<string, SidebarResource[]>): DrawnRow[] {
  const cached = drawnCache.get(servers);
  if (cached && cached.expanded === expanded && cached.columns === columns && cached.budget === budget && cached.resources === resources) return cached.drawn;
  const drawn = drawRows(servers, expanded, columns, budget, resources);
  drawnCache.set(servers, { expanded, columns, budget, resources, drawn });
  return drawn;
}

function drawRows(servers: readonly ServerSnapshot[], expanded: readonly string[], columns: number, budget: ToolBudgetView | undefined, resources: Record<string, SidebarResource[]>): DrawnRow[] {
  const drawn: DrawnRow[] = [];
  const push = (row: Omit<DrawnRow, 'index'>) => drawn.push({ ...row, index: drawn.length });
  for (const server of servers) {
    const id = serverRowId(server.alias);
    const open = expanded.includes(server.alias);
    const full = serverRight(server, budget);
    // The alias matters more than the transport: the label goes first when the alias would be cut.
    const room = columns - textWidth(full) - 5;
    const right = room < MIN_NAME_COLUMNS || room < textWidth(sanitizeLabel(server.alias)) ? serverRight(server, budget, false) : full;
    const nameRoom = Math.max(1, columns - textWidth(right) - 5);
    const name = truncate(sanitizeLabel(server.alias), nameRoom);
    // Only a server with tools to show can be expanded; the others open their details.
    const listed = resources[server.alias] ?? [];
    const marker = open ? EXPANDED : server.state === 'ready' && server.tools.length + listed.length > 0 ? COLLAPSED : ' ';
    const line: Line = [
      { text: marker, tone: 'muted' },
      { text: GLYPH[server.state], tone: STATE_TONE[server.state] },
      { text: ' ' },
      { text: name, tone: 'bold' },
    ];
    const gap = columns - 4 - textWidth(name) - textWidth(right);
    line.push({ text: ' '.repeat(Math.max(1, gap)) }, { text: right, tone: 'muted' });
    const header = drawn.length;
    push({ line, id, header, selectable: true });
    for (const note of serverNotes(server, columns)) push({ line: note, id, header, selectable: false });
    if (!open) continue;
    server.tools.forEach((tool, index) => {
      const toolId = toolRowId(server.alias, tool.name);
      const branch = index === server.tools.length - 1 && listed.length === 0 ? '└ ' : '├ ';
      const badge = toolBadge(tool);
      const cost = toolRight(server.alias, tool.name, budget);
      // The badge (look-alike or hidden characters) and the cost column take their room first.
      const badgeRoom = badge.text ? textWidth(badge.text) + 1 : 0;
      const nameRoom = Math.max(1, columns - 5 - badgeRoom - (cost.text ? textWidth(cost.text) + 1 : 0));
      const shownName = truncate(badge.name, nameRoom);
      const toolLine: Line = [
        { text: `  ${branch}`, tone: 'muted' },
        cost.off ? { text: shownName, tone: 'muted' } : { text: shownName },
        ...(badge.text ? [{ text: ` ${badge.text}`, tone: 'warn' as const }] : []),
      ];
      if (cost.text) toolLine.push({ text: ' '.repeat(Math.max(1, columns - 5 - textWidth(shownName) - badgeRoom - textWidth(cost.text))) }, { text: cost.text, tone: cost.tone });
      push({ id: toolId, line: toolLine, header, selectable: true });
    });
    if (server.tools.length === 0) push({ line: [{ text: '    no tools', tone: 'muted' }], id, header, selectable: false });
    for (const row of resourceRows(server.alias, listed, columns, header)) push(row);
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

/**
 * What the model gets (`tools 44k → search 201`: tool search sends 201 tokens in place of 44k;
 * `tools 3.1k sent`), and, when the user switched tools here, what the `*` means.
 */
function budgetFooter(budget: ToolBudgetView): string[] {
  const sent = budget.searching ? `tools ${tokenLabel(budget.enabledTokens)} → search ${tokenLabel(budget.sentTokens)}` : `tools ${tokenLabel(budget.sentTokens)} sent`;
  return budget.switchCount > 0 ? [`${SWITCHED_MARK} switched here (:mcp reset-tools)`, sent] : [sent];
}

/** Every MCP server with its status; browsing expands a server's tools. */
export const Sidebar = memo(function Sidebar({ servers, width, height, focused, theme, ui = { expanded: [] }, budget, resources }: SidebarProps) {
  const columns = Math.max(4, width - 4);
  const ready = servers.filter((server) => server.state === 'ready').length;
  // Focused, the cursor is always on a row; unfocused, only a row the user chose keeps its mark.
  const rows = sidebarRows(servers, ui.expanded, resources ?? NO_RESOURCES);
  const selectedId = focused ? effectiveSelection(rows, ui.selected) : rows.find((row) => row.id === ui.selected)?.id;
  const drawn = drawnRows(servers, ui.expanded, columns, budget, resources ?? NO_RESOURCES);
  // The last row says what the model gets, and that switches made here are remembered.
  const footer = budget && servers.some((server) => server.state === 'ready') ? budgetFooter(budget) : [];
  const listRows = Math.max(1, height - 3 - footer.length);
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
      {shown.map((row) => (
        <LineText key={row.index} line={shownLine(row, selectedId, focused, columns)} theme={theme} />
      ))}
      {footer.length > 0 ? (
        <Box flexGrow={1} flexDirection="column" justifyContent="flex-end">
          {footer.map((line) => (
            <Text key={line} color={theme.muted} wrap="truncate-end">
              {line}
            </Text>
          ))}
        </Box>
      ) : null}
    </Box>
  );
});
