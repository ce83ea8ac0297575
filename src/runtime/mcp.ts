// The MCP manager every front end uses (TUI, `-p`, `aish-tui mcp …`), built in this one place from
// the config. It is always the lazy one (lazyMcp.ts): the MCP client and the built-in server are
// most of the app's code, so they load when a front end first asks for a server (the TUI after its
// first frame), never at start-up.
import type { AppConfig } from '../services/config/load';
import { aliasProblem } from '../services/config/checks';
import { BUILTIN_ALIAS } from '../services/builtin/alias';
import { normalizeRoots, type ElicitationHandler, type SamplingHandler, type McpManagerService, type ServerSnapshot } from '../services/mcp/index';
import { buildToolIndex, type ToolIndex } from '../services/tools/names';
import { VERSION } from '../version';
import { lazyMcpManager } from './lazyMcp';

export interface McpManagerChoice {
  /**
   * May a server's sign-in open a browser and wait for it? The TUI and `aish-tui mcp login` yes;
   * `-p` and the other `mcp` subcommands report a needed sign-in at once (a script would hang).
   */
  interactive?: boolean;
  /** Asks before a browser opens a (checked) sign-in address; without it none opens by itself. */
  confirmOpen?: (url: string, host: string) => Promise<boolean>;
  /** Who answers a server's elicitation (the TUI's frame, a script's answers); default: declined with a note. */
  elicit?: ElicitationHandler;
  /** The working directory: the first root (default: the process's). */
  cwd?: string;
  /** Answers servers' sampling requests (the conversation front ends); without it none is declared. */
  sampling?: SamplingHandler;
}

/** The roots servers are offered at start: the working directory, then `mcp.roots` (with `--add-dir`). */
export function startRoots(config: Pick<AppConfig, 'mcp'>, cwd: string): string[] {
  return normalizeRoots([cwd, ...config.mcp.roots], cwd);
}

export function createMcpFor(config: AppConfig, env: NodeJS.ProcessEnv, choice: McpManagerChoice = {}): McpManagerService {
  return lazyMcpManager(async () => {
    const { createMcpManager, mcpOptionsFromConfig } = await import('../services/mcp/client');
    return createMcpManager({
      ...mcpOptionsFromConfig(config, VERSION, env),
      roots: startRoots(config, choice.cwd ?? process.cwd()),
      ...(choice.interactive !== undefined ? { interactive: choice.interactive } : {}),
      ...(choice.elicit ? { elicit: choice.elicit } : {}),
      ...(choice.confirmOpen ? { confirmOpen: choice.confirmOpen } : {}),
      ...(choice.sampling ? { sampling: choice.sampling } : {}),
    });
  });
}

/** The tools of the servers as the model sees them, with the config's schema limits. */
export function toolIndexFor(config: Pick<AppConfig, 'limits'> & { mcp: Pick<AppConfig['mcp'], 'maxDescriptionChars'> }, servers: readonly ServerSnapshot[]): ToolIndex {
  return buildToolIndex(servers, { inputSchemaBytes: config.limits.inputSchemaBytes, inputSchemaDepth: config.limits.inputSchemaDepth, descriptionChars: config.mcp.maxDescriptionChars });
}

/** The servers a run starts (what the MCP manager's `connectAll` starts): the built-in one, then the enabled configured ones. */
export function startedServers(config: Pick<AppConfig, 'mcp' | 'builtin'>): string[] {
  const configured = Object.entries(config.mcp.servers)
    .filter(([alias, server]) => !server.disabled && aliasProblem(alias) === undefined)
    .map(([alias]) => alias);
  return config.builtin && !config.mcp.servers[BUILTIN_ALIAS] ? [BUILTIN_ALIAS, ...configured] : configured;
}
