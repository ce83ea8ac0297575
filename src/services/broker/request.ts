import { VERSION } from '../../version';
import type { BrokerRequest, ModelConfig } from './types';

/** `<baseUrl>/chat/completions`, whether or not the base URL ends in a slash; a query (Azure's `api-version`) is kept. */
export function chatCompletionsUrl(baseUrl: string): string {
  if (!URL.canParse(baseUrl)) return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  url.username = '';
  url.password = '';
  return url.toString();
}

/**
 * Credentials in the base URL (`http://user:pass@proxy/v1`, for a proxy with basic auth) cannot go
 * into a fetch URL; they become a Basic Authorization header unless a key is configured.
 */
export function basicAuthOf(baseUrl: string): string | undefined {
  if (!URL.canParse(baseUrl)) return undefined;
  const url = new URL(baseUrl);
  if (!url.username && !url.password) return undefined;
  const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
  return `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`;
}

/** Secrets a base URL can carry: its password and query values (some providers take `?key=`). */
function urlSecrets(baseUrl: string): string[] {
  if (!URL.canParse(baseUrl)) return [];
  const url = new URL(baseUrl);
  const secrets = [url.password, decodeURIComponent(url.password), ...url.searchParams.values()];
  const basic = basicAuthOf(baseUrl);
  if (basic) secrets.push(basic.slice('Basic '.length));
  return secrets.filter((value) => value.length >= 6);
}

export type KeyResolution = { key: string | undefined; problem?: undefined } | { key?: undefined; problem: string };

/** The API key: `apiKey`, else the variable named by `keyEnv`. A named but unset variable is a problem, not a silent anonymous request. */
export function resolveApiKey(model: ModelConfig, env: NodeJS.ProcessEnv): KeyResolution {
  if (model.apiKey) return { key: model.apiKey };
  if (!model.keyEnv) return { key: undefined };
  const value = env[model.keyEnv]?.trim();
  if (!value) return { problem: `model "${model.name}" takes its API key from $${model.keyEnv}, which is not set` };
  return { key: value };
}

const SECRET_HEADER = /auth|key|token|secret|cookie|session/i;

/** Every value that must never appear in a message: the key and secret-looking extra headers. */
export function secretsOf(model: ModelConfig, key: string | undefined): string[] {
  const secrets = key ? [key] : [];
  secrets.push(...urlSecrets(model.baseUrl));
  for (const [name, value] of Object.entries(model.headers ?? {})) {
    if (!SECRET_HEADER.test(name)) continue;
    secrets.push(value);
    // `Bearer <token>`: the token alone may be echoed too.
    const token = /^\s*\S+\s+(\S{6,})\s*$/.exec(value)?.[1];
    if (token) secrets.push(token);
  }
  return secrets;
}

export function buildHeaders(model: ModelConfig, key: string | undefined): Record<string, string> {
  const basic = basicAuthOf(model.baseUrl);
  return {
    'content-type': 'application/json',
    accept: 'text/event-stream, application/json',
    'user-agent': `aish-tui/${VERSION}`,
    ...(key ? { authorization: `Bearer ${key}` } : basic ? { authorization: basic } : {}),
    // Configured headers come last so a user can override any of the above.
    ...model.headers,
  };
}

/** Never taken from `params`, even if a config bypassed the schema. */
const RESERVED_BODY_KEYS = { model: 1, messages: 1, stream: 1, stream_options: 1, tools: 1 } as const;

/** The answer's `max_tokens` as it will be sent: `params.max_tokens`, else `maxTokens`. */
export function maxTokensOf(model: Pick<ModelConfig, 'maxTokens' | 'params'>): number | undefined {
  const fromParams = model.params?.max_tokens;
  return typeof fromParams === 'number' ? fromParams : model.maxTokens;
}

export interface BodyOptions {
  /** Ask for a usage chunk at the end of the stream (`stream_options.include_usage`). */
  includeUsage: boolean;
}

/** The chat-completions request body. `tools` only when non-empty: some servers reject `"tools": []`. */
export function buildBody(request: BrokerRequest, options: BodyOptions): Record<string, unknown> {
  const { model } = request;
  const body: Record<string, unknown> = {
    model: model.model,
    messages: request.messages,
    stream: true,
  };
  if (options.includeUsage) body.stream_options = { include_usage: true };
  if (model.temperature !== undefined) body.temperature = model.temperature;
  if (model.maxTokens !== undefined) body.max_tokens = model.maxTokens;
  if (request.tools && request.tools.length > 0) body.tools = request.tools;
  if (request.stop && request.stop.length > 0) body.stop = request.stop;
  // Pass-through parameters as configured; the schema keeps them off the keys written above
  // (RESERVED_PARAMS), and they win over the `temperature` / `maxTokens` shorthands.
  for (const [key, value] of Object.entries(model.params ?? {})) {
    if (Object.hasOwn(RESERVED_BODY_KEYS, key) || key === '__proto__') continue;
    body[key] = value;
  }
  return body;
}

/**
 * Servers that validate strictly (pydantic `extra=forbid`, older Azure API versions) answer
 * `stream_options` with a 400/422 that names the field. We then send the request again without it
 * and remember that for the rest of the session.
 */
export function rejectsStreamOptions(status: number, body: string): boolean {
  return (status === 400 || status === 422) && /stream_options/i.test(body);
}

const noStreamOptions = new Set<string>();

function streamOptionsKey(model: ModelConfig): string {
  return `${model.baseUrl}\u0000${model.model}`;
}

/** Whether to ask for usage in the stream: per model config (`streamUsage`), else unless the server refused it. */
export function wantsStreamUsage(model: ModelConfig): boolean {
  if (model.streamUsage !== undefined) return model.streamUsage;
  return !noStreamOptions.has(streamOptionsKey(model));
}

export function rememberNoStreamOptions(model: ModelConfig): void {
  noStreamOptions.add(streamOptionsKey(model));
}
