// `--base-url` without `--model`: the model id comes from the server's own model list, before the
// first request, so what is sent (and shown in the status bar and `:model`) is a model the server
// has, never a made-up name.
import { listServerModels, ModelListError } from '../services/broker/models';
import { ConfigError } from '../services/config/errors';
import { adHocModelName, MODEL_ID_FROM_SERVER, type AppConfig } from '../services/config/load';

/** A model list is small; a server that takes longer than this is not going to answer a chat either. */
const MODEL_LIST_TIMEOUT_MS = 30_000;
const LISTED_IDS = 5;

/**
 * Learns the id of the `--base-url` model when `--model` did not give it: the server's only
 * model, or its first (with a note naming the others). The model is renamed after its id.
 * Throws ConfigError (exit 2) when the server lists no model or a key variable is unset, and
 * ModelListError (exit 1) when the server cannot be asked or answers with an error.
 */
export async function resolveAdHocModel(config: AppConfig, env: NodeJS.ProcessEnv, note: (line: string) => void, signal?: AbortSignal): Promise<void> {
  const model = config.models[config.defaultModel];
  if (!model || model.model !== MODEL_ID_FROM_SERVER) return;
  let ids: string[];
  try {
    ids = await listServerModels(model, { env, timeoutMs: Math.min(config.broker.firstByteTimeoutMs, MODEL_LIST_TIMEOUT_MS), ...(signal ? { signal } : {}) });
  } catch (error) {
    if (error instanceof ModelListError && (error.kind === 'no-models' || error.kind === 'config')) throw new ConfigError([`--base-url without --model: ${error.message}`]);
    if (error instanceof ModelListError) throw new ModelListError(`--base-url without --model: ${error.message}`, error.kind);
    throw error;
  }
  const id = ids[0]!;
  delete config.models[config.defaultModel];
  const name = adHocModelName(config.models, id);
  config.models[name] = { ...model, name, model: id };
  config.defaultModel = name;
  if (ids.length > 1) {
    const others = ids.slice(1, LISTED_IDS).map((other) => JSON.stringify(other)).join(', ') + (ids.length > LISTED_IDS ? ', …' : '');
    note(`--base-url without --model: the server lists ${ids.length} models; using the first, ${JSON.stringify(id)} (others: ${others}; pass --model <id> to choose)`);
  }
}
