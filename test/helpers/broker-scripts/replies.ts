/**
 * Response scripts for the scripted broker and the builders that make them.
 *
 * A script is plain data, so it can also come from a JSON file (`--script`). The builders produce
 * the shapes real OpenAI-compatible servers send: `chat.completion.chunk` objects as SSE
 * `data: {...}\n\n` frames, a role-only first chunk, a finish chunk with an empty delta, an
 * optional usage-only chunk (`choices: []`) and `data: [DONE]`.
 */

/**
 * One write to the socket. `delayMs` is waited before writing it. `binary`: `text` holds raw bytes,
 * one per character (so a frame can end inside a multi-byte UTF-8 character).
 */
export interface Frame {
  text: string;
  delayMs?: number;
  binary?: boolean;
}

/**
 * - `stream`: status line and headers (default 200, `text/event-stream`), then `frames` written one
 *   by one, then `end`: `close` ends the response normally, `drop` destroys the socket (a crashed
 *   server or a cut connection), `stall` keeps the connection open and silent until the client
 *   gives up or the broker closes. With `firstByteDelayMs` nothing at all is sent for that long.
 * - `body`: a complete response (errors, JSON replies), sent after `delayMs`.
 * - `hang`: read the request and never send a byte.
 * - `reset`: destroy the socket without answering.
 */
export type ScriptedResponse =
  | {
      kind: 'stream';
      status?: number;
      contentType?: string;
      headers?: Record<string, string>;
      firstByteDelayMs?: number;
      frames: Frame[];
      end?: 'close' | 'drop' | 'stall';
    }
  | { kind: 'body'; status: number; contentType?: string; headers?: Record<string, string>; body: string; delayMs?: number }
  | { kind: 'hang' }
  | { kind: 'reset' };

export type StreamResponse = Extract<ScriptedResponse, { kind: 'stream' }>;

/** What one SSE frame carries: a JSON data object, or an explicit event/comment/raw text. */
export type SseDirective =
  | { sse: 'data'; data: string | Record<string, unknown>; event?: string }
  | { sse: 'comment'; text: string }
  | { sse: 'raw'; text: string };
export type SseItem = Record<string, unknown> | SseDirective;

export interface SseOptions {
  /** Wait before every frame (e.g. 1000 / tokens per second). */
  delayMs?: number;
  tokensPerSecond?: number;
  /** Append `data: [DONE]` (default true). */
  done?: boolean;
  lineEnding?: '\n' | '\r\n';
  /** Omit the space after `data:` (some servers do). */
  noSpace?: boolean;
  status?: number;
  contentType?: string;
  headers?: Record<string, string>;
}

function isSseDirective(item: SseItem): item is SseDirective {
  return typeof (item as { sse?: unknown }).sse === 'string';
}

/** Turns one item into its SSE text, terminated by a blank line. */
export function sseFrame(item: SseItem, lineEnding: '\n' | '\r\n' = '\n', noSpace = false): string {
  const space = noSpace ? '' : ' ';
  if (isSseDirective(item)) {
    if (item.sse === 'comment') return `:${space}${item.text}${lineEnding}${lineEnding}`;
    if (item.sse === 'raw') return item.text;
    const data = typeof item.data === 'string' ? item.data : JSON.stringify(item.data);
    const event = item.event ? `event:${space}${item.event}${lineEnding}` : '';
    const lines = data.split('\n').map((line) => `data:${space}${line}${lineEnding}`);
    return `${event}${lines.join('')}${lineEnding}`;
  }
  return `data:${space}${JSON.stringify(item)}${lineEnding}${lineEnding}`;
}

function frameDelay(options: SseOptions): number | undefined {
  if (options.delayMs !== undefined) return options.delayMs;
  if (options.tokensPerSecond) return 1000 / options.tokensPerSecond;
  return undefined;
}

