import type { McpToolInfo, ServerSnapshot } from '../../services/mcp/types';
import { sanitize, sanitizeLabel, sanitizeStrict } from '../../services/terminal/sanitize';
import { BoxFrame, FRAME_CHROME_ROWS } from './BoxFrame';
import { GLYPH, stderrLine, transportLabel } from './serverLabels';
import { markWhitespace, signInUrlSegments, wrapLine, wrapWords, type Line } from './text';
import { serverLogLines } from './serverLog';
import type { Theme } from '../../terminal/theme';
import { pushAll } from '../../services/terminal/rows';
import { sanitizeName } from '../../services/terminal/look-alike';
import { toolWarningLines } from './toolBadges';

/** Everything known about one tool, escaped and wrapped to `columns`. */
export function toolDetailLines(alias: string, tool: McpToolInfo | undefined, columns: number, taskCalls = false): Line[] {
  const lines: Line[] = [];
  pushAll(lines, wrapLine([{ text: sanitizeName(`${alias}__${tool?.name ?? '?'}`), tone: 'bold' }], columns));
  if (!tool) {
    lines.push([{ text: 'this tool is no longer offered by the server', tone: 'warn' }]);
    return lines;
  }
  pushAll(lines, toolWarningLines(tool, columns));
  if (tool.title) pushAll(lines, wrapWords(sanitizeLabel(tool.title), columns, 'accent'));
  lines.push([]);
  if (tool.description) pushAll(lines, wrapWords(sanitize(tool.description, { invisibles: 'mark', tabs: 'escape' }), columns));
  else lines.push([{ text: 'no description', tone: 'muted' }]);
  if (tool.annotations && Object.keys(tool.annotations).length > 0) {
    lines.push([], [{ text: 'annotations (hints from the server; they never grant approval)', tone: 'muted' }]);
    for (const line of markWhitespace(sanitizeStrict(JSON.stringify(tool.annotations, null, 2)))) pushAll(lines, wrapLine(line, columns));
  }
  // Mirrors services/mcp/task-support.ts (components cannot import services): such a tool is listed, not offered.
  if (tool.execution?.taskSupport === 'required' && !taskCalls) {
    { lines.push([]); pushAll(lines, wrapWords('not offered to the model: it runs only as a task (execution.taskSupport "required") and the server does not declare task calls (capabilities.tasks.requests.tools.call)', columns, 'warn')); }
  }
  if (tool.execution && Object.keys(tool.execution).length > 0) {
    lines.push([], [{ text: 'execution', tone: 'muted' }]);
    for (const line of markWhitespace(sanitizeStrict(JSON.stringify(tool.execution, null, 2)))) pushAll(lines, wrapLine(line, columns));
  }
  if (tool.icons && tool.icons.length > 0) {
    lines.push([], [{ text: 'icons', tone: 'muted' }]);
    for (const icon of tool.icons) pushAll(lines, wrapLine([{ text: sanitizeLabel(iconLabel(icon)) }], columns));
  }
  lines.push([], [{ text: 'input schema', tone: 'muted' }]);
  for (const line of markWhitespace(sanitizeStrict(JSON.stringify(tool.inputSchema ?? {}, null, 2)))) pushAll(lines, wrapLine(line, columns));
  if (tool.outputSchema) {
    lines.push([], [{ text: 'output schema', tone: 'muted' }]);
    for (const line of markWhitespace(sanitizeStrict(JSON.stringify(tool.outputSchema, null, 2)))) pushAll(lines, wrapLine(line, columns));
  }
  return lines;
}

/** Media type, sizes and source of an icon; a `data:` URL shows its length, never its payload. */
function iconLabel(icon: Record<string, unknown>): string {
  const src = typeof icon.src === 'string' ? icon.src : '(no src)';
  const comma = src.indexOf(',');
  const shown = src.startsWith('data:') && comma > 0 ? `${src.slice(0, comma + 1)}… (${src.length - comma - 1} characters)` : src.length > 300 ? `${src.slice(0, 299)}…` : src;
  const parts = [typeof icon.mimeType === 'string' ? icon.mimeType : '', Array.isArray(icon.sizes) ? icon.sizes.join(' ') : '', typeof icon.theme === 'string' ? `${icon.theme} theme` : ''];
  return [...parts.filter((part) => part.length > 0), shown].join('  ');
}

/** A server's state, where it runs, why it failed and what it last wrote to stderr, escaped and wrapped. */
const INSTRUCTION_NOTES = {
  sent: { text: 'added to the system prompt', tone: 'muted' },
  off: { text: 'not sent to the model (instructions: false in the config)', tone: 'muted' },
  changed: { text: '▲ changed since first seen: not sent to the model until you accept them (:mcp instructions <alias> accept)', tone: 'warn' },
} as const;

/** Lines of a server's instructions shown in full (they are at most what the server sent; the view scrolls). */
const MAX_INSTRUCTION_LINES = 200;

