// The MCP manager every front end uses (TUI, `-p`, `aish-tui mcp …`), built in this one place from
// the config. It is always the lazy one (lazyMcp.ts): the MCP client and the built-in server are
// most of the app's code, so they load when a front end first asks for a server (the TUI after its
// first frame), never at start-up.
import type { AppConfig } from '../services/config/load';
import type { McpManagerService, ServerSnapshot } from '../services/mcp/index';
import { buildToolIndex, type ToolIndex } from '../services/tools/names';
import { VERSION } from '../version';
import { lazyMcpManager } from './lazyMcp';

export interface McpManagerChoice {
  /**
   * May a server's sign-in open a browser and wait for it? The TUI and `aish-tui mcp login` yes;
   * `-p` and the other `mcp` subcommands report a needed sign-in at once (a script would hang).
   */
  interactive?: boolean;
}

export function createMcpFor(config: AppConfig, env: NodeJS.ProcessEnv, choice: McpManagerChoice = {}): McpManagerService {
  return lazyMcpManager(async () => {
    const { createMcpManager, mcpOptionsFromConfig } = await import('../services/mcp/client');
    return createMcpManager({ ...mcpOptionsFromConfig(config, VERSION, env), ...(choice.interactive !== undefined ? { interactive: choice.interactive } : {}) });
  });
}

/** The tools of the servers as the model sees them, with the config's schema limits. */
export function toolIndexFor(config: Pick<AppConfig, 'limits'> & { mcp: Pick<AppConfig['mcp'], 'maxDescriptionChars'> }, servers: readonly ServerSnapshot[]): ToolIndex {
  return buildToolIndex(servers, { inputSchemaBytes: config.limits.inputSchemaBytes, inputSchemaDepth: config.limits.inputSchemaDepth, descriptionChars: config.mcp.maxDescriptionChars });
}
