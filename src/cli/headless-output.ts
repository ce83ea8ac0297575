// What headless mode prints, per --output-format (documented in README.md, "Headless mode").
// stdout carries only the chosen format; notes for a person go to stderr.
import type { Usage } from '../services/broker/types';
import { DEPTH_LIMIT_STATUS, parseArguments } from '../services/conversation/tool-call';
import type { ConversationEvent, ToolDecision } from '../services/conversation/types';

export type OutputFormat = 'text' | 'json' | 'stream-json';

export interface JsonToolCall {
  id: string;
  name: string;
  /** The parsed arguments, or null when they were not a JSON object (then `raw_arguments` holds them). */
  arguments: Record<string, unknown> | null;
  raw_arguments?: string;
  result: string | null;
  is_error: boolean;
  decision: HeadlessDecision;
}

/** `allowed`: it ran; `denied`: a rule or headless mode refused it; `skipped`: not run (bad arguments, unknown tool, limits); `cancelled`. */
export type HeadlessDecision = 'allowed' | 'denied' | 'skipped' | 'cancelled';

export interface JsonCommand {
  command: string;
  ran: boolean;
  exit_code: number | null;
  output: string;
}

/**
 * Every `finish_reason` headless output reports, with the exit code it gives. README.md
 * ("Headless mode") lists the same table; test/unit/readme.test.ts keeps them equal.
 * `tool_depth` is ours: the run stopped at the tool-call depth limit with calls left and no final
 * answer. A value the server sent that is not listed here is reported as is, with exit 3.
 */
export const FINISH_EXIT_CODES = {
  stop: 0,
  length: 3,
  content_filter: 3,
  tool_depth: 3,
  error: 1,
  incomplete: 1,
  cancelled: 130,
} as const satisfies Record<string, number>;

/** The exit code for a finish reason the server made up (`recitation`, `abort`, …): not a clean answer. */
export const OTHER_FINISH_EXIT_CODE = 3;

export interface JsonUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  reasoning_tokens?: number;
  tokens_per_second?: number;
}

/** The context of the last request against the model's window (README.md, "Context"). */
export interface JsonContext {
  /** Prompt tokens of the last request (counted by the server when `reported`), plus its answer. */
  used: number;
  reported: boolean;
  /** The window in tokens, or null when unknown; `window_source` says where it came from or why not. */
  window: number | null;
  window_source: string;
  system: number;
  tools: number;
  tools_by_server: Record<string, number>;
  messages: number;
  reserve: number;
  /** The prompt size at which a request is compacted first; null: never. */
  compact_at: number | null;
  /** Compactions during this run. */
  compactions: number;
}

export interface JsonResult {
  text: string;
  reasoning: string;
  tool_calls: JsonToolCall[];
  finish_reason: string;
  usage: JsonUsage | null;
  error: string | null;
  /** Proposed `CMD:` lines: run only with --allow-cmd. */
  commands: JsonCommand[];
  context: JsonContext | null;
}

function decisionOf(decision: ToolDecision | undefined, outcome: string): HeadlessDecision {
  if (outcome === 'cancelled') return 'cancelled';
  if (!decision) return outcome === 'skipped' ? 'skipped' : 'allowed';
  if (decision.action === 'allow') return 'allowed';
  return decision.action === 'deny' ? 'denied' : 'skipped';
}

function usageJson(usage: Usage, tokensPerSecond?: number): JsonUsage {
  return {
    ...(usage.promptTokens !== undefined ? { prompt_tokens: usage.promptTokens } : {}),
    ...(usage.completionTokens !== undefined ? { completion_tokens: usage.completionTokens } : {}),
    ...(usage.totalTokens !== undefined ? { total_tokens: usage.totalTokens } : {}),
    ...(usage.reasoningTokens !== undefined ? { reasoning_tokens: usage.reasoningTokens } : {}),
    ...(tokensPerSecond !== undefined ? { tokens_per_second: Math.round(tokensPerSecond * 10) / 10 } : {}),
  };
}

/** `arguments` (and `raw_arguments` when they are not a JSON object) as the tool_call line shows them. */
function argumentsJson(raw: string): { arguments: Record<string, unknown> | null; raw_arguments?: string } {
  const parsed = parseArguments(raw);
  return parsed.ok ? { arguments: parsed.value } : { arguments: null, raw_arguments: raw };
}

