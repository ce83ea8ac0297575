import type { Usage } from './types';

// Readers for the loosely typed JSON that OpenAI-compatible servers send. Everything arrives as
// `unknown`; these never throw and return undefined for anything they do not recognise.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** OpenAI usage (`prompt_tokens`, …) to ours; undefined when it carries no numbers (e.g. `usage: null`). */
export function readUsage(value: unknown): Usage | undefined {
  if (!isObject(value)) return undefined;
  const details = isObject(value.completion_tokens_details) ? value.completion_tokens_details : undefined;
  const usage: Usage = {};
  const prompt = count(value.prompt_tokens);
  const completion = count(value.completion_tokens);
  const total = count(value.total_tokens);
  const reasoning = count(details?.reasoning_tokens) ?? count(value.reasoning_tokens);
  if (prompt !== undefined) usage.promptTokens = prompt;
  if (completion !== undefined) usage.completionTokens = completion;
  if (total !== undefined) usage.totalTokens = total;
  else if (prompt !== undefined && completion !== undefined) usage.totalTokens = prompt + completion;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return Object.keys(usage).length > 0 ? usage : undefined;
}

/**
 * Splits `delta.content` into answer text and reasoning. Content is usually a string; some servers
 * send an array of parts (`{type: 'text', text}`), and Mistral's reasoning models send
 * `{type: 'thinking', thinking: [{type: 'text', text}]}` parts.
 */
export function readContent(value: unknown): { text: string; reasoning: string } {
  if (typeof value === 'string') return { text: value, reasoning: '' };
  if (!Array.isArray(value)) return { text: '', reasoning: '' };
  let text = '';
  let reasoning = '';
  for (const part of value) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    if (!isObject(part)) continue;
    if (part.type === 'thinking' || part.type === 'reasoning') {
      reasoning += partText(part.thinking ?? part.reasoning ?? part.text);
    } else if (typeof part.text === 'string') {
      text += part.text;
    }
  }
  return { text, reasoning };
}

function partText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return value.map((item) => (isObject(item) && typeof item.text === 'string' ? item.text : typeof item === 'string' ? item : '')).join('');
  return '';
}

/** Reasoning text of a delta: `reasoning_content` (llama.cpp, DeepSeek, vLLM) or `reasoning` (Ollama, OpenRouter); never both. */
export function readReasoning(delta: JsonObject): string {
  return nonEmptyString(delta.reasoning_content) ?? nonEmptyString(delta.reasoning) ?? '';
}

const FINISH_ALIASES: Record<string, string> = {
  function_call: 'tool_calls',
  tool_use: 'tool_calls',
  end_turn: 'stop',
  eos: 'stop',
  eos_token: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
};

export function normalizeFinishReason(value: unknown): string | undefined {
  const reason = nonEmptyString(value);
  if (reason === undefined) return undefined;
  return FINISH_ALIASES[reason] ?? reason;
}

/** A provider's message inside OpenRouter's `metadata.raw`, which may itself be a JSON string. */
function rawProviderMessage(raw: unknown): string | undefined {
  if (typeof raw === 'string') {
    const trimmed = raw.trim();
    if (trimmed.startsWith('{')) {
      try {
        return errorMessageOf(JSON.parse(trimmed)) ?? trimmed;
      } catch {
        return trimmed;
      }
    }
    return trimmed || undefined;
  }
  if (isObject(raw)) return errorMessageOf(raw) ?? JSON.stringify(raw);
  return undefined;
}

function detailMessage(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail;
  if (!Array.isArray(detail)) return undefined;
  const parts = detail.map((item) => {
    if (!isObject(item)) return String(item);
    const where = Array.isArray(item.loc) ? item.loc.join('.') : '';
    const msg = typeof item.msg === 'string' ? item.msg : JSON.stringify(item);
    return where ? `${where}: ${msg}` : msg;
  });
  return parts.join('; ') || undefined;
}

/**
 * The human message in an error body, whatever its shape:
 * `{error: "..."}` (LM Studio), `{error: {message, metadata: {raw, provider_name}}}` (OpenAI,
 * OpenRouter, llama.cpp), `{object: "error", message}` (vLLM), `{detail}` (FastAPI servers),
 * `{message}`. With OpenRouter's envelope the provider's own message (`metadata.raw`) is what the
 * user needs (e.g. Bedrock rejecting a tool name), so it is appended.
 */
export function errorMessageOf(body: unknown): string | undefined {
  if (!isObject(body)) return undefined;
  const { error } = body;
  if (typeof error === 'string' && error.trim()) return error.trim();
  if (isObject(error)) {
    const message = nonEmptyString(error.message) ?? nonEmptyString(error.msg) ?? nonEmptyString(error.type);
    const metadata = isObject(error.metadata) ? error.metadata : undefined;
    const raw = rawProviderMessage(metadata?.raw);
    const provider = nonEmptyString(metadata?.provider_name);
    if (raw && raw !== message) {
      const head = message ?? 'provider error';
      return provider ? `${head} (${provider}): ${raw}` : `${head}: ${raw}`;
    }
    return message ?? JSON.stringify(error);
  }
  if (body.object === 'error') return nonEmptyString(body.message) ?? 'error';
  return detailMessage(body.detail) ?? nonEmptyString(body.message);
}

/** True when a chunk is an error report rather than a completion chunk. */
export function isErrorChunk(body: JsonObject): boolean {
  return (body.error !== undefined && body.error !== null) || body.object === 'error';
}
