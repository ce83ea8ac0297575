// The conversation loop (docs/ARCHITECTURE.md, "A keystroke, end to end" and Conversation rules): one user message in, a stream of typed events out. Both
// front ends drive it: the TUI folds the events into the store, headless mode prints them.
//
//   user turn -> model -> (tool calls? -> decide each in order -> run -> tool turns -> model)* ->
//   final answer -> proposed `CMD:` lines -> confirmed ones run -> exec records
//
// Every message appended to the history is announced with a `message` event, in order, so the
// front end can keep the history and log it. Aborting the signal ends the loop promptly at any
// point with a valid history: a partial answer is kept, every tool call still gets its turn.
// Consumers keep iterating after aborting, until `done`, to receive those last messages.
import { randomUUID } from 'node:crypto';
import type { ModelConfig, StreamChat } from '../broker/types';
import type { AppConfig } from '../config/load';
import type { McpService, ServerSnapshot } from '../mcp/index';
import { withInstructions } from '../mcp/index';
import type { ToolIndex } from '../tools/names';
import { TOOL_SEARCH_NAME, type ToolOffer } from '../tools/budget';
import type { SwitchState } from '../tools/switches';
import type { ApprovalPolicy } from '../tools/policy';
import { checkCommand } from '../shell/danger';
import { sandboxLabel, sandboxSettings } from '../sandbox/index';
import { extractCommands } from '../shell/extract';
import type { RunEvent, RunOptions } from '../shell/run';
import { streamAnswer, type AnswerResult } from './answer';
import { waitForStartingServers, type StartingServers } from './server-wait';
import { afterAnswer, fitRequest, formatTokens, formatWindowTokens, type ContextDeps, type FittedRequest } from './budget';
import type { ContextOverflow } from '../context/overflow';
import { ContextError } from './context';
import { execCommand, type ExecSettings } from './exec';
import { DEPTH_LIMIT_STATUS, needsUser, runToolCall, unlessAborted } from './tool-call';
import { runToolSearch } from './tool-search-call';
import type { ApprovalAnswer, ApprovalRequest, Attachment, CommandAnswer, ConversationEvent, Message, ProposedCommand } from './types';

export type { ConversationEvent, Message } from './types';
export type { ContextDeps } from './budget';
export { compactHistory, measureHistory, snapshotOf, formatTokens } from './budget';
export { buildRequestMessages, toWireMessages, findAlternationProblem, capToolResult, ContextError } from './context';
export { DENIED_BY_USER, DEPTH_LIMIT_STATUS } from './tool-call';
export { EMPTY_ANSWER } from './answer';
export { execCommand } from './exec';

/** The parts of the config the loop reads. */
export type ConversationConfig = Pick<AppConfig, 'systemPrompt' | 'context' | 'mcp' | 'shell' | 'broker'>;

/**
 * Which tools reach the model (runtime/tool-budget.ts): the user's switches and the tool budget.
 * Without it every indexed tool is sent and there is no tool search.
 */
export interface ToolGate {
  /** The request's tools for this history (cached: the same inputs give the same array). */
  offer(index: ToolIndex, history: readonly Message[]): ToolOffer;
  state(alias: string, tool: string): SwitchState;
  /** How many tools one search returns. */
  searchResults: number;
}

/** What the model hears when it calls a tool the user or the config switched off. */
export function switchedOffReason(name: string, state: SwitchState): string {
  return state.source === 'switched' ? `${name} is switched off by the user` : `${name} is switched off in the config (mcp.servers enabledTools/disabledTools)`;
}

