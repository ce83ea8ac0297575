import type { ModelConfig } from './types';

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