/** An SSE response from a list of items (objects become `data: <json>` frames). */
export function sse(items: SseItem[], options: SseOptions = {}): StreamResponse {
  const lineEnding = options.lineEnding ?? '\n';
  const delayMs = frameDelay(options);
  const frames: Frame[] = items.map((item) => ({ text: sseFrame(item, lineEnding, options.noSpace), delayMs }));
  if (options.done !== false) frames.push({ text: sseFrame({ sse: 'data', data: '[DONE]' }, lineEnding, options.noSpace), delayMs });
  return {
    kind: 'stream',
    status: options.status,
    contentType: options.contentType,
    headers: options.headers,
    frames,
  };
}

export interface ChunkOptions {
  id?: string;
  model?: string;
  finishReason?: string | null;
  usage?: Record<string, unknown>;
  created?: number;
}

/** One `chat.completion.chunk` with a single choice. */
export function chunk(delta: Record<string, unknown>, options: ChunkOptions = {}): Record<string, unknown> {
  const value: Record<string, unknown> = {
    id: options.id ?? 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: options.created ?? 1_700_000_000,
    model: options.model ?? 'scripted',
    choices: [{ index: 0, delta, logprobs: null, finish_reason: options.finishReason ?? null }],
  };
  if (options.usage) value.usage = options.usage;
  return value;
}

/** A usage-only chunk (`choices: []`), as OpenAI sends with `stream_options.include_usage`. */
export function usageChunk(usage: Record<string, unknown>, options: Omit<ChunkOptions, 'usage'> = {}): Record<string, unknown> {
  return {
    id: options.id ?? 'chatcmpl-scripted',
    object: 'chat.completion.chunk',
    created: options.created ?? 1_700_000_000,
    model: options.model ?? 'scripted',
    choices: [],
    usage,
  };
}

/** Splits text into word-like tokens (a word with its trailing space), or into `size` code points. */
export function splitText(text: string, size?: number): string[] {
  if (text === '') return [];
  if (size === undefined) return text.match(/\s*\S+\s*|\s+/gu) ?? [text];
  const points = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < points.length; i += size) pieces.push(points.slice(i, i + size).join(''));
  return pieces;
}

export interface TextReplyOptions extends Omit<SseOptions, 'delayMs'> {
  /** Code points per chunk; default: one word per chunk. */
  chunkSize?: number;
  /** Streamed before the answer as reasoning deltas. */
  reasoning?: string;
  /** `reasoning_content` (llama.cpp, DeepSeek, vLLM) or `reasoning` (Ollama, OpenRouter). */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** Sent as a separate usage-only chunk after the finish chunk. */
  usage?: { prompt_tokens: number; completion_tokens: number; total_tokens?: number } | Record<string, unknown>;
  finishReason?: string;
  model?: string;
  delayMs?: number;
}

function usageWithTotal(usage: Record<string, unknown>): Record<string, unknown> {
  if (usage.total_tokens !== undefined) return usage;
  const prompt = typeof usage.prompt_tokens === 'number' ? usage.prompt_tokens : 0;
  const completion = typeof usage.completion_tokens === 'number' ? usage.completion_tokens : 0;
  return { ...usage, total_tokens: prompt + completion };
}

/** A streamed text answer, optionally preceded by reasoning. */
export function textReply(text: string, options: TextReplyOptions = {}): StreamResponse {
  const common = { model: options.model };
  const field = options.reasoningField ?? 'reasoning_content';
  const items: SseItem[] = [chunk({ role: 'assistant', content: '' }, common)];
  for (const piece of splitText(options.reasoning ?? '', options.chunkSize)) items.push(chunk({ [field]: piece }, common));
  for (const piece of splitText(text, options.chunkSize)) items.push(chunk({ content: piece }, common));
  items.push(chunk({}, { ...common, finishReason: options.finishReason ?? 'stop' }));
  if (options.usage) items.push(usageChunk(usageWithTotal(options.usage), common));
  return sse(items, options);
}

export interface ScriptedToolCall {
  name: string;
  /** A string is sent as is (it may be invalid JSON on purpose); an object is JSON-encoded. */
  arguments?: string | Record<string, unknown>;
  id?: string;
}

export interface ToolCallReplyOptions extends Omit<SseOptions, 'delayMs'> {
  textBefore?: string;
  /** Characters of `arguments` per chunk (default 8): arguments arrive in fragments. */
  fragmentSize?: number;
  usage?: Record<string, unknown>;
  finishReason?: string;
  model?: string;
  delayMs?: number;
}

