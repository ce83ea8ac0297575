// How large the current model's context window is, asked of the server itself. Each kind of
// server says it its own way, and the number that matters is the one the model is *running* with,
// which is often far below what it was trained for:
//
// - llama.cpp: `GET /props` → `default_generation_settings.n_ctx` (per slot); `/v1/models`
//   `meta.n_ctx_train` is the trained maximum, never used as the window
// - Ollama: `GET /api/ps` → `context_length` of the loaded model (the running num_ctx); before it is
//   loaded, `POST /api/show` → a `num_ctx` parameter of the model, else Ollama's default (4096,
//   said as provisional and asked again after the first answer), with `<arch>.context_length`
//   as the maximum
// - LM Studio: `GET /api/v0/models/<id>` → `loaded_context_length` (`max_context_length` is the maximum)
// - vLLM: `GET /v1/models` → `max_model_len`
// - OpenRouter and others: `GET /v1/models` → `context_length`
// - hosted models the server says nothing about: known-models.ts
//
// `contextWindow` in the model's config overrides all of it and asks nothing. The servers' own
// endpoints are asked together first, the model list only when none of them answered. Every request
// goes to the base URL's own origin (the key is never sent elsewhere; redirects are refused), all
// under one timeout; any failure leaves the window unknown, with the reason.
import { httpText } from '../broker/http-text';
import { buildHeaders, resolveApiKey } from '../broker/request';
import type { ModelConfig } from '../broker/types';
import { isObject, type JsonObject } from '../broker/wire';
import { knownModelWindow } from './known-models';

export interface ContextWindow {
  /** Tokens the model runs with; undefined: unknown (`source` says why). */
  tokens?: number;
  /** Where the number came from, in words for `:model` and `:context`. */
  source: string;
  /** A larger window the model could be run with (trained or configured maximum), when known. */
  maximum?: number;
  /**
   * The number may change once the model is loaded (Ollama's default before the first request):
   * asked again after the next answer.
   */
  provisional?: boolean;
  /** The kind of server that said it, when its own endpoint did (llama.cpp also counts with `/tokenize`). */
  server?: 'llama.cpp' | 'ollama' | 'lmstudio' | 'vllm';
  /** When the server was asked (ms since the epoch); undefined for the config's and the table's. */
  askedAt?: number;
  /** Read from the file of remembered windows (window-store.ts) rather than asked this run. */
  remembered?: string;
}

export const OLLAMA_DEFAULT_WINDOW = 4096;
export const DEFAULT_DISCOVERY_TIMEOUT_MS = 4000;
const PROBE_BYTES = 4 * 1024 * 1024;

export interface DiscoveryOptions {
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The window from the model's config, or undefined when the server must be asked. */
export function configuredWindow(model: Pick<ModelConfig, 'contextWindow'>): ContextWindow | undefined {
  return model.contextWindow !== undefined ? { tokens: model.contextWindow, source: 'contextWindow in the config' } : undefined;
}

/** `http://host:8080/v1` → `http://host:8080` (the server's own API lives beside the OpenAI one). */
export function serverRoot(baseUrl: string): URL {
  const url = new URL(baseUrl);
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '') || '/';
  return url;
}

function sameOrigin(url: URL, baseUrl: string): boolean {
  return url.origin === new URL(baseUrl).origin;
}

const positive = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);

type Fetched = JsonObject | undefined;

