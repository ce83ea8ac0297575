// The built-in `tool_search` call (README.md, "Tool budget"): shown in the transcript like any
// tool call, never asked about (it runs nothing: it looks in the tool list aish-tui already
// holds), and answered with exactly one tool turn like every other call. The tools it returns
// join the following requests (tools/search.ts `loadedTools` reads them back from the history);
// calling one of them is approved as usual.
import type { CompletedToolCall } from '../broker/types';
import type { IndexedTool } from '../tools/names';
import { formatSearchResult, searchTools } from '../tools/search';
import { callView, parseArguments } from './tool-call';
import type { ConversationEvent, Message, ToolDecision } from './types';

export const TOOL_SEARCH_RULE = 'tool search (built in, it runs nothing)';

/** The query from the call's arguments: `{"query": "..."}`, or the first string argument a model chose to send. */
export function searchQuery(args: Record<string, unknown>): string | undefined {
  if (typeof args.query === 'string') return args.query;
  const first = Object.values(args).find((value): value is string => typeof value === 'string');
  return first;
}

export interface SearchCallContext {
  searchable: readonly IndexedTool[];
  limit: number;
  now: () => string;
  newId: () => string;
}

export async function* runToolSearch(call: CompletedToolCall, ctx: SearchCallContext): AsyncGenerator<ConversationEvent, Extract<Message, { role: 'tool' }>, undefined> {
  const parsed = parseArguments(call.arguments);
  yield { type: 'tool-call', call: callView(call, undefined, parsed) };
  const query = parsed.ok ? searchQuery(parsed.value) : undefined;
  const finish = (content: string, isError: boolean, decision: ToolDecision) => ({ content, isError, decision });
  let result;
  if (!parsed.ok) result = finish(parsed.problem, true, { action: 'skip', reason: 'arguments are not a JSON object' });
  else if (query === undefined || query.trim().length === 0) result = finish('[aish] tool_search needs {"query": "what you want to do"}', true, { action: 'skip', reason: 'no query' });
  else {
    yield { type: 'tool-decision', id: call.id, decision: { action: 'allow', by: 'rule', rule: TOOL_SEARCH_RULE } };
    yield { type: 'tool-started', id: call.id };
    try {
      const hits = await searchTools(ctx.searchable, query, ctx.limit);
      result = { content: formatSearchResult(query, hits), isError: false, decision: undefined };
    } catch (error) {
      result = { content: `[aish] tool search failed: ${(error as Error).message}`, isError: true, decision: undefined };
    }
  }
  if (result.decision) yield { type: 'tool-decision', id: call.id, decision: result.decision };
  const outcome = result.decision ? 'skipped' : result.isError ? 'tool-error' : 'ok';
  yield { type: 'tool-result', id: call.id, name: call.name, content: result.content, isError: result.isError, outcome };
  return {
    id: ctx.newId(),
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: result.content,
    isError: result.isError,
    at: ctx.now(),
    ...(outcome === 'skipped' ? { outcome } : {}),
  };
}
