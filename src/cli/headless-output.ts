// What headless mode prints, per --output-format (documented in README.md, "Headless mode").
// stdout carries only the chosen format; notes for a person go to stderr.
import type { Usage } from '../services/broker/types';
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

export interface JsonUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  reasoning_tokens?: number;
  tokens_per_second?: number;
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

function addUsage(total: JsonUsage | null, next: JsonUsage): JsonUsage {
  if (!total) return next;
  const sum = (a?: number, b?: number) => (a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0));
  const merged: JsonUsage = {};
  for (const key of ['prompt_tokens', 'completion_tokens', 'total_tokens', 'reasoning_tokens'] as const) {
    const value = sum(total[key], next[key]);
    if (value !== undefined) merged[key] = value;
  }
  // Speed is the last answer's, not a sum.
  const speed = next.tokens_per_second ?? total.tokens_per_second;
  if (speed !== undefined) merged.tokens_per_second = speed;
  return merged;
}

/**
 * Folds conversation events into what headless mode reports. `onLine` receives stream-json lines
 * as they happen (only for that format).
 */
export class HeadlessReport {
  readonly result: JsonResult = { text: '', reasoning: '', tool_calls: [], finish_reason: 'incomplete', usage: null, error: null, commands: [] };
  /** Text and reasoning of the answer being streamed; the last one becomes the final answer. */
  private answerText = '';
  private answerReasoning = '';
  private readonly decisions = new Map<string, ToolDecision>();
  private readonly commandIndex = new Map<string, number>();
  private errors: string[] = [];

  constructor(private readonly onLine?: (value: Record<string, unknown>) => void) {}

  apply(event: ConversationEvent): void {
    switch (event.type) {
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
        this.onLine?.({ type: 'tool_call', id: entry.id, name: entry.name, arguments: args, ...(args === null ? { raw_arguments: event.call.rawArguments } : {}) });
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
        this.onLine?.({ type: 'usage', ...usage });
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
      case 'done':
        this.result.text = this.answerText;
        this.result.reasoning = this.answerReasoning;
        this.result.finish_reason = event.finishReason;
        this.onLine?.({ type: 'done', finish_reason: event.finishReason });
        break;
      default:
        break;
    }
  }

  /** 0 answered, 1 the model or the stream failed (130 when interrupted). */
  exitCode(): number {
    if (this.result.finish_reason === 'cancelled') return 130;
    if (this.result.error !== null) return 1;
    return this.result.finish_reason === 'error' || this.result.finish_reason === 'incomplete' ? 1 : 0;
  }
}
