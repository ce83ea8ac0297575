// The `:` meta commands (README.md, "Commands"). Their output goes into the transcript as
// status lines; server-controlled text in it (names, descriptions) is sanitized by the chat view
// at display time like every other status line.
import type { AppConfig } from '../services/config/load';
import { displayPath } from '../services/config/paths';
import { listSessions } from '../services/history/index';
import { type McpManagerService } from '../services/mcp/index';
import { rootsCommand } from './roots-command';
import type { InstructionGate } from './instructions';
import type { ApprovalPolicy } from '../services/tools/policy';
import { permissionLines } from './permissions';
import { copyCommand } from './copy-export';
import { openModelPicker, openRewindPicker, openSessionPicker } from './pickers';
import type { AppStore } from '../state/store';
import type { ContextWindow } from '../services/context/index';
import type { ContextSnapshot } from '../services/conversation/types';
import { maxTokensOf } from '../services/broker/request';
import { contextLines, describeWindow, projectDocLines } from './context-lines';
import type { ModelConfig } from '../services/broker/types';
import type { ToolBudget } from './tool-budget';
import type { TaskResults } from './task-results';
import { promptCommand, promptsCommand, resourceCommand, resourcesCommand, type CatalogCommandHost } from './resources/catalog-commands';
import { mcpCommand } from './mcp-commands';

export { toggleToolSwitch } from './tool-commands';

export type CommandArgumentKind = 'model' | 'alias' | 'tool' | 'session' | 'root' | 'prompt';

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
  { name: 'context', usage: ':context', help: "what the conversation takes of the model's context window: system prompt, tools by server, messages, the answer's reserve; the AGENTS.md files and project config in use" },
  { name: 'compact', usage: ':compact [focus]', help: 'summarise the conversation so far to free context (the last turns stay as they are; focus: what the summary must keep)' },
  { name: 'sessions', usage: ':sessions', help: 'list saved sessions, newest first' },
  { name: 'resume', usage: ':resume [id]', help: 'pick a saved session, or load <id> (its history is shown and sent as context; nothing is re-run)', args: ['session'] },
  { name: 'retry', usage: ':retry', help: 'ask for the last answer again (the old one leaves the context, stays in the session file)' },
  { name: 'rewind', usage: ':rewind', help: 'pick an earlier message of yours to go back to (also Esc Esc on an empty input); later turns leave the context' },
  { name: 'fork', usage: ':fork', help: 'go on in a new session with this conversation; the current one stays as it is' },
  { name: 'copy', usage: ':copy [n] [code [k]]', help: 'copy the last (n: n-th last) answer, or its last (k-th) code block, to the clipboard (OSC 52; a file when it cannot)' },
  { name: 'export', usage: ':export [file]', help: 'write the conversation as Markdown, secrets redacted (default: aish-<session>.md here)' },
  { name: 'permissions', usage: ':permissions [delete N]', help: 'every approval rule in force (config, command line, saved, this session), where it comes from and which tools it matches (also p in the sidebar); delete N removes saved rule N', aliases: ['perms'] },
  { name: 'bg', usage: ':bg', help: 'move the running MCP task calls to the background: the turn goes on, each result reaches the model when its task completes' },
  { name: 'tasks', usage: ':tasks [cancel <n|id>]', help: 'the MCP tasks running now (numbered): tool, task id, status, foreground or background; cancel <n|id> cancels one' },
  { name: 'resources', usage: ':resources [alias]', help: 'the resources and resource templates of the connected servers (attach one with @alias:uri in a message)', args: ['alias'] },
  { name: 'resource', usage: ':resource [alias:uri|n]', help: 'show one resource (text, or its type and size); without an argument, the resource links in tool results, n opens one' },
  { name: 'prompts', usage: ':prompts [alias]', help: "every server's prompts with their arguments", args: ['alias'] },
  { name: 'prompt', usage: ':prompt <alias>/<name> [arg=value …]', help: "run a server's prompt: missing arguments are asked in a form (with the server's suggestions); its text goes into the input to read before sending", args: ['prompt'] },
  { name: 'quit', usage: ':quit', help: 'quit (also :q, :exit)', aliases: ['q', 'exit'] },
  {
    name: 'mcp',
    usage: ':mcp <subcommand>',
    help: 'MCP servers and their tools',
    subcommands: [
      { name: 'list', usage: ':mcp list', help: 'every server: state, transport, tool count' },
      { name: 'tools', usage: ':mcp tools [alias]', help: 'every tool as alias__tool with its cost in tokens, whether it is switched on, and its description; then each server\'s total', args: ['alias'] },
      { name: 'tool', usage: ':mcp tool <alias__tool>', help: "one tool's description and full input schema", args: ['tool'] },
      { name: 'connect', usage: ':mcp connect <url> [alias] [flags]', help: 'connect an HTTP server now (alias from the host name when omitted); flags: --sse or --http force a transport, --token-env VAR sends $VAR as Bearer token' },
      { name: 'disconnect', usage: ':mcp disconnect <alias>', help: 'disconnect a server (it stays listed; :mcp reconnect brings it back)', args: ['alias'] },
      { name: 'reconnect', usage: ':mcp reconnect <alias>', help: 'connect a server again', args: ['alias'] },
      { name: 'instructions', usage: ':mcp instructions <alias> [accept]', help: "a server's instructions and whether the model gets them; accept: send changed ones from now on", args: ['alias', ['accept']] },
      { name: 'log', usage: ':mcp log <alias>', help: "the server's last log messages (notifications/message, at mcp.servers.<alias>.logLevel and worse)", args: ['alias'] },
      { name: 'disable', usage: ':mcp disable <alias|alias__tool>', help: 'switch a server\'s tools or one tool off for the model (the server stays connected; remembered for this directory)', args: ['tool'] },
      { name: 'enable', usage: ':mcp enable <alias|alias__tool>', help: 'switch them on again', args: ['tool'] },
      { name: 'reset-tools', usage: ':mcp reset-tools', help: 'forget every tool switch made in this directory (the config\'s enabledTools/disabledTools apply again)' },
    ],
  },
  {
    name: 'roots',
    usage: ':roots <subcommand>',
    help: 'the directories MCP servers are offered as roots',
    subcommands: [
      { name: 'list', usage: ':roots [list]', help: 'the roots offered to servers: the working directory, mcp.roots, --add-dir and what you added' },
      { name: 'add', usage: ':roots add <dir>', help: 'offer one more directory to the servers (they are told the roots changed)' },
      { name: 'remove', usage: ':roots remove <dir>', help: 'stop offering a directory (the servers are told)', args: ['root'] },
    ],
  },
];

