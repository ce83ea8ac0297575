// The tool budget at run time (README.md, "Tool budget"): the user's switches (remembered per
// working directory), which tools the next request sends (all enabled ones, or `tool_search` plus
// the ones found), and what they cost, for the sidebar, `:mcp tools` and the context breakdown.
// The request's tools array is cached: the same tool lists, switches, found tools and window give
// the very same array, so building it is a few comparisons and the prompt prefix stays the same.
import type { ModelConfig, ToolSpec } from '../services/broker/types';
import type { AppConfig } from '../services/config/load';
import { estimateTokens } from '../services/context/estimate';
import type { ToolGate } from '../services/conversation/index';
import type { Message } from '../services/conversation/types';
import type { ServerSnapshot } from '../services/mcp/index';
import { offerTools, serverCosts, toolsContextPart, type BudgetSettings, type ToolOffer, type ToolsContextPart } from '../services/tools/budget';
import type { ToolIndex } from '../services/tools/names';
import { loadedTools } from '../services/tools/search';
import { createFileSwitchStore, createToolSwitches, switchesFile, type SwitchStore, type ToolSwitches } from '../services/tools/switches';
import type { ToolBudgetView } from '../state/types';
import { contextWindowFor } from './context-window';
import { toolIndexFor } from './mcp';

const estimateSpec = (spec: ToolSpec) => estimateTokens(JSON.stringify(spec));

export interface ToolBudget {
  switches: ToolSwitches;
  /** The gate the conversation loop asks for the request's tools, for this model. */
  gate(model: ModelConfig): ToolGate;
  /** The offer for the next request of a conversation with this history. */
  offer(index: ToolIndex, history: readonly Message[], model: ModelConfig): ToolOffer;
  /** The "tools" part of the context breakdown: what the next request's `tools` array costs, by server. */
  contextPart(servers: readonly ServerSnapshot[], history: readonly Message[], model: ModelConfig): ToolsContextPart;
  /** What the sidebar shows: each tool's cost and switch, each server's total. */
  view(servers: readonly ServerSnapshot[], model: ModelConfig, history?: readonly Message[]): ToolBudgetView;
}

export function budgetSettings(config: Pick<AppConfig, 'mcp'>): BudgetSettings {
  return { mode: config.mcp.toolSearch, threshold: config.mcp.toolSearchThreshold, fallbackTokens: config.mcp.toolSearchFallbackTokens };
}

export function createToolBudget(config: Pick<AppConfig, 'mcp' | 'limits' | 'paths'>, cwd: string, options: { store?: SwitchStore; report?: (message: string) => void; window?: (model: ModelConfig) => number | undefined } = {}): ToolBudget {
  const switches = createToolSwitches(() => config.mcp.servers, options.store ?? createFileSwitchStore(switchesFile(config.paths.stateDir), cwd, options.report));
  const settings = budgetSettings(config);
  const alwaysLoad = (alias: string) => config.mcp.servers[alias]?.alwaysLoad === true;
  const state = (alias: string, tool: string) => switches.state(alias, tool);
  let last: { index: ToolIndex; version: number; loaded: string; window: number | undefined; offer: ToolOffer } | undefined;

  const offer = (index: ToolIndex, history: readonly Message[], model: ModelConfig): ToolOffer => {
    const loaded = loadedTools(history);
    const key = [...loaded].sort().join('\n');
    // The window the server reported (runtime.contextWindow), else the model's contextWindow key.
    const window = options.window?.(model) ?? contextWindowFor(model);
    if (last && last.index === index && last.version === switches.version && last.loaded === key && last.window === window) return last.offer;
    const made = offerTools({ index, state, alwaysLoad, loaded, windowTokens: window, settings }, estimateSpec);
    last = { index, version: switches.version, loaded: key, window, offer: made };
    return made;
  };

  return {
    switches,
    offer,
    gate: (model) => ({ offer: (index, history) => offer(index, history, model), state, searchResults: config.mcp.toolSearchResults }),
    contextPart(servers, history, model) {
      const index = toolIndexFor(config, servers);
      return toolsContextPart(offer(index, history, model), index, estimateSpec);
    },
    view(servers, model, history = []) {
      const index = toolIndexFor(config, servers);
      const current = offer(index, history, model);
      const tools: ToolBudgetView['tools'] = {};
      for (const server of servers) {
        const entries: ToolBudgetView['tools'][string] = {};
        for (const info of server.tools) {
          const switchState = switches.state(server.alias, info.name);
          entries[info.name] = { enabled: switchState.enabled, switched: switchState.source === 'switched' };
        }
        tools[server.alias] = entries;
      }
      for (const tool of index.tools) {
        const entry = tools[tool.alias]?.[tool.tool];
        if (entry) entry.tokens = tool.tokens;
      }
      const costs = new Map(serverCosts(index, state).map((cost) => [cost.alias, cost]));
      const serversView: ToolBudgetView['servers'] = {};
      for (const server of servers) {
        const cost = costs.get(server.alias);
        serversView[server.alias] = { tokens: cost?.tokens ?? 0, on: cost?.tools ?? 0, off: cost?.offTools ?? 0, switched: switches.serverSwitch(server.alias) !== undefined };
      }
      return {
        tools,
        servers: serversView,
        searching: current.searching,
        enabledTokens: current.enabledTokens,
        budgetTokens: current.budgetTokens,
        sentTokens: current.sentTokens,
        switchCount: Object.keys(switches.entries()).length,
      };
    },
  };
}
