import { httpText } from './http-text';
import { formatDuration } from '../shared/duration';
import { redact } from '../shared/redact';
import { credentialSource, httpErrorMessage, networkReason, oneLine } from './errors';
import { buildHeaders, resolveApiKey, secretsOf } from './request';
import type { ModelConfig } from './types';
import { isObject, nonEmptyString } from './wire';

/** One row of `:model`: what a user needs to choose a model, never the key itself. */
export interface ModelRow {
  name: string;
  modelId: string;
  baseUrl: string;
  /** A key is configured (`apiKey`) or its variable (`keyEnv`) is set and not empty. */
  keySet: boolean;
  /** The variable the key comes from, to say where to set it. */
  keyEnv?: string;
  current: boolean;
}

export function describeModels(models: Record<string, ModelConfig>, currentName: string, env: NodeJS.ProcessEnv = process.env): ModelRow[] {
  return Object.entries(models).map(([name, model]) => {
    const row: ModelRow = {
      name,
      modelId: model.model,
      baseUrl: model.baseUrl,
      keySet: Boolean(model.apiKey) || Boolean(model.keyEnv && env[model.keyEnv]?.trim()),
      current: name === currentName,
    };
    if (model.keyEnv) row.keyEnv = model.keyEnv;
    return row;
  });
}

/** `<baseUrl>/models`, whether or not the base URL ends in a slash; credentials leave the URL (they go in a header), a query stays. */
export function modelsUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/models`;
  url.username = '';
  url.password = '';
  return url.toString();
}

/** A URL as shown to the user: no credentials, no query (some providers put keys there). */
function displayBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.host}${url.pathname}`.replace(/\/+$/, '');
}

function shownModelsUrl(baseUrl: string): string {
  return displayBaseUrl(modelsUrl(baseUrl));
}

/**
 * The model ids in a `/models` answer, in the server's order: OpenAI's `{"data": [{"id"}]}`
 * (OpenAI, vLLM, Ollama, LM Studio, llama-server), else llama-server's and Ollama's own
 * `{"models": [{"id" | "model" | "name"}]}`. Undefined when the answer is neither.
 */
export function modelIdsOf(body: unknown): string[] | undefined {
  if (!isObject(body)) return undefined;
  const list = Array.isArray(body.data) ? body.data : Array.isArray(body.models) ? body.models : undefined;
  if (!list) return undefined;
  const ids: string[] = [];
  for (const entry of list) {
    const id = isObject(entry) ? (nonEmptyString(entry.id) ?? nonEmptyString(entry.model) ?? nonEmptyString(entry.name)) : nonEmptyString(entry);
    if (id !== undefined && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** Why the model ids could not be learnt: the server could not be asked, or its answer names no model. */
export class ModelListError extends Error {
  constructor(
    message: string,
    /** `config`: the model's key variable is not set, so the server could not be asked as configured. */
    readonly kind: 'unreachable' | 'http' | 'no-models' | 'config',
  ) {
    super(message);
    this.name = 'ModelListError';
  }
}

export interface ModelListOptions {
  env: NodeJS.ProcessEnv;
  /** How long to wait for the whole answer (a model list is small and quick). */
  timeoutMs: number;
  signal?: AbortSignal;
}

const MODEL_LIST_BYTES = 4 * 1024 * 1024;
const PASS_MODEL = 'pass --model <id> to name the model';

/**
 * Asks the server which models it serves (`GET <baseUrl>/models`, with the model's key and
 * headers) and returns their ids, at least one. Throws ModelListError with a message that says
 * what the server said or why it could not be asked, and what to pass instead. No secret of the
 * model reaches the message.
 */
export async function listServerModels(model: ModelConfig, options: ModelListOptions): Promise<string[]> {
  const shown = shownModelsUrl(model.baseUrl);
  const key = resolveApiKey(model, options.env);
  if (key.problem !== undefined) throw new ModelListError(`${key.problem}; it is needed to ask ${shown} for the model id`, 'config');
  const secrets = secretsOf(model, key.key);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const fail = (text: string, kind: ModelListError['kind']) => new ModelListError(redact(`cannot learn the model id from ${shown}: ${text}; ${PASS_MODEL}`, secrets), kind);

  let status: number;
  let text: string;
  try {
    const headers = { ...buildHeaders(model, key.key), accept: 'application/json' };
    ({ status, text } = await httpText(modelsUrl(model.baseUrl), { method: 'GET', headers, signal, maxBytes: MODEL_LIST_BYTES }));
  } catch (error) {
    if (timeout.aborted) throw fail(`no answer within ${formatDuration(options.timeoutMs, 'rounded')}`, 'unreachable');
    throw fail(networkReason(error), 'unreachable');
  }
  if (status < 200 || status >= 300) {
    throw fail(httpErrorMessage(status, text, { keySource: credentialSource(model), url: displayBaseUrl(model.baseUrl) }), 'http');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const ids = modelIdsOf(body);
  if (!ids) throw fail(`the answer is not a model list: ${oneLine(text, 120) || '(empty body)'}`, 'no-models');
  if (ids.length === 0) throw fail('the server lists no models', 'no-models');
  return ids;
}
