// The `:` meta commands (README.md, "Commands"). Their output goes into the transcript as
// status lines; server-controlled text in it (names, descriptions) is sanitized by the chat view
// at display time like every other status line.
import type { AppConfig } from '../services/config/load';
import { displayPath } from '../services/config/paths';
import { listSessions } from '../services/history/index';
import { describeServers, describeTool, describeTools, McpInputError, parseConnectArguments, resolveConnectRequest, toolNotFound, type McpManagerService, type ServerSnapshot } from '../services/mcp/index';
import { findTool } from '../services/tools/names';
import { copyCommand } from './copy-export';
import { openModelPicker, openRewindPicker, openSessionPicker } from './pickers';
import type { AppStore } from '../state/store';

export type CommandArgumentKind = 'model' | 'alias' | 'tool' | 'session';

/** One command for `:help` and for completion in the input bar. */
export interface MetaCommandSpec {
  name: string;
  /** How it is typed, for `:help`. */
  usage: string;
  /** One line. */
  help: string;
  /** What each following word is: a fixed list or a kind the input bar looks up. */
  args?: Array<CommandArgumentKind | readonly string[]>;
  subcommands?: MetaCommandSpec[];
  /** Other names it answers to (as `:name` and `/name`). */
  aliases?: readonly string[];
}

export const META_COMMANDS: readonly MetaCommandSpec[] = [
  { name: 'help', usage: ':help', help: 'list every command and key (every command also works as /name)', aliases: ['h', '?'] },
  { name: 'clear', usage: ':clear', help: 'clear the conversation and start a new session (also :new)', aliases: ['new'] },
  { name: 'model', usage: ':model [name]', help: 'pick a model (configured, or offered by a configured server), or switch to <name> for the next request', args: ['model'] },
  { name: 'sessions', usage: ':sessions', help: 'list saved sessions, newest first' },
  { name: 'resume', usage: ':resume [id]', help: 'pick a saved session, or load <id> (its history is shown and sent as context; nothing is re-run)', args: ['session'] },
  { name: 'retry', usage: ':retry', help: 'ask for the last answer again (the old one leaves the context, stays in the session file)' },
  { name: 'rewind', usage: ':rewind', help: 'pick an earlier message of yours to go back to (also Esc Esc on an empty input); later turns leave the context' },
  { name: 'fork', usage: ':fork', help: 'go on in a new session with this conversation; the current one stays as it is' },
  { name: 'copy', usage: ':copy [n] [code [k]]', help: 'copy the last (n: n-th last) answer, or its last (k-th) code block, to the clipboard (OSC 52; a file when it cannot)' },
  { name: 'export', usage: ':export [file]', help: 'write the conversation as Markdown, secrets redacted (default: aish-<session>.md here)' },
  { name: 'quit', usage: ':quit', help: 'quit (also :q, :exit)', aliases: ['q', 'exit'] },
  {
    name: 'mcp',
    usage: ':mcp <subcommand>',
    help: 'MCP servers and their tools',
    subcommands: [
      { name: 'list', usage: ':mcp list', help: 'every server: state, transport, tool count' },
      { name: 'tools', usage: ':mcp tools [alias]', help: 'every tool as alias__tool with its description', args: ['alias'] },
      { name: 'tool', usage: ':mcp tool <alias__tool>', help: "one tool's description and full input schema", args: ['tool'] },
      { name: 'connect', usage: ':mcp connect <url> [alias] [flags]', help: 'connect an HTTP server now (alias from the host name when omitted); flags: --sse or --http force a transport, --token-env VAR sends $VAR as Bearer token' },
      { name: 'disconnect', usage: ':mcp disconnect <alias>', help: 'disconnect a server (it stays listed; :mcp reconnect brings it back)', args: ['alias'] },
      { name: 'reconnect', usage: ':mcp reconnect <alias>', help: 'connect a server again', args: ['alias'] },
    ],
  },
];