/** `:name` and `:mcp sub` forms with their help, for simple completion lists. */
export const COMMAND_HELP: ReadonlyArray<{ command: string; help: string }> = META_COMMANDS.flatMap((spec) =>
  spec.subcommands ? spec.subcommands.map((sub) => ({ command: `:${spec.name} ${sub.name}`, help: sub.help })) : [{ command: `:${spec.name}`, help: spec.help }],
);

/** What a command may do to the running session. */
export interface CommandHost extends Omit<CatalogCommandHost, 'mcp' | 'store'> {
  store: AppStore;
  config: AppConfig;
  mcp: McpManagerService;
  /** The approval rules in force, for `:permissions`. */
  policy: Pick<ApprovalPolicy, 'rules'> & Partial<Pick<ApprovalPolicy, 'savedFiles' | 'deleteSavedRule'>>;
  /** `:bg` and `:tasks` (task-results.ts); absent in front ends without them. */
  tasks?: Pick<TaskResults, 'background' | 'list' | 'cancel'>;
  /** Tool switches and costs; absent in front ends without them. */
  tools?: ToolBudget;
  modelConfig?: () => ModelConfig | undefined;
  env: NodeJS.ProcessEnv;
  /** Which servers' instructions reach the model (`:mcp instructions`). */
  instructions?: InstructionGate;
  /** The working directory (`:roots add` resolves relative directories against it). */
  cwd: string;
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
  /** The context of the conversation now (`:context`). */
  contextSnapshot(): ContextSnapshot | undefined;
  /** A model's context window as known now (`:model`). */
  contextWindow(modelName: string): ContextWindow | undefined;
  /** Queues a compaction of the conversation (`:compact [focus]`). */
  compact(focus?: string): void;
  /** The front end's key table for `:help`, when it has keys. */
  keyHelp?: () => string[];
}

/** What works without a command (README.md, "Project context", "Small comforts"). */
const ALSO_HELP = [
  'Also:',
  '  AGENTS.md files from the repository root down to here join the system prompt (:context lists them)',
  "  .aish/config.* of a directory you trust merges over your config (asked once per directory, again when the file changes)",
  '  a bell or desktop notification (ui.notify) when an answer ends or a frame waits while the terminal is in the background',
  "  colours follow the terminal's background (ui.theme: auto, dark or light; NO_COLOR turns them off)",
  '  after quitting, aish-tui prints the --resume <id> that continues the session',
];

