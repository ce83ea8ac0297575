// Counting a request against the window, part by part: system prompt, tool definitions (per
// server), conversation, and the reserve for the answer. Estimates (estimate.ts) are corrected by
// the calibration; after a request the server's own count replaces them.
import type { ToolSpec, WireMessage } from '../broker/types';
import { estimateTokens } from './estimate';

/** What each message costs beyond its text (role markers of the chat template). */
export const MESSAGE_OVERHEAD = 4;
/** The answer's reserve when the model config sets no `max_tokens`: this share of the window, at most DEFAULT_RESERVE_MAX. */
export const DEFAULT_RESERVE_SHARE = 0.25;
export const DEFAULT_RESERVE_MAX = 4096;

export interface ContextParts {
  system: number;
  tools: number;
  /** Tool definitions by server alias (`builtin`, …); tools without a known server under `other`. */
  toolsByServer: Record<string, number>;
  messages: number;
  /** Kept free for the answer: `max_tokens` of the model, else a share of the window. */
  reserve: number;
}

export interface ContextUsage {
  /** Prompt tokens of the request (system + tools + messages). */
  used: number;
  parts: ContextParts;
  /** `reported`: the server counted `used` (usage.prompt_tokens of the last request); else an estimate. */
  reported: boolean;
}

export function messageTokens(message: WireMessage): number {
  let text = typeof message.content === 'string' ? message.content : '';
  if (message.role === 'assistant' && message.tool_calls) for (const call of message.tool_calls) text += `${call.function.name} ${call.function.arguments}`;
  return estimateTokens(text) + MESSAGE_OVERHEAD;
}

export function toolTokens(spec: ToolSpec): number {
  return estimateTokens(JSON.stringify(spec.function));
}

/** The answer's reserve: the model's `max_tokens`, else DEFAULT_RESERVE_SHARE of the window (capped). */
export function answerReserve(maxTokens: number | undefined, window: number | undefined): number {
  if (maxTokens !== undefined) return maxTokens;
  if (window === undefined) return 0;
  return Math.min(DEFAULT_RESERVE_MAX, Math.round(window * DEFAULT_RESERVE_SHARE));
}

export interface MeasureInput {
  messages: readonly WireMessage[];
  tools: readonly ToolSpec[];
  /** The server alias of each tool's wire name, for the per-server split. */
  serverOf: (wireName: string) => string | undefined;
  reserve: number;
  /** Corrects a raw estimate (the calibration for this model). */
  calibrate: (estimated: number) => number;
}

/** The raw (uncalibrated) estimate of a request's prompt, for calibrating against the server's count. */
export function rawPromptEstimate(messages: readonly WireMessage[], tools: readonly ToolSpec[]): number {
  let total = 0;
  for (const message of messages) total += messageTokens(message);
  for (const spec of tools) total += toolTokens(spec);
  return total;
}

export function measureContext(input: MeasureInput): ContextUsage {
  let system = 0;
  let messages = 0;
  for (const message of input.messages) {
    const tokens = input.calibrate(messageTokens(message));
    if (message.role === 'system') system += tokens;
    else messages += tokens;
  }
  const toolsByServer: Record<string, number> = {};
  let tools = 0;
  for (const spec of input.tools) {
    const tokens = input.calibrate(toolTokens(spec));
    const server = input.serverOf(spec.function.name) ?? 'other';
    toolsByServer[server] = (toolsByServer[server] ?? 0) + tokens;
    tools += tokens;
  }
  return { used: system + tools + messages, parts: { system, tools, toolsByServer, messages, reserve: input.reserve }, reported: false };
}

/**
 * The prompt size at which a request is compacted first: `autoCompactAt` of what the window leaves
 * after the answer's reserve. Undefined when the window is unknown or compaction is off.
 */
export function compactionThreshold(window: number | undefined, reserve: number, autoCompactAt: number | false): number | undefined {
  if (window === undefined || autoCompactAt === false) return undefined;
  return Math.floor(Math.max(0, window - reserve) * autoCompactAt);
}