function addUsage(total: JsonUsage | null, next: JsonUsage): JsonUsage {
  if (!total) return next;
  const sum = (a?: number, b?: number) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));
  const merged: JsonUsage = {};
  for (const key of ['prompt_tokens', 'completion_tokens', 'total_tokens', 'reasoning_tokens'] as const) {
    const value = sum(total[key], next[key]);
    if (value !== undefined) merged[key] = value;
  }
  // Speed is the last timed answer's, not a sum (an answer too short to time has none).
  const speed = next.tokens_per_second ?? total.tokens_per_second;
  if (speed !== undefined) merged.tokens_per_second = speed;
  return merged;
}

/**
 * Folds conversation events into what headless mode reports. `onLine` receives stream-json lines
 * as they happen (only for that format).
 */
export class HeadlessReport {
  readonly result: JsonResult = { text: '', reasoning: '', tool_calls: [], finish_reason: 'incomplete', usage: null, error: null, commands: [], context: null };
  private compactions = 0;
  /** Text and reasoning of the answer being streamed; the last one becomes the final answer. */
  private answerText = '';
  private answerReasoning = '';
  private readonly decisions = new Map<string, ToolDecision>();
  private readonly commandIndex = new Map<string, number>();
  private errors: string[] = [];
  /**
   * The usage line of the request that just ended. The loop reports usage when the stream ends and
   * the answer's tool calls only as it takes them up one by one; the line waits until the
   * answer's calls are out, so stream-json reads in the order things happened.
   */
  private pendingUsage: Record<string, unknown> | undefined;
  /** Tool calls whose line went out with their answer (see `message`). */
  private readonly announced = new Set<string>();
  /** The loop said it reached the tool-call depth limit (the calls of that answer did not run). */
  private depthLimited = false;

  constructor(private readonly onLine?: (value: Record<string, unknown>) => void) {}

  private flushUsage(): void {
    if (this.pendingUsage) this.onLine?.(this.pendingUsage);
    this.pendingUsage = undefined;
  }

