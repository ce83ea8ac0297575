import type { AppConfig } from '../services/config/load';
import { ConfigError } from '../services/config/errors';
import { describeServers, describeTarget, describeTool, describeTools, serverJson, toolJson, toolNotFound, type McpManagerService, type ServerSnapshot } from '../services/mcp/index';
import { sanitizeLabel, sanitizeStrict, terminalSafeJson } from '../services/terminal/sanitize';
import { findTool } from '../services/tools/names';
import { resolveSpilledText } from '../services/shared/spilled-text';
import { createMcpFor, toolIndexFor } from '../runtime/mcp';
import { elicitationFromOption } from './elicitation-option';
import { createToolBudget } from '../runtime/tool-budget';
import { budgetSummary, toolNote } from '../runtime/tool-commands';
import type { CliArgs } from './args';
import { confirmOnTerminal, loginTarget, runLogin } from './mcp-login';
import { CATALOG_SUBCOMMANDS, runCatalogCommand, type CatalogSubcommand } from './mcp-catalog-command';

// `aish-tui mcp list|tools|tool <alias__tool>|call <alias__tool> [json-args] [--json]` (and the
// resources/read/prompts subcommands of mcp-catalog-command.ts): the
// "list all tools of a server" utility, and a way to call a tool from a script. Text output is
// sanitized (server text can carry escape sequences); --json output is JSON, escaped by JSON.
// These never start a browser sign-in (a script would hang on it): a server that needs one is
// reported at once, and `aish-tui mcp login <alias>` signs in.

export interface McpCommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Injected in tests; the default builds the real manager from the config. */
  manager?: McpManagerService;
  /** `mcp login`: asks before a browser opens (default: a y/N question on the terminal, no browser without one). */
  confirmOpen?: (url: string, host: string) => Promise<boolean>;
  /** Whose tool switches apply (they are remembered per working directory); default process.cwd(). */
  cwd?: string;
}

const SUBCOMMANDS = ['list', 'tools', 'tool', 'call', 'login', ...CATALOG_SUBCOMMANDS];
const isCatalog = (sub: string): sub is CatalogSubcommand => (CATALOG_SUBCOMMANDS as readonly string[]).includes(sub);

function usage(message: string): ConfigError {
  return new ConfigError([message, "Run 'aish-tui --help' for usage."]);
}

