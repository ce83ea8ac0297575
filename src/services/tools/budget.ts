import type { ToolSpec } from '../broker/types';
import type { IndexedTool, ToolIndex } from './names';
import { byCodeUnits } from './names';
import type { SwitchState } from './switches';

// The tool budget (README.md, "Tool budget"): what the enabled tools' definitions cost, and
// whether they go to the model in full or behind the built-in `tool_search` function. Everything
// here is pure: the caller says which tools are switched on, which servers always load, which
// tools the conversation already found or used, and how big the model's window is.

/** The built-in search function. Every MCP tool's wire name has `__` in it, this one cannot clash. */
export const TOOL_SEARCH_NAME = 'tool_search';

export type ToolSearchMode = 'auto' | 'always' | 'off';

export interface BudgetSettings {
  mode: ToolSearchMode;
  /** Share of the context window the definitions may take before `auto` searches. */
  threshold: number;
  /** The budget in tokens while the window is unknown. */
  fallbackTokens: number;
}

/**
 * How many tokens the tool definitions may take: `threshold` of the window, or the absolute
 * fallback while the window is unknown (a local server that does not say it).
 */
export function toolBudgetTokens(windowTokens: number | undefined, settings: Pick<BudgetSettings, 'threshold' | 'fallbackTokens'>): number {
  if (windowTokens === undefined || !(windowTokens > 0)) return settings.fallbackTokens;
  return Math.floor(windowTokens * settings.threshold);
}

/** Whether the model gets `tool_search` instead of the deferrable tools' full definitions. */
export function searchNeeded(enabledTokens: number, deferrable: number, windowTokens: number | undefined, settings: BudgetSettings): boolean {
  if (deferrable === 0 || settings.mode === 'off') return false;
  if (settings.mode === 'always') return true;
  return enabledTokens > toolBudgetTokens(windowTokens, settings);
}

export function toolSearchSpec(deferred: number, aliases: readonly string[]): ToolSpec {
  return {
    type: 'function',
    function: {
      name: TOOL_SEARCH_NAME,
      description:
        `Find tools for a task. ${deferred} more tool${deferred === 1 ? ' is' : 's are'} available than are listed here (from ${aliases.join(', ')}). ` +
        'Describe what you want to do in plain words; the best matching tools are returned by name with a one-line description, and you can call them from then on.',
      parameters: {
        type: 'object',
        properties: { query: { type: 'string', description: 'what you want to do, in plain words (e.g. "read a file", "create a git branch")' } },
        required: ['query'],
      },
    },
  };
}

export interface OfferInput {
  index: ToolIndex;
  state: (alias: string, tool: string) => SwitchState;
  /** Servers whose tools are always sent in full (`alwaysLoad`). */
  alwaysLoad: (alias: string) => boolean;
  /** Wire names the conversation found with `tool_search` or called: sent in full while searching. */
  loaded: ReadonlySet<string>;
  windowTokens: number | undefined;
  settings: BudgetSettings;
}

export interface ToolOffer {
  /** The request's `tools` array. */
  specs: ToolSpec[];
  searching: boolean;
  /** Enabled tools, in index order. */
  enabled: IndexedTool[];
  /** Enabled tools `tool_search` covers (all enabled tools but those of `alwaysLoad` servers). */
  searchable: IndexedTool[];
  enabledTokens: number;
  budgetTokens: number;
  /** Estimated tokens of `specs`. */
  sentTokens: number;
}

export function offerTools(input: OfferInput, estimate: (spec: ToolSpec) => number): ToolOffer {
  const enabled = input.index.tools.filter((tool) => input.state(tool.alias, tool.tool).enabled);
  const searchable = enabled.filter((tool) => !input.alwaysLoad(tool.alias));
  const enabledTokens = enabled.reduce((sum, tool) => sum + tool.tokens, 0);
  const budgetTokens = toolBudgetTokens(input.windowTokens, input.settings);
  const searching = searchNeeded(enabledTokens, searchable.length, input.windowTokens, input.settings);
  if (!searching) return { specs: enabled.map((tool) => tool.spec), searching, enabled, searchable, enabledTokens, budgetTokens, sentTokens: enabledTokens };
  const sent = enabled.filter((tool) => input.alwaysLoad(tool.alias) || input.loaded.has(tool.wireName));
  const aliases = [...new Set(searchable.map((tool) => tool.alias))].sort(byCodeUnits);
  const search = toolSearchSpec(searchable.length - sent.filter((tool) => !input.alwaysLoad(tool.alias)).length, aliases);
  // The search function first: it stays put while found tools join behind it in index order.
  const specs = [search, ...sent.map((tool) => tool.spec)];
  const sentTokens = estimate(search) + sent.reduce((sum, tool) => sum + tool.tokens, 0);
  return { specs, searching, enabled, searchable, enabledTokens, budgetTokens, sentTokens };
}

export interface ServerCost {
  alias: string;
  /** Tokens of the server's enabled tools' definitions. */
  tokens: number;
  tools: number;
  /** Tokens and count of its switched-off tools (not sent). */
  offTokens: number;
  offTools: number;
}

/** Per server: what its tools cost, switched on and off, in alias order. */
export function serverCosts(index: ToolIndex, state: (alias: string, tool: string) => SwitchState): ServerCost[] {
  const byAlias = new Map<string, ServerCost>();
  for (const tool of index.tools) {
    let cost = byAlias.get(tool.alias);
    if (!cost) byAlias.set(tool.alias, (cost = { alias: tool.alias, tokens: 0, tools: 0, offTokens: 0, offTools: 0 }));
    if (state(tool.alias, tool.tool).enabled) {
      cost.tokens += tool.tokens;
      cost.tools++;
    } else {
      cost.offTokens += tool.tokens;
      cost.offTools++;
    }
  }
  return [...byAlias.values()];
}

/** The "tools" part of the context breakdown: what the next request's `tools` array costs, by server. */
export interface ToolsContextPart {
  tokens: number;
  searching: boolean;
  /** `tool_search` itself, when offered. */
  searchTokens: number;
  byServer: Array<{ alias: string; tokens: number; tools: number }>;
}

export function toolsContextPart(offer: ToolOffer, index: ToolIndex, estimate: (spec: ToolSpec) => number): ToolsContextPart {
  const byServer = new Map<string, { alias: string; tokens: number; tools: number }>();
  let searchTokens = 0;
  for (const spec of offer.specs) {
    const tool = index.byWireName.get(spec.function.name);
    if (!tool) {
      searchTokens += estimate(spec);
      continue;
    }
    const entry = byServer.get(tool.alias) ?? { alias: tool.alias, tokens: 0, tools: 0 };
    entry.tokens += tool.tokens;
    entry.tools++;
    byServer.set(tool.alias, entry);
  }
  return { tokens: offer.sentTokens, searching: offer.searching, searchTokens, byServer: [...byServer.values()] };
}

/** `1.2k` style token counts for narrow columns. */
export function formatTokens(tokens: number): string {
  if (tokens < 1000) return String(tokens);
  if (tokens < 10_000) return `${(tokens / 1000).toFixed(1)}k`;
  return `${Math.round(tokens / 1000)}k`;
}