/** `:name` and `:mcp sub` forms with their help, for simple completion lists. */
export const COMMAND_HELP: ReadonlyArray<{ command: string; help: string }> = META_COMMANDS.flatMap((spec) =>
  spec.subcommands ? spec.subcommands.map((sub) => ({ command: `:${spec.name} ${sub.name}`, help: sub.help })) : [{ command: `:${spec.name}`, help: spec.help }],
);

/** What a command may do to the running session. */
export interface CommandHost {
  store: AppStore;
  config: AppConfig;
  mcp: McpManagerService;
  env: NodeJS.ProcessEnv;
  sessionsDir: string;
  currentSessionId(): string | undefined;
  modelName(): string;
  switchModel(name: string): void;
  clearConversation(): void;
  resumeSession(id: string): void;
  retry(): void;
  rewindTo(id: string): void;
  fork(): void;
  /** `:copy`: puts text on the clipboard or in a file; says which (one line). */
  copy?(text: string, what: string): void;
  /** `:export [file]`: one line saying where it went, or why not. */
  exportSession?(file: string | undefined): void;
  status(level: 'info' | 'warn' | 'error', text: string): void;
  isBusy(): boolean;
  quit(): void;
  /** The front end's key table for `:help`, when it has keys. */
  keyHelp?: () => string[];
}

export function helpLines(keyHelp: () => string[] = () => []): string[] {
  const width = Math.max(...COMMAND_HELP.map((entry) => entry.command.length), ...META_COMMANDS.map((spec) => spec.usage.length));
  const lines = ['Commands:'];
  for (const spec of META_COMMANDS) {
    if (spec.subcommands) for (const sub of spec.subcommands) lines.push(`  ${sub.usage.padEnd(width + 12)}  ${sub.help}`);
    else lines.push(`  ${spec.usage.padEnd(width + 12)}  ${spec.help}`);
  }
  lines.push(`  ${'!<command>'.padEnd(width + 12)}  run a shell command now; its output goes to the model with your next message`);
  lines.push(`  ${'@path'.padEnd(width + 12)}  attach a file under the working directory to the message (Tab completes; images for vision: true models)`);
  lines.push(`  ${'/name'.padEnd(width + 12)}  the same as :name for every command above (/help, /model, /clear, /resume, …)`);
  const keys = keyHelp();
  if (keys.length > 0) lines.push('', ...keys);
  return lines;
}

/** Shows command output as one status item; long output is shown unfolded (the user asked for it). */
export function showOutput(store: AppStore, lines: string[], level: 'info' | 'warn' | 'error' = 'info'): void {
  const state = store.getState();
  state.addStatus(level, lines.join('\n'));
  if (lines.length > 20) {
    const added = store.getState().items.at(-1);
    if (added && !store.getState().expandedIds.includes(added.id)) store.getState().toggleExpanded(added.id);
  }
}

