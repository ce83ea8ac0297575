import stringWidth from 'string-width';
import { sanitizeLabel } from '../terminal/sanitize';
import { hiddenTextFindings } from '../terminal/hidden-text';
import { lookAlikeNote, sanitizeName } from '../terminal/look-alike';
import { buildToolIndex, DEFAULT_SCHEMA_LIMITS, displayName, findTool, schemaProblem, type SchemaLimits } from '../tools/names';
import { formatDuration } from '../shared/duration';
import { base64Size, formatSize } from './flatten';
import { taskSupportProblem } from './task-support';
import { protocolLabel } from './protocol';
import type { McpToolInfo, ServerSnapshot } from './types';
import { maxOf, pushAll } from '../terminal/rows';

// Plain-text and JSON views of servers and tools for the `:mcp list|tools|tool` commands and the
// `aish-tui mcp ...` subcommands. The text is raw (server-controlled names and descriptions) except
// where it is laid out in columns (`describeTools`); the caller sanitizes each line at display time.

/** The first non-empty line, cut (with `…`) at `max` characters: the list stays a list; `:mcp tool` shows all. */
function firstLine(text: string | undefined, max = 160): string {
  const line = (text ?? '').split(/\r?\n/).find((candidate) => candidate.trim())?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

function serverDetail(server: ServerSnapshot): string {
  switch (server.state) {
    case 'ready': {
      const parts = [`${server.tools.length} tool${server.tools.length === 1 ? '' : 's'}`];
      if (server.transport) parts.push(server.transport);
      if (server.serverName) parts.push(`${server.serverName}${server.serverVersion ? ` ${server.serverVersion}` : ''}`);
      const protocol = protocolLabel(server);
      if (protocol) parts.push(`protocol ${protocol}`);
      if (server.taskCalls) parts.push('tasks');
      if (server.connectMs !== undefined) parts.push(formatDuration(server.connectMs));
      return parts.join(', ');
    }
    case 'needs-auth':
      return `${server.error ?? 'authorization required'}${server.authUrl ? `: ${server.authUrl}` : ''}`;
    case 'error':
      return server.error ?? 'failed';
    default:
      return '';
  }
}

/** `:mcp list` — one line per server. */
export function describeServers(servers: readonly ServerSnapshot[]): string[] {
  if (servers.length === 0) return ['no MCP servers (add some under mcp.servers in the config, or :mcp connect <url>)'];
  const aliasWidth = Math.min(24, maxOf(servers.map((server) => server.alias.length)));
  const stateWidth = maxOf(servers.map((server) => server.state.length));
  return servers.map((server) => {
    const detail = serverDetail(server);
    return `${server.alias.padEnd(aliasWidth)}  ${server.state.padEnd(stateWidth)}  ${server.target}${detail ? `  (${detail})` : ''}`;
  });
}

/** Names wider than this do not widen the name column: their description starts on the next line. */
const NAME_COLUMN_MAX = 48;

/**
 * `:mcp tools` — every tool of every ready server as `alias__tool  description`, the descriptions
 * in one column. The transcript wraps a long description under that column (the width is known
 * only there); a name too long for the column has its description on the next line, indented to
 * the column. Names and descriptions are made one-line labels here, so a name with a newline in
 * it cannot pose as a row of its own and the column is measured on what will be shown.
 */
export function describeTools(servers: readonly ServerSnapshot[], limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS, annotate?: (alias: string, tool: string) => string): string[] {
  const ready = servers.filter((server) => server.state === 'ready');
  const rows: Array<[string, string]> = [];
  for (const server of ready) {
    for (const tool of server.tools) {
      const problem = schemaProblem(tool.inputSchema, limits) ?? taskSupportProblem(tool, server);
      const description = problem ? `(withheld: ${problem})` : firstLine(tool.description ?? tool.title);
      // The annotation (cost, switch) is ours, in front of the server's text.
      const note = annotate ? `${annotate(server.alias, tool.name)}  ` : '';
      rows.push([sanitizeLabel(displayName(server.alias, tool.name)), `${note}${sanitizeLabel(description)}`]);
    }
  }
  const notReady = servers.filter((server) => server.state !== 'ready').map((server) => `${server.alias} (${server.state})`);
  const lines: string[] = [];
  if (rows.length === 0) lines.push('no tools');
  const fitting = rows.map(([name]) => stringWidth(name)).filter((width) => width <= NAME_COLUMN_MAX);
  const column = maxOf(fitting, 0);
  for (const [name, description] of rows) {
    const nameWidth = stringWidth(name);
    if (!description) lines.push(name);
    else if (nameWidth <= column) lines.push(`${name}${' '.repeat(column - nameWidth)}  ${description}`);
    else lines.push(name, `${' '.repeat(column + 2)}${description}`);
  }
  if (notReady.length > 0) lines.push(sanitizeLabel(`not ready: ${notReady.join(', ')}`));
  for (const problem of buildToolIndex(ready, limits).problems.filter((line) => !line.includes('withheld'))) lines.push(sanitizeLabel(problem));
  return lines;
}

/** `:mcp tool alias__tool` — the full description and input schema of one tool. */
export function describeTool(servers: readonly ServerSnapshot[], name: string): string[] {
  const found = findTool(servers, name);
  if (!found) return [toolNotFound(servers, name)];
  const { server, info } = found;
  const lines = [`${displayName(server.alias, info.name)}  (server ${server.alias}, tool ${info.name})`];
  const lookAlike = lookAlikeNote(info.name);
  if (lookAlike) lines.push(`▲ non-ASCII: the name ${sanitizeName(info.name)} holds ${lookAlike}; it may imitate another name`);
  const hidden = hiddenTextFindings(info);
  if (hidden.length > 0) {
    lines.push('▲ hidden text: invisible or control characters, removed from what the model receives:');
    pushAll(lines, hidden.map((line) => `  ${line}`));
  }
  if (info.title) lines.push(`title: ${info.title}`);
  if (info.description) pushAll(lines, info.description.split(/\r?\n/));
  if (info.annotations && Object.keys(info.annotations).length > 0) lines.push(`annotations: ${JSON.stringify(info.annotations)}`);
  if (info.execution && Object.keys(info.execution).length > 0) lines.push(`execution: ${JSON.stringify(info.execution)}`);
  const withheld = taskSupportProblem(info, server);
  if (withheld) lines.push(`not offered to the model: ${withheld}`);
  for (const icon of info.icons ?? []) lines.push(`icon: ${iconLine(icon)}`);
  { lines.push('input schema:'); pushAll(lines, JSON.stringify(info.inputSchema, null, 2).split('\n')); }
  if (info.outputSchema) { lines.push('output schema:'); pushAll(lines, JSON.stringify(info.outputSchema, null, 2).split('\n')); }
  return lines;
}

/** `image/png 48x48 https://…`; the payload of a `data:` URL is never printed, only its size. */
function iconLine(icon: Record<string, unknown>): string {
  const src = typeof icon.src === 'string' ? icon.src : '(no src)';
  const data = /^data:([^,]*?);base64,(.*)$/s.exec(src);
  const shown = data ? `data:${data[1]};base64,… (${formatSize(base64Size(data[2]!))})` : src.length > 300 ? `${src.slice(0, 299)}…` : src;
  const parts = [typeof icon.mimeType === 'string' ? icon.mimeType : undefined, Array.isArray(icon.sizes) ? icon.sizes.join(' ') : undefined, typeof icon.theme === 'string' ? `${icon.theme} theme` : undefined];
  return [...parts.filter((part) => part !== undefined && part.length > 0), shown].join('  ');
}

export function toolNotFound(servers: readonly ServerSnapshot[], name: string): string {
  const split = name.indexOf('__');
  if (split <= 0) return `expected alias__tool, got ${JSON.stringify(name)}`;
  const alias = name.slice(0, split);
  const server = servers.find((candidate) => candidate.alias === alias);
  if (!server) return `no MCP server named ${JSON.stringify(alias)}`;
  if (server.state !== 'ready') return `server ${alias} is not ready (${server.state}${server.error ? `: ${server.error}` : ''})`;
  return `server ${alias} has no tool ${JSON.stringify(name.slice(split + 2))}`;
}

/** Machine-readable server entry for `aish-tui mcp list --json`. */
export function serverJson(server: ServerSnapshot) {
  return {
    alias: server.alias,
    state: server.state,
    target: server.target,
    transport: server.transport ?? null,
    protocolVersion: server.protocolVersion ?? null,
    serverName: server.serverName ?? null,
    serverVersion: server.serverVersion ?? null,
    connectMs: server.connectMs ?? null,
    toolCount: server.tools.length,
    error: server.error ?? null,
    authUrl: server.authUrl ?? null,
    stderr: server.stderr.slice(-20),
    strayStdout: (server.strayStdout ?? []).slice(-20),
  };
}

/** Machine-readable tool entry for `aish-tui mcp tools --json` / `mcp tool --json`. */
export function toolJson(alias: string, info: McpToolInfo, wireName?: string) {
  return {
    name: displayName(alias, info.name),
    wireName: wireName ?? null,
    server: alias,
    tool: info.name,
    title: info.title ?? null,
    description: info.description ?? null,
    inputSchema: info.inputSchema,
    annotations: info.annotations ?? null,
    outputSchema: info.outputSchema ?? null,
    execution: info.execution ?? null,
    icons: info.icons ?? null,
  };
}