export interface ConversationDeps {
  streamChat: StreamChat;
  mcp: Pick<McpService, 'servers' | 'callTool' | 'argumentProblem'>;
  buildToolIndex: (servers: readonly ServerSnapshot[]) => ToolIndex;
  tools?: ToolGate;
  policy: ApprovalPolicy;
  config: ConversationConfig;
  /** Replaceable for tests; defaults to the real shell runner. */
  runCommand?: (options: RunOptions) => AsyncGenerator<RunEvent, void, undefined>;
  /** The servers' instructions for the system prompt (runtime/instructions.ts); none when absent. */
  serverInstructions?: () => string;
  /** Tool-index problems already shown (renamed or withheld tools): each is reported once. */
  reportedProblems?: Set<string>;
  /** The model's window and the calibrated estimate; without it nothing is measured or compacted. */
  context?: ContextDeps;
  /** What memory and the session log keep of a tool result (limits.maxResultBytes); default: all of it. */
  keepResult?: (call: { id: string; name: string }, content: string) => string;
  /** The servers being started (TUI): a message waits a moment for them before its first request. */
  startingServers?: StartingServers;
  /** Read an answer's text at most once per this many ms (BrokerRequest.textPaceMs); unset: as it arrives. */
  textPaceMs?: number;
  /** Working directory and environment for commands. */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

export interface ConversationInput {
  signal: AbortSignal;
  /** Everything said so far (what the session log holds). Not modified. */
  history: readonly Message[];
  /** The new user message; empty to answer the history as it stands (e.g. after a `!command`). */
  text: string;
  /** Files sent with the new message. */
  attachments?: Attachment[];
  model: ModelConfig;
  approve: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
  confirmCommand: (command: ProposedCommand) => Promise<CommandAnswer>;
  deps: ConversationDeps;
  /** Overrides `mcp.maxToolDepth` (headless `--max-tool-depth`). */
  maxToolDepth?: number;
}

const nowIso = () => new Date().toISOString();

/**
 * Why the calls of an answer must not run, when it did not finish cleanly: a call cut off by
 * `length` has half its arguments, and the others of that answer were never confirmed by the
 * model's own end either.
 */
export function unfinishedBecause(reason: string): string | undefined {
  // A cancelled answer's calls get their own "cancelled" turn (tool-call.ts).
  if (reason === 'tool_calls' || reason === 'stop' || reason === 'cancelled') return undefined;
  if (reason === 'error') return 'the answer failed before it was complete';
  if (reason === 'length') return 'the answer was cut off (finish_reason "length")';
  if (reason === 'incomplete') return 'the answer ended without a finish reason';
  return `the answer did not finish cleanly (finish_reason "${reason}")`;
}

/** `the server rejected the request for length (5000 tokens, window 4096)` */
function describeOverflow(overflow: ContextOverflow, snapshot: { used: number; window: { tokens?: number } }): string {
  const prompt = overflow.promptTokens ?? snapshot.used;
  const window = overflow.window ?? snapshot.window.tokens;
  return `the server rejected the request for length (${overflow.promptTokens === undefined ? 'about ' : ''}${formatTokens(prompt)} tokens${window !== undefined ? `, window ${formatWindowTokens(window)}` : ''})`;
}

/** Tool call ids must be unique in the history; some servers send none or repeat `call_0`. */
function uniqueCallIds<T extends { id: string }>(calls: T[], history: readonly Message[]): T[] {
  const used = new Set<string>();
  for (const message of history) if (message.role === 'assistant') for (const call of message.toolCalls ?? []) used.add(call.id);
  return calls.map((call) => {
    let id = call.id.trim().length > 0 ? call.id : `call_${randomUUID().slice(0, 8)}`;
    for (let n = 2; used.has(id); n++) id = `${call.id || 'call'}_${n}`;
    used.add(id);
    return id === call.id ? call : { ...call, id };
  });
}

export async function* runConversation(input: ConversationInput): AsyncGenerator<ConversationEvent, void, undefined> {
  const { signal, deps } = input;
  const { config, policy } = deps;
  const history: Message[] = [...input.history];
  const maxToolDepth = input.maxToolDepth ?? config.mcp.maxToolDepth;
  const append = (message: Message): ConversationEvent => {
    history.push(message);
    return { type: 'message', message };
  };

  if (input.text.length > 0 || (input.attachments?.length ?? 0) > 0) {
    yield append({ id: randomUUID(), role: 'user', content: input.text, at: nowIso(), ...(input.attachments?.length ? { attachments: input.attachments } : {}) });
  }

  let finishReason: string = 'stop';
  let finalText = '';
  for (let depth = 0; ; depth++) {
    if (signal.aborted) {
      finishReason = 'cancelled';
      break;
    }
    if (depth === 0 && deps.startingServers) yield* waitForStartingServers(deps.startingServers, signal);
    const index = deps.buildToolIndex(deps.mcp.servers());
    for (const problem of index.problems) {
      if (deps.reportedProblems?.has(problem)) continue;
      deps.reportedProblems?.add(problem);
      yield { type: 'status', level: 'warn', message: problem };
    }
    // What the model is offered: every enabled tool, or tool_search plus the tools it found (README.md, "Tool budget").
    const offer: ToolOffer | undefined = deps.tools?.offer(index, history);
    const offered: ToolIndex = offer && offer.specs !== index.specs ? { ...index, specs: offer.specs } : index;
    const timeouts = { firstByteMs: config.broker.firstByteTimeoutMs, idleMs: config.broker.idleTimeoutMs };
    let answer: AnswerResult | undefined;
    // A request the server refuses for length is compacted and sent once more (README.md, "Context").
    for (let attempt = 0; ; attempt++) {
      let fitted: FittedRequest;
      try {
        fitted = yield* fitRequest({
          history,
          append,
          model: input.model,
          index: offered,
          context: deps.context,
          options: { systemPrompt: withInstructions(config.systemPrompt, deps.serverInstructions?.() ?? ''), useToolRole: config.context.useToolRole, maxToolResultChars: config.context.maxToolResultChars },
          budget: { autoCompactAt: config.context.autoCompactAt, keepTurns: config.context.keepTurns },
          ...(attempt > 0 ? { force: 'overflow' as const } : {}),
          summarise: { streamChat: deps.streamChat, signal, timeouts, maxRetries: config.broker.maxRetries, ...(deps.env ? { env: deps.env } : {}) },
        });
      } catch (error) {
        if (!(error instanceof ContextError)) throw error;
        yield { type: 'error', message: error.message };
        break;
      }
      if (signal.aborted) break;

      yield { type: 'request-start', depth, model: input.model.name };
      answer = yield* streamAnswer(
        deps.streamChat,
        {
          model: input.model,
          messages: fitted.messages,
          ...(offered.specs.length > 0 ? { tools: offered.specs } : {}),
          signal,
          timeouts,
          maxRetries: config.broker.maxRetries,
          ...(deps.env ? { env: deps.env } : {}),
          ...(deps.textPaceMs ? { textPaceMs: deps.textPaceMs } : {}),
        },
        { holdOverflow: true },
      );
      yield* afterAnswer({ model: input.model, context: deps.context, fitted, usage: answer.usage });
      if (!answer.overflow) break;
      if (answer.overflow.window !== undefined) deps.context?.learn(input.model, answer.overflow.window);
      const said = describeOverflow(answer.overflow, fitted.snapshot);
      if (attempt > 0) {
        yield { type: 'error', message: `${said}, even after compacting: ${answer.error ?? 'rejected'}. Send a shorter message, :compact with a focus, or run the model with a larger window (llama-server -c, Ollama num_ctx, LM Studio context length)` };
        break;
      }
      yield { type: 'status', level: 'warn', message: `${said}: compacting and sending it again` };
    }
    if (!answer) {
      finishReason = signal.aborted ? 'cancelled' : 'error';
      break;
    }
    const calls = uniqueCallIds(answer.calls, history);
    finishReason = answer.finishReason;
    finalText = answer.text;
    if (answer.text.trim().length > 0 || answer.reasoning.trim().length > 0 || calls.length > 0) {
      yield append({
        id: randomUUID(),
        role: 'assistant',
        content: answer.text,
        ...(answer.reasoning.length > 0 ? { reasoning: answer.reasoning } : {}),
        ...(calls.length > 0 ? { toolCalls: calls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })) } : {}),
        finishReason: answer.finishReason,
        at: nowIso(),
      });
    }
    if (calls.length === 0) break;

    // Tool calls, strictly one after the other (docs/ARCHITECTURE.md, Conversation rules): effects are often order-dependent.
    const depthReached = depth >= maxToolDepth;
    if (depthReached) yield { type: 'status', level: 'warn', message: DEPTH_LIMIT_STATUS };
    const limit = config.mcp.maxToolCallsPerAnswer;
    const failed = unfinishedBecause(answer.finishReason);
    if (failed) yield { type: 'status', level: 'warn', message: `${failed}: ${calls.length === 1 ? 'its tool call was' : `its ${calls.length} tool calls were`} not run` };
    const switchedOff = (name: string): string | undefined => {
      const entry = index.byWireName.get(name);
      const state = entry && deps.tools?.state(entry.alias, entry.tool);
      return state && !state.enabled ? switchedOffReason(`${entry!.alias}__${entry!.tool}`, state) : undefined;
    };
    const isSearch = (name: string) => name === TOOL_SEARCH_NAME && offer !== undefined;
    // Only for the counter of several calls ("2 of 3"): a lone call is "1 of 1" if it asks at all,
    // and is not decided twice (its decision is made when it runs, below).
    const asking = calls.length > 1 ? calls.map((call) => !depthReached && !failed && !isSearch(call.name) && !switchedOff(call.name) && needsUser(call, index.byWireName.get(call.name), policy, deps.mcp)) : [];
    const count = asking.filter(Boolean).length;
    let asked = 0;
    for (const [position, call] of calls.entries()) {
      const notRunBecause = failed ?? (depthReached ? DEPTH_LIMIT_STATUS : position >= limit ? `too many tool calls in one answer (limit ${limit})` : switchedOff(call.name));
      if (!notRunBecause && !signal.aborted && isSearch(call.name)) {
        yield append(yield* runToolSearch(call, { searchable: offer!.searchable, limit: deps.tools!.searchResults, now: nowIso, newId: randomUUID }));
        continue;
      }
      const message = yield* runToolCall(call, index.byWireName.get(call.name), {
        signal,
        mcp: deps.mcp,
        policy,
        approve: input.approve,
        ...(notRunBecause ? { notRunBecause } : {}),
        position: () => {
          asked++;
          return { position: asked, count: Math.max(count, asked) };
        },
        maxResultChars: config.context.maxToolResultChars,
        ...(deps.keepResult ? { keepResult: deps.keepResult } : {}),
        now: nowIso,
        newId: randomUUID,
      });
      yield append(message);
    }
    if (signal.aborted) {
      finishReason = 'cancelled';
      break;
    }
    if (failed || depthReached) break;
  }

  // Proposed commands come only from a final answer that ended cleanly.
  if (finishReason === 'stop' && !signal.aborted) {
    const proposals = extractCommands(finalText);
    if (proposals.length > 0 && !config.shell.enabled) {
      yield { type: 'status', level: 'info', message: `${proposals.length} proposed command(s) not offered: shell.enabled is false` };
    } else {
      yield* runProposals(proposals, input, append);
    }
  }
  yield { type: 'done', finishReason: signal.aborted ? 'cancelled' : finishReason };
}

