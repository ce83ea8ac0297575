// The `:mcp …` commands (README.md, "Commands"): servers, tools, instructions and logs at runtime.
// Kept apart from commands.ts (the table and the dispatch); output is status lines like every other command's.
import { describeServers, describeTool, describeTools, McpInputError, parseConnectArguments, resolveConnectRequest, toolNotFound, type ServerSnapshot } from '../services/mcp/index';
import { findTool } from '../services/tools/names';
import { budgetSummary, switchTools, toolNote } from './tool-commands';
import { META_COMMANDS, showOutput, type CommandHost } from './commands';

/**
 * The end of a connect. A failure is not repeated here: the server's own status event has
 * already said why (the same line the sidebar shows), in the TUI and headless alike.
 */
function reportConnect(snapshot: ServerSnapshot, out: (lines: string[], level?: 'info' | 'warn' | 'error') => void): void {
  if (snapshot.state === 'error') return;
  if (snapshot.state === 'ready') return out([`mcp ${snapshot.alias}: ready, ${snapshot.tools.length} tool${snapshot.tools.length === 1 ? '' : 's'}`]);
  out([`mcp ${snapshot.alias}: ${snapshot.state}${snapshot.error ? `: ${snapshot.error}` : ''}${snapshot.authUrl ? ` (authorize at ${snapshot.authUrl})` : ''}`], snapshot.state === 'needs-auth' ? 'warn' : 'info');
}

export async function mcpCommand(words: string[], host: CommandHost): Promise<void> {
  const [sub, ...rest] = words;
  const out = (lines: string[], level: 'info' | 'warn' | 'error' = 'info') => showOutput(host.store, lines, level);
  const usage = `usage: ${META_COMMANDS.find((spec) => spec.name === 'mcp')!.subcommands!.map((spec) => spec.usage).join(' | ')}`;
  try {
    switch (sub) {
      case 'list':
      case undefined:
        return out(describeServers(host.mcp.servers()));
      case 'tools': {
        const servers = rest[0] ? host.mcp.servers().filter((server) => server.alias === rest[0]) : host.mcp.servers();
        if (rest[0] && servers.length === 0) return out([`no MCP server named ${JSON.stringify(rest[0])}`], 'error');
        const limits = { inputSchemaBytes: host.config.limits.inputSchemaBytes, inputSchemaDepth: host.config.limits.inputSchemaDepth };
        const model = host.modelConfig?.();
        if (!host.tools || !model) return out(describeTools(servers, limits));
        const tools = host.tools;
        const view = tools.view(host.mcp.servers(), model, host.store.getState().messages);
        return out([...describeTools(servers, limits, (alias, tool) => toolNote(view, tools.switches, alias, tool)), ...budgetSummary(tools, host.mcp.servers(), model, host.store.getState().messages, servers)]);
      }
      case 'tool': {
        if (!rest[0]) return out(['usage: :mcp tool <alias__tool>'], 'error');
        const servers = host.mcp.servers();
        if (!findTool(servers, rest[0])) return out([toolNotFound(servers, rest[0])], 'error');
        return out(describeTool(servers, rest[0]));
      }
      case 'connect': {
        const { url, alias, options } = parseConnectArguments(rest);
        if (options.authEnv && !host.env[options.authEnv]) return out([`--token-env: $${options.authEnv} is not set`], 'error');
        // A bad URL or an alias in use is said at once; only what will really be tried is announced.
        const servers = new Map(host.mcp.servers().map((server) => [server.alias, server]));
        const request = await resolveConnectRequest(
          url,
          alias,
          (candidate) => {
            const known = servers.get(candidate);
            return known && { state: known.state, url: known.target };
          },
          options,
        );
        const how = [options.transport === 'sse' ? 'legacy SSE' : options.transport === 'http' ? 'streamable HTTP only' : '', options.authEnv ? `token from $${options.authEnv}` : ''].filter(Boolean);
        out([`mcp: connecting ${url} as ${request.alias}${how.length > 0 ? ` (${how.join(', ')})` : ''}…`]);
        // The announced alias and config are the ones connected (not resolved a second time).
        const snapshot = await host.mcp.connect(request.alias, request.config);
        return reportConnect(snapshot, out);
      }
      case 'disconnect':
        if (!rest[0]) return out(['usage: :mcp disconnect <alias>'], 'error');
        await host.mcp.disconnect(rest[0]);
        return out([`mcp ${rest[0]}: disconnected`]);
      case 'reconnect': {
        if (!rest[0]) return out(['usage: :mcp reconnect <alias>'], 'error');
        const snapshot = await host.mcp.reconnect(rest[0]);
        return reportConnect(snapshot, out);
      }
      case 'instructions':
        return instructionsCommand(rest, host, out);
      case 'log': {
        if (!rest[0]) return out(['usage: :mcp log <alias>'], 'error');
        const server = host.mcp.servers().find((candidate) => candidate.alias === rest[0]);
        if (!server) return out([`no MCP server named ${JSON.stringify(rest[0])}`], 'error');
        return out(describeServerLog(server));
      }
      case 'disable':
      case 'enable': {
        if (!rest[0]) return out([`usage: :mcp ${sub} <alias|alias__tool>`], 'error');
        if (!host.tools) return out(['tool switches are not available here'], 'error');
        const line = switchTools(host.tools.switches, host.mcp.servers(), rest[0], sub === 'enable');
        return line.startsWith('!') ? out([line.slice(1)], 'error') : out([line]);
      }
      case 'reset-tools': {
        if (!host.tools) return out(['tool switches are not available here'], 'error');
        const count = host.tools.switches.reset();
        return out([count === 0 ? 'no tool switches made in this directory' : `forgot ${count} tool switch${count === 1 ? '' : 'es'}; the config decides again which tools the model gets`]);
      }
      default:
        return out([`unknown :mcp subcommand ${JSON.stringify(sub)}`, usage], 'error');
    }
  } catch (error) {
    const message = error instanceof McpInputError ? error.message : `mcp: ${(error as Error).message}`;
    out([message], 'error');
  }
}