export function helpLines(keyHelp: () => string[] = () => []): string[] {
  const width = Math.max(...COMMAND_HELP.map((entry) => entry.command.length), ...META_COMMANDS.map((spec) => spec.usage.length));
  const lines = ['Commands:'];
  for (const spec of META_COMMANDS) {
    if (spec.subcommands) for (const sub of spec.subcommands) lines.push(`  ${sub.usage.padEnd(width + 12)}  ${sub.help}`);
    else lines.push(`  ${spec.usage.padEnd(width + 12)}  ${spec.help}`);
  }
  lines.push(`  ${'!<command>'.padEnd(width + 12)}  run a shell command now; its output goes to the model with your next message`);
  lines.push(`  ${'@path'.padEnd(width + 12)}  attach a file under the working directory to the message (Tab completes; images for vision: true models)`);
  lines.push(`  ${'@alias:uri'.padEnd(width + 12)}  attach a resource of a connected MCP server (Tab completes; :resources lists them)`);
  lines.push(`  ${'/name'.padEnd(width + 12)}  the same as :name for every command above (/help, /model, /clear, /resume, …)`);
  lines.push('', ...ALSO_HELP);
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


/** Runs one `:command` line. Never throws: problems are shown as error lines. */
export async function runMetaCommand(line: string, host: CommandHost): Promise<void> {
  const words = line.trim().slice(1).trim().split(/\s+/).filter(Boolean);
  const [name, ...rest] = words;
  const out = (lines: string[], level: 'info' | 'warn' | 'error' = 'info') => showOutput(host.store, lines, level);
  switch (name) {
    case 'resources':
      return resourcesCommand(rest, host, out);
    case 'resource':
      return resourceCommand(rest, host, out);
    case 'prompts':
      return promptsCommand(rest, host, out);
    case 'prompt':
      return promptCommand(line.trim().slice(1).trim().replace(/^prompt\s*/, ''), host, out);
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
      return out([`model: ${rest[0]} (${model.model} at ${model.baseUrl}) from the next request on`, `context window: ${describeWindow(host.contextWindow(rest[0]))}`]);
    }
    case 'context': {
      const model = host.config.models[host.modelName()];
      const maxTokens = model ? maxTokensOf(model) : undefined;
      const reserveFrom = maxTokens !== undefined ? 'max_tokens of the model' : "the model sets no max_tokens: a quarter of the window, at most 4096";
      return out([...contextLines(host.contextSnapshot(), { autoCompactAt: host.config.context.autoCompactAt, reserveFrom }), ...projectDocLines(host.config.projectDocs, host.cwd, host.config.projectConfigPath)]);
    }
    case 'compact': {
      const focus = line.trim().slice(1).trim().replace(/^\S+\s*/, '');
      return host.compact(focus.length > 0 ? focus : undefined);
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
    case 'roots':
      return out(...rootsCommand(rest, host));
    case 'bg':
      return out(host.tasks?.background() ?? [':bg is not available here']);
    case 'tasks':
      if (rest[0] === 'cancel') return out(host.tasks?.cancel(rest.slice(1).join(' ').trim()) ?? [':tasks cancel is not available here']);
      return out(host.tasks?.list() ?? [':tasks is not available here']);
    case 'permissions':
    case 'perms':
      return permissionsCommand(rest, host, out);
    case undefined:
      return out(['type :help for the commands'], 'info');
    default:
      return out([`unknown command :${name} (type :help for the list)`], 'error');
  }
}

/** `:permissions` lists the rules; `:permissions delete N` removes saved rule N (numbered in the list). */
function permissionsCommand(args: string[], host: CommandHost, out: (lines: string[], level?: 'info' | 'warn' | 'error') => void): void {
  const [sub, number] = args;
  if (sub === undefined) return out(permissionLines(host.policy.rules(), host.mcp.servers(), host.config, host.env, host.policy.savedFiles?.()));
  if (sub !== 'delete' || number === undefined || !/^\d+$/.test(number)) return out(['usage: :permissions, or :permissions delete N (N from the Saved list)'], 'error');
  if (!host.policy.deleteSavedRule) return out(['no saved rules here'], 'error');
  const result = host.policy.deleteSavedRule(Number(number));
  if ('problem' in result) return out([result.problem], 'error');
  out([`deleted saved rule ${number}: ${result.deleted}`]);
}
