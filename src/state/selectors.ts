import type { AppState } from './store';
import type { ServerSnapshot } from '../services/mcp/index';
import { extractCommands } from '../services/shell/extract';

// Named selectors: components subscribe to exactly the slice they draw, so a streaming delta
// re-renders the transcript, not the sidebar or the input bar.

export const selectItems = (state: AppState) => state.items;
export const selectMessages = (state: AppState) => state.messages;
export const selectBrokerState = (state: AppState) => state.brokerState;
export const selectModelName = (state: AppState) => state.modelName;
/** The last answer's counts, only while the model they were measured on is the current one (`:model` switches). */
const usageIsCurrent = (state: AppState) => state.usageModel === undefined || state.usageModel === state.modelName;
export const selectUsage = (state: AppState) => (usageIsCurrent(state) ? state.lastUsage : undefined);
export const selectTokensPerSecond = (state: AppState) => (usageIsCurrent(state) ? state.tokensPerSecond : undefined);
export const selectFocus = (state: AppState) => state.focus;

/**
 * The current model's context window (tokens and where the number came from), or undefined while
 * it is being asked. The one place to read it (tool search, the meter, `:context`).
 */
export const selectContextWindow = (state: AppState) => (Object.hasOwn(state.windows, state.modelName) ? state.windows[state.modelName] : undefined);
/** The meter's numbers as primitives, only for the current model. */
export const selectContextUsed = (state: AppState) => (state.context?.model === state.modelName ? state.context.used : undefined);
export const selectContextWindowTokens = (state: AppState) => selectContextWindow(state)?.tokens ?? (state.context?.model === state.modelName ? state.context.window.tokens : undefined);
export const selectSidebarVisible = (state: AppState) => state.sidebarVisible;
export const selectScrollOffset = (state: AppState) => state.scrollOffset;
export const selectHint = (state: AppState) => state.hint;
export const selectQuitArmed = (state: AppState) => state.quitArmedAt !== undefined;
export const selectApprovalHead = (state: AppState) => state.approvals[0];
export const selectApprovalCount = (state: AppState) => state.approvals.length;
export const selectCommandHead = (state: AppState) => state.commands[0];
export const selectElicitationHead = (state: AppState) => state.elicitations[0];
export const selectElicitationCount = (state: AppState) => state.elicitations.length;
export const selectFormUi = (state: AppState) => state.formUi;
export const selectServerOrder = (state: AppState) => state.order;
export const selectServers = (state: AppState) => state.servers;

/** Servers in display order (memoized on the two inputs so the result is referentially stable). */
export const selectServerList = (() => {
  let lastServers: AppState['servers'] | undefined;
  let lastOrder: string[] | undefined;
  let last: ServerSnapshot[] = [];
  return (state: AppState): ServerSnapshot[] => {
    if (state.servers !== lastServers || state.order !== lastOrder) {
      lastServers = state.servers;
      lastOrder = state.order;
      last = state.order.map((alias) => state.servers[alias]).filter((server): server is ServerSnapshot => server !== undefined);
    }
    return last;
  };
})();

/** `ready/total` for the status bar; a primitive, so it only changes when a count changes. */
export const selectServerCounts = (state: AppState): string => {
  let ready = 0;
  for (const alias of state.order) if (state.servers[alias]?.state === 'ready') ready++;
  return `${ready}/${state.order.length}`;
};

export const selectIsBusy = (state: AppState) =>
  state.brokerState === 'waiting' || state.brokerState === 'streaming' || state.brokerState === 'tools';

export const selectDraft = (state: AppState) => state.draft;
export const selectSidebarPinned = (state: AppState) => state.sidebarPinned;

/** Below this width the sidebar hides itself unless pinned. */
export const SIDEBAR_MIN_COLUMNS = 90;
export const sidebarShown = (state: AppState, columns: number) =>
  state.sidebarVisible && (columns >= SIDEBAR_MIN_COLUMNS || state.sidebarPinned);

export const selectEditor = (state: AppState) => state.editor;
export const selectFrameUi = (state: AppState) => state.frameUi;
export const selectSidebarUi = (state: AppState) => state.sidebarUi;
export const selectToolBudget = (state: AppState) => state.toolBudget;
export const selectCommandCount = (state: AppState) => state.commands.length;
export const selectReasoningCollapsed = (state: AppState) => state.reasoningCollapsed;
export const selectExpandedIds = (state: AppState) => state.expandedIds;
export const selectSessionRules = (state: AppState) => state.sessionRules;

/** A frame (tool approval, proposed command, server's form or link, sampling request) is waiting for the user. */
export const selectFrameWaiting = (state: AppState) => state.approvals.length > 0 || state.commands.length > 0 || state.elicitations.length > 0 || state.samplings.length > 0;

/**
 * Something can be cancelled: an answer streaming, tools or a command running. Only the newest
 * items are looked at (what runs is always at the end), so this stays cheap in long sessions.
 */
export const selectSomethingRuns = (state: AppState): boolean => {
  if (selectIsBusy(state)) return true;
  for (let index = state.items.length - 1; index >= 0 && index >= state.items.length - 32; index--) {
    const item = state.items[index];
    if (item && (item.kind === 'tool' || item.kind === 'command') && item.state === 'running') return true;
  }
  return false;
};

/**
 * The head command's place among the commands its answer proposed; undefined when no command
 * waits. The commands are asked one at a time, so the count comes from the answer's `CMD:` lines.
 */
export function commandPlace(state: AppState): { position: number; count: number } | undefined {
  const head = state.commands[0];
  if (!head) return undefined;
  const items = state.items;
  let index = items.length - 1;
  while (index >= 0 && !(items[index]!.kind === 'command' && items[index]!.id === head.command.id)) index--;
  if (index < 0) return { position: 1, count: state.commands.length };
  let position = 1;
  let cursor = index - 1;
  for (; cursor >= 0; cursor--) {
    const item = items[cursor]!;
    if (item.kind === 'command') position++;
    else if (item.kind !== 'status') break;
  }
  const answer = items[cursor];
  const proposed = answer?.kind === 'assistant' ? extractCommands(answer.text).length : 0;
  return { position, count: Math.max(position + state.commands.length - 1, proposed) };
}

/** Numbers, so the frame re-renders only when the place changes. */
export const selectCommandPosition = (state: AppState) => commandPlace(state)?.position ?? 1;
export const selectCommandTotal = (state: AppState) => commandPlace(state)?.count ?? state.commands.length;