const INSTRUCTION_STATES = {
  sent: 'added to the system prompt',
  off: 'not sent: mcp.servers.<alias>.instructions is false',
  changed: 'changed since first seen: not sent until accepted (:mcp instructions <alias> accept)',
} as const;

function instructionsCommand(words: string[], host: CommandHost, out: (lines: string[], level?: 'info' | 'warn' | 'error') => void): void {
  const [alias, verb] = words;
  if (!alias) return out(['usage: :mcp instructions <alias> [accept]'], 'error');
  const server = host.mcp.servers().find((candidate) => candidate.alias === alias);
  if (!server) return out([`no MCP server named ${JSON.stringify(alias)}`], 'error');
  const text = server.instructions?.trim();
  if (!text) return out([`mcp ${alias}: no instructions`]);
  if (verb === 'accept') {
    if (!host.instructions?.accept(alias)) return out([`mcp ${alias}: no instructions to accept`], 'error');
    return out([`mcp ${alias}: instructions accepted; the model gets them from the next request`]);
  }
  if (verb !== undefined) return out(['usage: :mcp instructions <alias> [accept]'], 'error');
  const state = host.instructions?.stateOf(alias);
  return out([`mcp ${alias} instructions (${state ? INSTRUCTION_STATES[state].replace('<alias>', alias) : 'not sent'}):`, ...text.split('\n')]);
}

/** Entries `:mcp log` shows, newest last. */
const LOG_LINES = 50;

/** A server's log as plain lines (the chat view sanitizes status lines when it draws them). */
function describeServerLog(server: ServerSnapshot): string[] {
  const log = server.log ?? [];
  if (log.length === 0) return [`mcp ${server.alias}: no log messages (a server logs only if it declares logging; level: its logLevel, default warning)`];
  const shown = log.slice(-LOG_LINES);
  const time = (at: number) => new Date(at).toTimeString().slice(0, 8);
  return [`mcp ${server.alias}: last ${shown.length} of ${log.length} log messages`, ...shown.map((entry) => `${time(entry.at)} ${entry.level}${entry.logger ? ` [${entry.logger}]` : ''} ${entry.text}`)];
}
