import type { ModelConfig } from '../services/broker/types';

/**
 * The model's context window in tokens, or undefined while it is unknown. Today it is the model's
 * `contextWindow` config key; this is the one place where a window learned from the server is to
 * be plugged in, and every budget that depends on the window (tool search in `auto` mode) asks here.
 */
export function contextWindowFor(model: Pick<ModelConfig, 'contextWindow'>): number | undefined {
  return model.contextWindow;
}