function formatAge(date: Date, now = Date.now()): string {
  const minutes = Math.round((now - date.getTime()) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return date.toISOString().slice(0, 10);
}

const MAX_SESSIONS_LISTED = 20;

export function sessionLines(host: Pick<CommandHost, 'sessionsDir' | 'currentSessionId' | 'env'>): string[] {
  const sessions = listSessions(host.sessionsDir);
  if (sessions.length === 0) return [`no saved sessions in ${displayPath(host.sessionsDir, host.env)}`];
  const current = host.currentSessionId();
  const lines = sessions.slice(0, MAX_SESSIONS_LISTED).map((session) => {
    const marker = session.id === current ? '*' : ' ';
    return `${marker} ${session.id}  ${formatAge(session.modifiedAt).padEnd(10)}  ${session.preview || '(no message)'}`;
  });
  if (sessions.length > MAX_SESSIONS_LISTED) lines.push(`  … and ${sessions.length - MAX_SESSIONS_LISTED} older`);
  lines.push(`resume one with :resume <id> (or aish-tui --resume <id>); files in ${displayPath(host.sessionsDir, host.env)}`);
  return lines;
}

/**
 * The end of a connect. A failure is not repeated here: the server's own status event has
 * already said why (the same line the sidebar shows), in the TUI and headless alike.
 */
function reportConnect(snapshot: ServerSnapshot, out: (lines: string[], level?: 'info' | 'warn' | 'error') => void): void {
  if (snapshot.state === 'error') return;
  if (snapshot.state === 'ready') return out([`mcp ${snapshot.alias}: ready, ${snapshot.tools.length} tool${snapshot.tools.length === 1 ? '' : 's'}`]);
  out([`mcp ${snapshot.alias}: ${snapshot.state}${snapshot.error ? `: ${snapshot.error}` : ''}${snapshot.authUrl ? ` (authorize at ${snapshot.authUrl})` : ''}`], snapshot.state === 'needs-auth' ? 'warn' : 'info');
}

async function mcpCommand(words: string[], host: CommandHost): Promise<void> {
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
        return out(describeTools(servers, { inputSchemaBytes: host.config.limits.inputSchemaBytes, inputSchemaDepth: host.config.limits.inputSchemaDepth }));
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
        const request = resolveConnectRequest(
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
      default:
        return out([`unknown :mcp subcommand ${JSON.stringify(sub)}`, usage], 'error');
    }
  } catch (error) {
    const message = error instanceof McpInputError ? error.message : `mcp: ${(error as Error).message}`;
    out([message], 'error');
  }
}

/** Runs one `:command` line. Never throws: problems are shown as error lines. */
export async function runMetaCommand(line: string, host: CommandHost): Promise<void> {
  const words = line.trim().slice(1).trim().split(/\s+/).filter(Boolean);
  const [name, ...rest] = words;
  const out = (lines: string[], level: 'info' | 'warn' | 'error' = 'info') => showOutput(host.store, lines, level);
  switch (name) {
    case 'help':
    case 'h':
    case '?':
      return out(helpLines(host.keyHelp));
    case 'quit':
    case 'q':
    case 'exit':
      return host.quit();
    case 'clear':
    case 'new':
      if (host.isBusy()) return out(['still answering: press Esc to cancel first'], 'warn');
      return host.clearConversation();
    case 'model': {
      if (!rest[0]) return openModelPicker(host);
      if (!host.config.models[rest[0]]) return out([`no model named ${JSON.stringify(rest[0])} (configured: ${Object.keys(host.config.models).join(', ')})`], 'error');
      host.switchModel(rest[0]);
      const model = host.config.models[rest[0]]!;
      return out([`model: ${rest[0]} (${model.model} at ${model.baseUrl}) from the next request on`]);
    }
    case 'sessions':
      return out(sessionLines(host));
    case 'resume':
      if (host.isBusy()) return out(['still answering: press Esc to cancel first'], 'warn');
      if (!rest[0]) {
        if (!openSessionPicker(host.store, host.sessionsDir, host.currentSessionId(), (id) => host.resumeSession(id))) out(sessionLines(host));
        return;
      }
      return host.resumeSession(rest[0]);
    case 'retry':
      return host.retry();
    case 'rewind':
      if (host.isBusy()) return out(['still answering: press Esc to cancel first'], 'warn');
      if (!openRewindPicker(host.store, (id) => host.rewindTo(id))) out(['nothing to go back to yet: send a message first']);
      return;
    case 'fork':
      return host.fork();
    case 'copy':
      return copyCommand(rest, host);
    case 'export':
      if (!host.exportSession) return out([':export is not available here'], 'error');
      return host.exportSession(rest.join(' ') || undefined);
    case 'mcp':
      return mcpCommand(rest, host);
    case undefined:
      return out(['type :help for the commands'], 'info');
    default:
      return out([`unknown command :${name} (type :help for the list)`], 'error');
  }
}