function parseArguments(text: string | undefined): Record<string, unknown> {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usage(`mcp call: the arguments are not valid JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw usage('mcp call: the arguments must be a JSON object, e.g. \'{"text": "hi"}\'');
  return value as Record<string, unknown>;
}

/** Connects what the subcommand needs: one server for `tool`/`call`, all of them otherwise. */
async function connectFor(manager: McpManagerService, config: AppConfig, name: string | undefined): Promise<ServerSnapshot[]> {
  const servers = config.mcp.servers;
  if (name !== undefined) {
    const alias = name.slice(0, Math.max(0, name.indexOf('__')));
    if (alias && servers[alias]) {
      await manager.connect(alias, servers[alias]!);
      return manager.settled();
    }
    if (alias === 'builtin' && config.builtin) {
      manager.connectAll({});
      return manager.settled();
    }
  }
  manager.connectAll(servers);
  return manager.settled();
}

/** Servers the config lists but turns off: shown by `mcp list`, never connected. */
function disabledServers(config: AppConfig): ServerSnapshot[] {
  return Object.entries(config.mcp.servers)
    .filter(([, server]) => server.disabled)
    .map(([alias, server]) => ({ alias, target: describeTarget({ kind: 'config', config: server }), state: 'disconnected', tools: [], stderr: [] }));
}

export async function runMcpCommand(config: AppConfig, args: CliArgs, io: McpCommandIo): Promise<number> {
  const [, sub, name, json] = args.command;
  if (!sub || !SUBCOMMANDS.includes(sub)) throw usage(`mcp: expected one of ${SUBCOMMANDS.join(', ')}${sub ? `, got ${JSON.stringify(sub)}` : ''}`);
  if ((sub === 'tool' || sub === 'call') && !name) throw usage(`mcp ${sub}: name the tool as alias__tool`);
  if (sub === 'list' || sub === 'tools') {
    if (args.command.length > 2) throw usage(`mcp ${sub}: unexpected argument ${JSON.stringify(args.command[2])}`);
  }
  if (isCatalog(sub)) {
    if (!name) throw usage(`mcp ${sub}: name the server (an alias from the config)`);
    if (sub === 'read' && !json) throw usage('mcp read: give the resource URI after the alias, e.g. mcp read everything demo://resource/static/document/architecture.md');
    if (args.command.length > (sub === 'read' ? 4 : 3)) throw usage(`mcp ${sub}: unexpected argument ${JSON.stringify(args.command[sub === 'read' ? 4 : 3])}`);
    if (!config.mcp.servers[name] && !(name === 'builtin' && config.builtin)) throw usage(`mcp ${sub}: no server named ${JSON.stringify(name)} in the config`);
  }
  if (sub === 'login' && args.command.length > 3) throw usage(`mcp login: unexpected argument ${JSON.stringify(args.command[3])}`);
  const callArgs = sub === 'call' ? parseArguments(json) : {};
  const loginAlias = sub === 'login' ? loginTarget(config, name) : undefined;

  // Only `login` may open a browser and wait for it; the rest report a needed sign-in at once.
  // A server asking for input mid-call gets the --elicitation answers, or a decline (said on stderr).
  const elicit = elicitationFromOption(args.elicitation, (line) => io.stderr(`aish-tui: ${sanitizeLabel(line)}\n`));
  const manager =
    io.manager ??
    createMcpFor(config, io.env ?? process.env, sub === 'login' ? { interactive: true, confirmOpen: io.confirmOpen ?? confirmOnTerminal(io), elicit } : { interactive: false, elicit });
  // Progress lines go to stderr so that stdout stays clean for --json and pipes.
  const unsubscribe = manager.subscribe((event) => {
    if (event.type === 'status') io.stderr(`aish-tui: ${sanitizeLabel(event.message)}\n`);
  });
  try {
    if (loginAlias !== undefined) return await runLogin(manager, config, loginAlias, io);
    const servers = await connectFor(manager, config, sub === 'tool' || sub === 'call' ? name : isCatalog(sub) ? `${name}__` : undefined);
    if (isCatalog(sub)) {
      const server = servers.find((one) => one.alias === name);
      if (server?.state !== 'ready') {
        io.stderr(`aish-tui: mcp ${sanitizeLabel(name!)} is not connected (${sanitizeLabel(server?.state ?? 'not started')})\n`);
        return 1;
      }
      return await runCatalogCommand(manager, sub, name!, json, { stdout: io.stdout, stderr: io.stderr, json: args.json });
    }
    const out = (lines: string[]) => io.stdout(lines.map((line) => `${sanitizeStrict(line)}\n`).join(''));
    const index = toolIndexFor(config, servers);
    const wireOf = new Map([...index.byWireName.values()].map((entry) => [`${entry.alias}\u0000${entry.tool}`, entry.wireName]));

    if (sub === 'list') {
      const disabled = disabledServers(config);
      if (args.json) {
        io.stdout(`${terminalSafeJson([...servers.map(serverJson), ...disabled.map((server) => ({ ...serverJson(server), disabled: true }))], 2)}\n`);
      } else {
        const lines = describeServers([...servers, ...disabled]);
        out(lines.map((line, index) => (index >= servers.length ? `${line}  (disabled in the config)` : line)));
      }
      return servers.some((server) => server.state !== 'ready') ? 1 : 0;
    }
    if (sub === 'tools') {
      // Costs and switches as the TUI started in this directory would see them.
      const budget = createToolBudget(config, io.cwd ?? process.cwd());
      const model = config.models[config.defaultModel];
      const view = model ? budget.view(servers, model) : undefined;
      if (args.json) {
        const tools = servers
          .filter((server) => server.state === 'ready')
          .flatMap((server) =>
            server.tools.map((info) => {
              const state = budget.switches.state(server.alias, info.name);
              return {
                ...toolJson(server.alias, info, wireOf.get(`${server.alias}\u0000${info.name}`)),
                tokens: view?.tools[server.alias]?.[info.name]?.tokens ?? null,
                enabled: state.enabled,
                switchedBy: state.source === 'switched' ? 'user' : state.source === 'config' ? 'config' : null,
              };
            }),
          );
        const failed = servers.filter((server) => server.state !== 'ready').map(serverJson);
        const costs = servers
          .filter((server) => server.state === 'ready')
          .map((server) => ({ server: server.alias, tokens: view?.servers[server.alias]?.tokens ?? 0, toolsOn: view?.servers[server.alias]?.on ?? 0, toolsOff: view?.servers[server.alias]?.off ?? 0 }));
        const toolBudget = view ? { searching: view.searching, enabledTokens: view.enabledTokens, budgetTokens: view.budgetTokens, sentTokens: view.sentTokens } : null;
        io.stdout(`${terminalSafeJson({ tools, servers: servers.map(serverJson), costs, toolBudget, problems: index.problems, failed: failed.map((s) => s.alias) }, 2)}\n`);
      } else {
        out(view ? [...describeTools(servers, config.limits, (alias, tool) => toolNote(view, budget.switches, alias, tool)), ...budgetSummary(budget, servers, model, [])] : describeTools(servers, config.limits));
      }
      return servers.some((server) => server.state !== 'ready') ? 1 : 0;
    }

    const found = findTool(servers, name!);
    if (sub === 'tool') {
      if (!found) {
        io.stderr(`aish-tui: ${sanitizeLabel(toolNotFound(servers, name!))}\n`);
        return 1;
      }
      if (args.json) io.stdout(`${terminalSafeJson(toolJson(found.server.alias, found.info, wireOf.get(`${found.server.alias}\u0000${found.info.name}`)), 2)}\n`);
      else out(describeTool(servers, name!));
      return 0;
    }

    // call: a tool the server did not list is still tried (the server decides; lmcp answers -32601).
    const split = name!.indexOf('__');
    if (split <= 0) throw usage(`mcp call: expected alias__tool, got ${JSON.stringify(name)}`);
    const alias = name!.slice(0, split);
    const tool = name!.slice(split + 2);
    const controller = new AbortController();
    const interrupt = () => controller.abort();
    process.once('SIGINT', interrupt);
    try {
      const outcome = await manager.callTool(alias, tool, callArgs, {
        signal: controller.signal,
        onProgress: (progress) => {
          const total = progress.total !== undefined ? `/${progress.total}` : '';
          io.stderr(`aish-tui: progress ${progress.progress}${total}${progress.message ? ` ${sanitizeLabel(progress.message)}` : ''}\n`);
        },
      });
      // A huge result's rest was read into a file (shared/spilled-text.ts): printed whole.
      const whole = { ...outcome, content: resolveSpilledText(outcome.content) };
      if (args.json) io.stdout(`${terminalSafeJson(whole, 2)}\n`);
      else io.stdout(`${sanitizeStrict(whole.content)}\n`);
      return outcome.isError ? 1 : 0;
    } finally {
      process.off('SIGINT', interrupt);
    }
  } finally {
    unsubscribe();
    await manager.close();
  }
}
