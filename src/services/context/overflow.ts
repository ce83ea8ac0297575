// Recognises a server's "the request does not fit the context window" rejection, whatever its
// shape, so the conversation can compact and retry instead of leaving the user stuck on an HTTP 400:
//
// - llama.cpp: `{"error":{"code":400,"type":"exceed_context_size_error","n_prompt_tokens":N,"n_ctx":M,
//   "message":"request (N tokens) exceeds the available context size (M tokens), …"}}`
// - OpenAI: `{"error":{"code":"context_length_exceeded","message":"This model's maximum context length
//   is M tokens. However, your messages resulted in N tokens…"}}`
// - vLLM: the same sentence ("… However, you requested N tokens (… in the messages, … in the
//   completion)"), as `{"object":"error",…}` or `{"error":{…}}`
// - LM Studio: `{"error":"Trying to keep the first N tokens when context the overflows. However, the
//   model is loaded with context length of only M tokens…"}` or "Cannot truncate prompt with
//   n_keep (N) >= n_ctx (M)", sometimes inside a 200 stream
// - OpenRouter: "This endpoint's maximum context length is M tokens. However, you requested about N
//   tokens…", or the provider's own message inside `error.metadata.raw`
import { errorMessageOf } from '../broker/wire';

export interface ContextOverflow {
  /** The window the server says it has, when it said. */
  window?: number;
  /** The prompt size the server counted, when it said. */
  promptTokens?: number;
}

const number = (text: string | undefined): number | undefined => {
  if (text === undefined) return undefined;
  const value = Number(text.replace(/,/g, ''));
  return Number.isFinite(value) && value > 0 ? value : undefined;
};

const PATTERNS: ReadonlyArray<{ test: RegExp; window?: RegExp; prompt?: RegExp }> = [
  { test: /exceed_context_size_error|exceeds the available context size/i, window: /context size \((\d+) tokens\)/i, prompt: /request \((\d+) tokens\)/i },
  { test: /context_length_exceeded|maximum context length is/i, window: /maximum context length is ([\d,]+)/i, prompt: /(?:resulted in|requested(?: about)?) ([\d,]+) tokens/i },
  { test: /when context the overflows|context length of only/i, window: /context length of only (\d+)/i, prompt: /keep the first (\d+) tokens/i },
  { test: /cannot truncate prompt with n_keep/i, window: /n_ctx \((\d+)\)/i, prompt: /n_keep \((\d+)\)/i },
  { test: /input (?:length|prompt).{0,40}exceeds? (?:the )?(?:context length|limit)|prompt is too long|too many tokens/i, window: /(?:context length|limit)(?: of)? (\d+)/i, prompt: /\((\d+) tokens\)|length (\d+)/i },
];

/** An overflow in a message text (an error line, a streamed error), or undefined. */
export function overflowInText(text: string): ContextOverflow | undefined {
  for (const pattern of PATTERNS) {
    if (!pattern.test.test(text)) continue;
    const window = number(pattern.window?.exec(text)?.[1]);
    const promptMatch = pattern.prompt?.exec(text);
    const promptTokens = number(promptMatch?.[1] ?? promptMatch?.[2]);
    return { ...(window !== undefined ? { window } : {}), ...(promptTokens !== undefined ? { promptTokens } : {}) };
  }
  return undefined;
}

/** An overflow in an HTTP error body (the structured llama.cpp fields first, then the message). */
export function overflowInBody(status: number, body: string): ContextOverflow | undefined {
  if (status !== 400 && status !== 413 && status !== 422 && status !== 200 && status !== 500) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return overflowInText(body);
  }
  const error = (parsed as { error?: unknown })?.error;
  if (error && typeof error === 'object') {
    const fields = error as Record<string, unknown>;
    if (fields.type === 'exceed_context_size_error' || fields.code === 'context_length_exceeded') {
      const fromText = overflowInText(String(fields.message ?? '')) ?? {};
      const window = typeof fields.n_ctx === 'number' ? fields.n_ctx : fromText.window;
      const promptTokens = typeof fields.n_prompt_tokens === 'number' ? fields.n_prompt_tokens : fromText.promptTokens;
      return { ...(window !== undefined ? { window } : {}), ...(promptTokens !== undefined ? { promptTokens } : {}) };
    }
  }
  const message = errorMessageOf(parsed);
  return message === undefined ? undefined : overflowInText(message);
}