/** GET/POST one JSON document from the model's server, or undefined on any failure. */
async function fetchJson(model: ModelConfig, url: URL, key: string | undefined, signal: AbortSignal, body?: unknown): Promise<Fetched> {
  // The key goes only to the origin it was configured for.
  if (!sameOrigin(url, model.baseUrl)) return undefined;
  try {
    const headers = { ...buildHeaders(model, key), accept: 'application/json' };
    const { ok, text } = await httpText(url.href, {
      method: body === undefined ? 'GET' : 'POST',
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal,
      maxBytes: PROBE_BYTES,
      redirect: 'error',
    });
    if (!ok) return undefined;
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function withPath(root: URL, suffix: string): URL {
  const url = new URL(root);
  url.pathname = `${root.pathname.replace(/\/+$/, '')}${suffix}`;
  return url;
}

/** Ollama names carry a tag (`llama3.2:latest`); the config may leave it out. */
function sameModel(name: unknown, id: string): boolean {
  if (typeof name !== 'string') return false;
  const strip = (value: string) => value.replace(/:latest$/, '');
  return name === id || strip(name) === strip(id);
}

/** The `/models` entry for the model id (or the only one). */
export function modelEntry(list: Fetched, id: string): JsonObject | undefined {
  const data = Array.isArray(list?.data) ? list.data : Array.isArray(list?.models) ? list.models : undefined;
  if (!data) return undefined;
  const entries = data.filter(isObject);
  return entries.find((entry) => sameModel(entry.id ?? entry.model ?? entry.name, id)) ?? (entries.length === 1 ? entries[0] : undefined);
}

/** What each server kind answered, read into one window (pure: tested with each server's real shapes). */
export interface ProbeAnswers {
  models?: Fetched;
  props?: Fetched;
  ollamaPs?: Fetched;
  ollamaShow?: Fetched;
  lmStudio?: Fetched;
}

export function windowFromAnswers(answers: ProbeAnswers, modelId: string): ContextWindow {
  const entry = modelEntry(answers.models, modelId);
  const meta = isObject(entry?.meta) ? entry.meta : undefined;
  const trained = positive(meta?.n_ctx_train);

  // llama.cpp: the slot's running size.
  const settings = isObject(answers.props?.default_generation_settings) ? answers.props.default_generation_settings : undefined;
  const slotCtx = positive(settings?.n_ctx) ?? positive(answers.props?.n_ctx);
  if (slotCtx !== undefined) return { tokens: slotCtx, source: 'llama.cpp /props (n_ctx of a slot)', server: 'llama.cpp', ...(trained ? { maximum: trained } : {}) };

  // Ollama: the loaded model's num_ctx, else what it will load with.
  const info = isObject(answers.ollamaShow?.model_info) ? answers.ollamaShow.model_info : undefined;
  const arch = typeof info?.['general.architecture'] === 'string' ? info['general.architecture'] : undefined;
  const ollamaMax = arch ? positive(info?.[`${arch}.context_length`]) : undefined;
  const running = Array.isArray(answers.ollamaPs?.models) ? answers.ollamaPs.models.filter(isObject).find((model) => sameModel(model.name ?? model.model, modelId)) : undefined;
  const loaded = positive(running?.context_length);
  if (loaded !== undefined) return { tokens: loaded, source: 'Ollama /api/ps (num_ctx of the loaded model)', server: 'ollama', ...(ollamaMax ? { maximum: ollamaMax } : {}) };
  if (answers.ollamaShow) {
    const parameters = typeof answers.ollamaShow.parameters === 'string' ? answers.ollamaShow.parameters : '';
    const numCtx = Number(/(?:^|\n)\s*num_ctx\s+(\d+)/.exec(parameters)?.[1]);
    if (numCtx > 0) return { tokens: numCtx, source: "Ollama /api/show (the model's num_ctx)", server: 'ollama', ...(ollamaMax ? { maximum: ollamaMax } : {}) };
    return {
      tokens: OLLAMA_DEFAULT_WINDOW,
      source: "Ollama's default num_ctx (the model is not loaded yet; asked again after the first answer)",
      provisional: true,
      server: 'ollama',
      ...(ollamaMax ? { maximum: ollamaMax } : {}),
    };
  }

  // LM Studio: the loaded context length.
  const lm = answers.lmStudio;
  const lmMax = positive(lm?.max_context_length);
  const lmLoaded = positive(lm?.loaded_context_length);
  if (lmLoaded !== undefined) return { tokens: lmLoaded, source: 'LM Studio /api/v0/models (loaded context length)', server: 'lmstudio', ...(lmMax ? { maximum: lmMax } : {}) };
  if (lm && lmMax !== undefined) return { source: 'unknown: LM Studio has not loaded the model yet (asked again after the first answer)', maximum: lmMax, provisional: true, server: 'lmstudio' };

  // vLLM, OpenRouter and other servers that list the window with the model.
  const maxModelLen = positive(entry?.max_model_len);
  if (maxModelLen !== undefined) return { tokens: maxModelLen, source: 'vLLM /v1/models (max_model_len)', server: 'vllm' };
  const listed = positive(entry?.context_length) ?? positive(entry?.context_window);
  if (listed !== undefined) return { tokens: listed, source: '/v1/models (context_length)' };

  const known = knownModelWindow(modelId);
  if (known !== undefined) return { tokens: known, source: 'the documented window of this model (the server does not report one)' };
  return {
    source: "unknown: the server does not report it (set contextWindow in the model's config)",
    ...(trained ? { maximum: trained } : {}),
  };
}

const HOSTED = /(^|\.)(openai\.com|anthropic\.com|openrouter\.ai|googleapis\.com|mistral\.ai|deepseek\.com|groq\.com|together\.xyz|fireworks\.ai|azure\.com)$/i;

/**
 * Asks the model's server for its window. Never throws: a server that cannot be reached, answers
 * nothing useful or takes longer than the timeout leaves the window unknown, saying why.
 */
export async function discoverContextWindow(model: ModelConfig, options: DiscoveryOptions): Promise<ContextWindow> {
  const configured = configuredWindow(model);
  if (configured) return configured;
  if (!model.model) return { source: 'unknown: the model id is not known yet' };
  const key = resolveApiKey(model, options.env);
  if (key.problem !== undefined) return { source: `unknown: ${key.problem}` };
  let root: URL;
  try {
    root = serverRoot(model.baseUrl);
  } catch {
    return { source: 'unknown: the base URL cannot be parsed' };
  }
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_DISCOVERY_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const get = (url: URL, body?: unknown) => fetchJson(model, url, key.key, signal, body);
  const modelsUrl = withPath(new URL(model.baseUrl), '/models');
  modelsUrl.username = '';
  modelsUrl.password = '';
  // A local server is asked each kind's own endpoint first; only when none of them answers (vLLM,
  // OpenRouter, hosted APIs) is the model list read. Hosted APIs get only the model list.
  const hosted = HOSTED.test(root.hostname);
  const [props, ollamaPs, ollamaShow, lmStudio] = hosted
    ? []
    : await Promise.all([
        get(withPath(root, '/props')),
        get(withPath(root, '/api/ps')),
        get(withPath(root, '/api/show'), { model: model.model }),
        get(withPath(root, `/api/v0/models/${encodeURIComponent(model.model)}`)),
      ]);
  const local = windowFromAnswers({ props, ollamaPs, ollamaShow, lmStudio }, model.model);
  if (props || ollamaShow || lmStudio || (ollamaPs && local.tokens !== undefined)) return local;
  const models = timeout.aborted ? undefined : await get(modelsUrl);
  if (options.signal?.aborted) return { source: 'unknown: not asked (cancelled)' };
  const answers: ProbeAnswers = { models, props, ollamaPs, ollamaShow, lmStudio };
  const window = windowFromAnswers(answers, model.model);
  if (window.tokens === undefined && !models && !props && !ollamaPs && !ollamaShow && !lmStudio) {
    return { ...window, source: timeout.aborted ? 'unknown: the server did not answer in time' : 'unknown: the server could not be asked' };
  }
  return window;
}