/** Text (optional) followed by one or more tool calls whose arguments arrive in fragments. */
export function toolCallReply(calls: ScriptedToolCall[], options: ToolCallReplyOptions = {}): StreamResponse {
  const common = { model: options.model };
  const items: SseItem[] = [chunk({ role: 'assistant', content: null }, common)];
  for (const piece of splitText(options.textBefore ?? '')) items.push(chunk({ content: piece }, common));
  const fragment = options.fragmentSize ?? 8;
  calls.forEach((call, index) => {
    const id = call.id ?? `call_scripted_${index + 1}`;
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
    items.push(chunk({ tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] }, common));
    for (let i = 0; i < args.length; i += fragment) {
      items.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(i, i + fragment) } }] }, common));
    }
  });
  items.push(chunk({}, { ...common, finishReason: options.finishReason ?? 'tool_calls' }));
  if (options.usage) items.push(usageChunk(usageWithTotal(options.usage), common));
  return sse(items, options);
}

export interface BodyOptions {
  contentType?: string;
  headers?: Record<string, string>;
  /** Seconds or an HTTP date, sent as `Retry-After`. */
  retryAfter?: number | string;
  delayMs?: number;
}

/** A complete response with a status; an object body is sent as JSON. */
export function errorReply(status: number, body: string | Record<string, unknown>, options: BodyOptions = {}): ScriptedResponse {
  const isText = typeof body === 'string';
  const headers = { ...options.headers };
  if (options.retryAfter !== undefined) headers['retry-after'] = String(options.retryAfter);
  return {
    kind: 'body',
    status,
    contentType: options.contentType ?? (isText ? 'text/plain; charset=utf-8' : 'application/json'),
    headers,
    body: isText ? body : JSON.stringify(body),
    delayMs: options.delayMs,
  };
}

/** A JSON body (default status 200): a non-streamed completion, or LM Studio's error-on-200. */
export function jsonReply(body: unknown, options: BodyOptions & { status?: number } = {}): ScriptedResponse {
  return errorReply(options.status ?? 200, JSON.stringify(body), { ...options, contentType: options.contentType ?? 'application/json' });
}

/** Reads the request and never answers. */
export function hangReply(): ScriptedResponse {
  return { kind: 'hang' };
}

/** Destroys the connection without a response. */
export function resetReply(): ScriptedResponse {
  return { kind: 'reset' };
}

function asStream(response: ScriptedResponse): StreamResponse {
  if (response.kind !== 'stream') throw new Error(`expected a stream response, got ${response.kind}`);
  return response;
}

/** Sends the first `count` frames, then cuts the connection. */
export function dropAfter(response: ScriptedResponse, count: number): StreamResponse {
  const stream = asStream(response);
  return { ...stream, frames: stream.frames.slice(0, count), end: 'drop' };
}

/** Sends the first `count` frames, then keeps the connection open and silent. */
export function stallAfter(response: ScriptedResponse, count: number): StreamResponse {
  const stream = asStream(response);
  return { ...stream, frames: stream.frames.slice(0, count), end: 'stall' };
}

/** Sends nothing at all (not even the status line) for `ms`. */
export function delayFirstByte(response: ScriptedResponse, ms: number): StreamResponse {
  return { ...asStream(response), firstByteDelayMs: ms };
}

/** Re-cuts the stream's bytes into writes of `size` bytes (1 = one byte per write), keeping delays per frame start. */
export function rechunk(response: ScriptedResponse, size: number): StreamResponse {
  const stream = asStream(response);
  const frames: Frame[] = [];
  for (const frame of stream.frames) {
    const bytes = Buffer.from(frame.text, frame.binary ? 'latin1' : 'utf8');
    for (let i = 0; i < bytes.length; i += size) {
      frames.push({ text: bytes.subarray(i, i + size).toString('latin1'), delayMs: i === 0 ? frame.delayMs : undefined, binary: true });
    }
  }
  return { ...stream, frames };
}
