// What the `:mcp tools|disable|enable|reset-tools` commands and the sidebar's switch key say about
// the tool budget (README.md, "Tool budget"). Lines are raw text: names come from servers, and the
// transcript sanitizes status lines at display time.
import type { ModelConfig } from '../services/broker/types';
import type { Message } from '../services/conversation/types';
import type { ServerSnapshot } from '../services/mcp/index';
import { formatTokens } from '../services/tools/budget';
import { findTool, SEPARATOR } from '../services/tools/names';
import type { ToolSwitches } from '../services/tools/switches';
import { contextWindowFor } from './context-window';
import type { ToolBudget } from './tool-budget';
import type { ToolBudgetView } from '../state/types';

/** `312 tok  on`, `312 tok  off (you)`, `312 tok  off (config)` for one tool. */
export function toolNote(view: ToolBudgetView, switches: ToolSwitches, alias: string, tool: string): string {
  const tokens = view.tools[alias]?.[tool]?.tokens;
  const state = switches.state(alias, tool);
  const cost = tokens === undefined ? '-' : `${tokens} tok`;
  const switched = state.enabled ? (state.source === 'switched' ? 'on (you)' : 'on') : state.source === 'switched' ? 'off (you)' : 'off (config)';
  return `${cost.padStart(8)}  ${switched.padEnd(12)}`;
}

/** Per server and in total: what the tools cost and what the next request sends. */
export function budgetSummary(tools: ToolBudget, servers: readonly ServerSnapshot[], model: ModelConfig | undefined, history: readonly Message[], shown: readonly ServerSnapshot[] = servers): string[] {
  if (!model) return [];
  const view = tools.view(servers, model, history);
  const lines = ['tool definitions (estimated tokens as sent):'];
  for (const server of shown) {
    const cost = view.servers[server.alias];
    if (!cost || server.state !== 'ready') continue;
    lines.push(`  ${server.alias}: ${cost.on} of ${server.tools.length} tools on, ${formatTokens(cost.tokens)} tokens${cost.switched ? ' (switched by you)' : ''}`);
  }
  lines.push(`  ${offerLine(view.searching, view.enabledTokens, view.sentTokens, view.budgetTokens, contextWindowFor(model))}`);
  if (view.switchCount > 0) lines.push(`  ${view.switchCount === 1 ? '1 switch made here is' : `${view.switchCount} switches made here are`} remembered for this directory; :mcp reset-tools forgets them`);
  return lines;
}

export function offerLine(searching: boolean, enabledTokens: number, sentTokens: number, budgetTokens: number, window: number | undefined): string {
  const budget = `budget ${formatTokens(budgetTokens)}${window === undefined ? ', context window unknown' : ` of a ${formatTokens(window)} window`}`;
  return searching
    ? `tool search on: enabled tools take ${formatTokens(enabledTokens)} tokens (${budget}); the model gets tool_search and the tools it found, ${formatTokens(sentTokens)} tokens`
    : `all enabled tools are sent: ${formatTokens(enabledTokens)} tokens (${budget})`;
}

/**
 * Switches `alias` (a whole server) or `alias__tool` on or off, or flips it (`enabled` undefined).
 * Returns the line to show, or an error line starting with `!`.
 */
export function switchTools(switches: ToolSwitches, servers: readonly ServerSnapshot[], target: string, enabled: boolean | undefined): string {
  const split = target.indexOf(SEPARATOR);
  if (split < 0) {
    const server = servers.find((candidate) => candidate.alias === target);
    if (!server) return `!no MCP server named ${JSON.stringify(target)}`;
    const names = server.tools.map((tool) => tool.name);
    const anyOn = names.some((name) => switches.state(target, name).enabled);
    const next = enabled ?? !(anyOn || (names.length === 0 && switches.serverSwitch(target) !== false));
    switches.setServer(target, next, names);
    return `${target}: every tool switched ${next ? 'on' : 'off'} for the model (remembered for this directory)`;
  }
  const found = findTool(servers, target);
  if (!found) return `!no tool ${JSON.stringify(target)} (name it as alias__tool, see :mcp tools)`;
  const next = enabled ?? !switches.state(found.server.alias, found.info.name).enabled;
  switches.setTool(found.server.alias, found.info.name, next);
  const after = switches.state(found.server.alias, found.info.name);
  return `${target}: switched ${next ? 'on' : 'off'} for the model${after.source === 'switched' ? ' (remembered for this directory)' : ' (as the config says)'}`;
}

/** The sidebar key: flips a tool, or a whole server when `tool` is undefined. */
export function toggleToolSwitch(switches: ToolSwitches, servers: readonly ServerSnapshot[], alias: string, tool?: string): string {
  return switchTools(switches, servers, tool === undefined ? alias : `${alias}${SEPARATOR}${tool}`, undefined);
}
