// Counting a request against the window, part by part: system prompt, tool definitions (per
// server), conversation, and the reserve for the answer. Estimates (estimate.ts) are corrected by
// the calibration; after a request the server's own count replaces them.
import type { ToolSpec, WireMessage } from '../broker/types';
import { estimateTokensRemembered as estimateTokens } from './estimate';

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

/** The text a message is counted by (its content, and its tool calls' names and arguments). */
export function messageText(message: WireMessage): string {
  let text = typeof message.content === 'string' ? message.content : '';
  if (message.role === 'assistant' && message.tool_calls) for (const call of message.tool_calls) text += `${call.function.name} ${call.function.arguments}`;
  return text;
}

const toolTexts = new WeakMap<ToolSpec, string>();

/** The text a tool definition is counted by (a spec is not changed once built: kept per spec). */
export function toolText(spec: ToolSpec): string {
  let text = toolTexts.get(spec);
  if (text === undefined) {
    text = JSON.stringify(spec.function);
    toolTexts.set(spec, text);
  }
  return text;
}

/** Counts one text: the server's tokenizer where it counted it (server-tokens.ts), else the estimate. */
export type TextCounter = (text: string) => number;

export function messageTokens(message: WireMessage, count: TextCounter = estimateTokens): number {
  return count(messageText(message)) + MESSAGE_OVERHEAD;
}

export function toolTokens(spec: ToolSpec, count: TextCounter = estimateTokens): number {
  return count(toolText(spec));
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
  /** Counts each part's text (default: the estimate). */
  count?: TextCounter;
  /** Corrects a raw count (the calibration for this model); called once every part was counted. */
  calibrate: (counted: number) => number;
}

/** The raw (uncalibrated) count of a request's prompt, for calibrating against the server's count. */
export function rawPromptEstimate(messages: readonly WireMessage[], tools: readonly ToolSpec[], count: TextCounter = estimateTokens): number {
  let total = 0;
  for (const message of messages) total += messageTokens(message, count);
  for (const spec of tools) total += toolTokens(spec, count);
  return total;
}

export function measureContext(input: MeasureInput): ContextUsage & { raw: number } {
  const count = input.count ?? estimateTokens;
  let system = 0;
  let messages = 0;
  for (const message of input.messages) {
    const tokens = messageTokens(message, count);
    if (message.role === 'system') system += tokens;
    else messages += tokens;
  }
  const rawByServer: Record<string, number> = {};
  let tools = 0;
  for (const spec of input.tools) {
    const tokens = toolTokens(spec, count);
    const server = input.serverOf(spec.function.name) ?? 'other';
    rawByServer[server] = (rawByServer[server] ?? 0) + tokens;
    tools += tokens;
  }
  // Calibrated only now: the caller's calibration may depend on how the parts were counted.
  const raw = system + tools + messages;
  const toolsByServer: Record<string, number> = {};
  for (const [server, tokens] of Object.entries(rawByServer)) toolsByServer[server] = input.calibrate(tokens);
  const parts = { system: input.calibrate(system), tools: input.calibrate(tools), toolsByServer, messages: input.calibrate(messages), reserve: input.reserve };
  return { used: parts.system + parts.tools + parts.messages, parts, reported: false, raw };
}

/**
 * The prompt size at which a request is compacted first: `autoCompactAt` of what the window leaves
 * after the answer's reserve. Undefined when the window is unknown or compaction is off.
 */
export function compactionThreshold(window: number | undefined, reserve: number, autoCompactAt: number | false): number | undefined {
  if (window === undefined || autoCompactAt === false) return undefined;
  return Math.floor(Math.max(0, window - reserve) * autoCompactAt);
}