export function serverDetailLines(alias: string, server: ServerSnapshot | undefined, columns: number, instructions?: 'sent' | 'off' | 'changed'): Line[] {
  const lines: Line[] = [];
  pushAll(lines, wrapLine([{ text: sanitizeLabel(alias), tone: 'bold' }], columns));
  if (!server) {
    lines.push([{ text: 'this server is no longer configured', tone: 'warn' }]);
    return lines;
  }
  const tone = server.state === 'ready' ? 'ok' : server.state === 'error' ? 'error' : server.state === 'disconnected' ? 'muted' : 'warn';
  const tools = server.state === 'ready' ? ` · ${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}` : '';
  lines.push([{ text: `${GLYPH[server.state]} ${server.state}`, tone }, { text: ` · ${transportLabel(server)}${tools}`, tone: 'muted' }]);
  pushAll(lines, wrapLine([{ text: sanitizeLabel(server.target), tone: 'muted' }], columns));
  const about = [server.serverName && `${server.serverName}${server.serverVersion ? ` ${server.serverVersion}` : ''}`, server.protocolVersion && `protocol ${server.protocolVersion}`]
    .filter(Boolean)
    .join(' · ');
  if (about) pushAll(lines, wrapWords(sanitizeLabel(about), columns, 'muted'));
  if (server.sandbox) pushAll(lines, wrapWords(sanitizeLabel(server.sandbox), columns, 'muted'));
  if (server.error) { lines.push([]); pushAll(lines, wrapWords(sanitizeLabel(server.error), columns, server.state === 'error' ? 'error' : 'warn')); }
  if (server.authUrl) {
    lines.push([], [{ text: 'sign in here (o in the sidebar opens it in a browser):', tone: 'muted' }]);
    pushAll(lines, wrapLine(signInUrlSegments(server.authUrl), columns));
  }
  const text = server.instructions?.trim();
  if (text) {
    const note = INSTRUCTION_NOTES[instructions ?? 'sent'];
    lines.push([], [{ text: 'instructions', tone: 'bold' }]);
    pushAll(lines, wrapWords(note.text.replace('<alias>', sanitizeLabel(alias)), columns, note.tone));
    const body = sanitizeStrict(text).split('\n');
    for (const line of body.slice(0, MAX_INSTRUCTION_LINES)) pushAll(lines, wrapWords(line, columns));
    if (body.length > MAX_INSTRUCTION_LINES) lines.push([{ text: `… ${body.length - MAX_INSTRUCTION_LINES} more lines (:mcp instructions ${sanitizeLabel(alias)})`, tone: 'muted' }]);
  }
  if (transportLabel(server) === 'stdio') {
    lines.push([]);
    if (server.stderr.length === 0) lines.push([{ text: 'nothing on stderr', tone: 'muted' }]);
    else {
      lines.push([{ text: `stderr, last ${server.stderr.length} line${server.stderr.length === 1 ? '' : 's'}`, tone: 'muted' }]);
      for (const line of server.stderr) pushAll(lines, wrapLine([{ text: stderrLine(line) }], columns));
    }
    // Printed on stdout but not MCP: a log line in the wrong stream, or text meant for the terminal.
    const stray = server.strayStdout ?? [];
    if (stray.length > 0) {
      lines.push([], [{ text: `stdout lines that are not MCP messages, last ${stray.length}`, tone: 'warn' }]);
      for (const line of stray) pushAll(lines, wrapLine([{ text: stderrLine(line) }], columns));
    }
  }
  pushAll(lines, serverLogLines(server.log, columns));
  return lines;
}

export interface ToolDetailsProps {
  /** The frame's title: `Tool` or `Server`. */
  title?: string;
  lines: Line[];
  width: number;
  height: number;
  scrollTop: number;
  theme: Theme;
}

/** Rows of text the details frame shows at `height` (the last row holds the scroll position). */
export const toolDetailRows = (height: number) => Math.max(1, height - FRAME_CHROME_ROWS - 1);

/** A tool's description and full input schema, or a server's details, scrollable; opened from the sidebar. */
export function ToolDetails({ title = 'Tool', lines, width, height, scrollTop, theme }: ToolDetailsProps) {
  const rows = toolDetailRows(height);
  const top = Math.max(0, Math.min(scrollTop, Math.max(0, lines.length - rows)));
  const shown = lines.slice(top, top + rows);
  while (shown.length < rows) shown.push([]);
  const position: Line = [
    {
      text: lines.length > rows ? `lines ${top + 1}–${Math.min(lines.length, top + rows)} of ${lines.length} · ↑↓ PgUp PgDn scroll · Esc close` : 'Esc close',
      tone: 'muted',
    },
  ];
  return <BoxFrame width={width} title={[{ text: title, tone: 'bold' }]} lines={[...shown, position]} theme={theme} />;
}