async function* runProposals(proposals: string[], input: ConversationInput, append: (message: Message) => ConversationEvent): AsyncGenerator<ConversationEvent, void, undefined> {
  const { signal, deps } = input;
  const sandbox = sandboxSettings(deps.config.shell.sandbox);
  const settings: ExecSettings = {
    ...(deps.config.shell.shell ? { shell: deps.config.shell.shell } : {}),
    timeoutMs: deps.config.shell.timeoutMs,
    maxOutputBytes: deps.config.shell.maxOutputBytes,
    ...(deps.cwd ? { cwd: deps.cwd } : {}),
    ...(deps.env ? { env: deps.env } : {}),
    ...(sandbox ? { sandbox } : {}),
  };
  const label = sandbox && proposals.length > 0 ? await sandboxLabel(sandbox, deps.cwd ?? process.cwd(), deps.env ?? process.env) : undefined;
  for (const proposal of proposals) {
    const command: ProposedCommand = { id: randomUUID(), command: proposal, ...checkCommand(proposal), ...(label ? { sandbox: label } : {}) };
    yield { type: 'command-proposed', command };
    const answer = signal.aborted ? undefined : await unlessAborted(input.confirmCommand(command), signal);
    if (!answer || answer.action === 'skip' || signal.aborted || answer.command.trim().length === 0) {
      yield { type: 'command-skipped', id: command.id };
      continue;
    }
    const record = yield* execCommand(command.id, answer.command, settings, signal, nowIso, deps.runCommand);
    yield append(answer.command !== proposal ? { ...record, proposed: proposal } : record);
  }
}
