// The windows discovered so far, per model (base URL + model id), in memory for the run. Asking is
// deduplicated (one discovery per model at a time) and happens only when a front end asks for it,
// so start-up never waits; listeners hear every change (the TUI puts it in the store).
import type { ModelConfig } from '../broker/types';
import { configuredWindow, discoverContextWindow, type ContextWindow, type DiscoveryOptions } from './window';

export type WindowListener = (model: ModelConfig, window: ContextWindow) => void;

export interface WindowCache {
  /** Known now (config, or discovered); undefined before the server was asked. */
  get(model: ModelConfig): ContextWindow | undefined;
  /** Asks the server (once at a time per model); `refresh` asks again even when known. */
  discover(model: ModelConfig, options?: { refresh?: boolean; signal?: AbortSignal }): Promise<ContextWindow>;
  /** The server said its window (an overflow error): it replaces a discovered one, never the config's. */
  learn(model: ModelConfig, tokens: number): void;
  subscribe(listener: WindowListener): () => void;
}

const keyOf = (model: ModelConfig) => `${model.baseUrl}\u0000${model.model}`;

export function createWindowCache(options: Omit<DiscoveryOptions, 'signal'>, discover = discoverContextWindow): WindowCache {
  const known = new Map<string, ContextWindow>();
  const pending = new Map<string, Promise<ContextWindow>>();
  const listeners = new Set<WindowListener>();
  const set = (model: ModelConfig, window: ContextWindow) => {
    known.set(keyOf(model), window);
    for (const listener of listeners) listener(model, window);
  };
  return {
    get(model) {
      return configuredWindow(model) ?? known.get(keyOf(model));
    },
    discover(model, discoverOptions = {}) {
      const configured = configuredWindow(model);
      if (configured) return Promise.resolve(configured);
      const key = keyOf(model);
      const cached = known.get(key);
      if (cached && !discoverOptions.refresh) return Promise.resolve(cached);
      const running = pending.get(key);
      if (running) return running;
      const asked = discover(model, { ...options, ...(discoverOptions.signal ? { signal: discoverOptions.signal } : {}) }).then((window) => {
        pending.delete(key);
        // A window the server stated in an error is not replaced by an unknown.
        const previous = known.get(key);
        if (window.tokens === undefined && previous?.tokens !== undefined) return previous;
        set(model, window);
        return window;
      });
      pending.set(key, asked);
      return asked;
    },
    learn(model, tokens) {
      if (configuredWindow(model)) return;
      const previous = known.get(keyOf(model));
      if (previous?.tokens === tokens) return;
      set(model, { tokens, source: 'the server, in its error for a request that was too long', ...(previous?.maximum ? { maximum: previous.maximum } : {}) });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