  apply(event: ConversationEvent): void {
    const answerMessage = event.type === 'message' && event.message.role === 'assistant';
    // The context count follows the usage it comes from; it does not end the request's lines either.
    if (event.type !== 'usage' && event.type !== 'context' && !answerMessage) this.flushUsage();
    switch (event.type) {
      case 'message':
        // The answer as the history keeps it: its tool calls are what the model sent, now, before
        // any of them is decided or run.
        if (event.message.role === 'assistant') {
          for (const call of event.message.toolCalls ?? []) {
            this.announced.add(call.id);
            this.onLine?.({ type: 'tool_call', id: call.id, name: call.name, ...argumentsJson(call.arguments) });
          }
          this.flushUsage();
        }
        if (event.message.role === 'compaction') {
          this.compactions++;
          if (this.result.context) this.result.context.compactions = this.compactions;
          const { replaced, trigger, tokensBefore, tokensAfter } = event.message;
          this.onLine?.({ type: 'compaction', replaced, trigger, ...(tokensBefore !== undefined ? { tokens_before: tokensBefore } : {}), ...(tokensAfter !== undefined ? { tokens_after: tokensAfter } : {}) });
        }
        break;
      case 'context': {
        const { context } = event;
        this.result.context = {
          used: context.used,
          reported: context.reported,
          window: context.window.tokens ?? null,
          window_source: context.window.source,
          system: context.parts.system,
          tools: context.parts.tools,
          tools_by_server: context.parts.toolsByServer,
          messages: context.parts.messages,
          reserve: context.parts.reserve,
          compact_at: context.compactAt ?? null,
          compactions: this.compactions,
        };
        break;
      }
      case 'status':
        if (event.message === DEPTH_LIMIT_STATUS) this.depthLimited = true;
        break;
      case 'request-start':
        this.answerText = '';
        this.answerReasoning = '';
        break;
      case 'text-delta':
        this.answerText += event.text;
        this.onLine?.({ type: 'text', text: event.text });
        break;
      case 'reasoning-delta':
        this.answerReasoning += event.text;
        this.onLine?.({ type: 'reasoning', text: event.text });
        break;
      case 'tool-call': {
        const args = event.call.arguments ?? null;
        const entry: JsonToolCall = {
          id: event.call.id,
          name: event.call.wireName,
          arguments: args,
          ...(args === null ? { raw_arguments: event.call.rawArguments } : {}),
          result: null,
          is_error: false,
          decision: 'skipped',
        };
        this.result.tool_calls.push(entry);
        if (!this.announced.has(entry.id)) {
          this.onLine?.({ type: 'tool_call', id: entry.id, name: entry.name, arguments: args, ...(args === null ? { raw_arguments: event.call.rawArguments } : {}) });
        }
        break;
      }
      case 'tool-decision':
        this.decisions.set(event.id, event.decision);
        break;
      case 'tool-result': {
        const decision = decisionOf(this.decisions.get(event.id), event.outcome);
        const entry = [...this.result.tool_calls].reverse().find((call) => call.id === event.id);
        if (entry) Object.assign(entry, { result: event.content, is_error: event.isError, decision });
        this.onLine?.({ type: 'tool_result', id: event.id, name: event.name, content: event.content, is_error: event.isError, decision });
        break;
      }
      case 'usage': {
        const usage = usageJson(event.usage, event.tokensPerSecond);
        this.result.usage = addUsage(this.result.usage, usage);
        this.flushUsage();
        this.pendingUsage = { type: 'usage', ...usage };
        break;
      }
      case 'error':
        this.errors.push(event.message);
        this.result.error = this.errors.join('; ');
        this.onLine?.({ type: 'error', message: event.message });
        break;
      case 'command-proposed':
        this.commandIndex.set(event.command.id, this.result.commands.length);
        this.result.commands.push({ command: event.command.command, ran: false, exit_code: null, output: '' });
        break;
      case 'command-started': {
        const entry = this.result.commands[this.commandIndex.get(event.id) ?? -1];
        if (entry) Object.assign(entry, { command: event.command, ran: true });
        break;
      }
      case 'command-output': {
        const entry = this.result.commands[this.commandIndex.get(event.id) ?? -1];
        if (entry) entry.output += event.chunk;
        break;
      }
      case 'command-exit':
      case 'command-skipped': {
        const entry = this.result.commands[this.commandIndex.get(event.id) ?? -1];
        if (!entry) break;
        if (event.type === 'command-exit') entry.exit_code = event.exitCode;
        this.onLine?.({ type: 'command', ...entry });
        break;
      }
      case 'done': {
        this.result.text = this.answerText;
        this.result.reasoning = this.answerReasoning;
        // The loop ends on an answer that asked for tools only when the depth limit kept them from
        // running: there is no final answer, and `tool_calls` (or a server's `stop`) would not say why.
        const stoppedForTools = event.finishReason === 'tool_calls' || (this.depthLimited && event.finishReason === 'stop');
        const reason = stoppedForTools ? 'tool_depth' : event.finishReason;
        this.result.finish_reason = reason;
        this.onLine?.({ type: 'done', finish_reason: reason });
        break;
      }
      default:
        break;
    }
  }

  /** See FINISH_EXIT_CODES; an error makes any answer a failure (1), unless it was interrupted. */
  exitCode(): number {
    const reason = this.result.finish_reason;
    if (reason === 'cancelled') return FINISH_EXIT_CODES.cancelled;
    if (this.result.error !== null) return FINISH_EXIT_CODES.error;
    return Object.hasOwn(FINISH_EXIT_CODES, reason) ? FINISH_EXIT_CODES[reason as keyof typeof FINISH_EXIT_CODES] : OTHER_FINISH_EXIT_CODE;
  }

  /**
   * What a person reading stderr should hear about how the run ended, when it did not simply
   * answer: the error, or why the answer is missing or incomplete. `depthLimit` names the
   * tool-depth limit in force and where it comes from (`--max-tool-depth 0`).
   */
  outcomeNote(depthLimit: string): string | undefined {
    const reason = this.result.finish_reason;
    if (reason === 'cancelled') return undefined;
    if (this.result.error !== null) return this.result.error;
    switch (reason) {
      case 'stop':
        return undefined;
      case 'length':
        return 'the answer was cut at the token limit (finish_reason "length"): it is incomplete; raise maxTokens for the model or the server\'s limit';
      case 'content_filter':
        return 'the server\'s content filter stopped the answer (finish_reason "content_filter")';
      case 'tool_depth':
        return `tool-call depth limit reached (${depthLimit}): the run stopped without a final answer; raise it with --max-tool-depth`;
      case 'incomplete':
        return 'the stream ended before the server said the answer was complete (no finish_reason): it may be cut short';
      default:
        return `the server ended the answer with finish_reason ${JSON.stringify(reason)}`;
    }
  }
}
