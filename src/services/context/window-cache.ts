// The windows discovered so far, per model (base URL + model id): in memory for the run, and
// remembered between runs (window-store.ts) with the time they were asked. Asking is
// deduplicated (one discovery per model at a time) and happens only when a front end asks for it,
// so start-up never waits; a remembered window younger than `maxAgeMs` is not asked again unless
// the server contradicts it. Listeners hear every change (the TUI puts it in the store).
import type { ModelConfig } from '../broker/types';
import { configuredWindow, discoverContextWindow, type ContextWindow, type DiscoveryOptions } from './window';
import { createMemoryWindowStore, windowKey, type WindowStore } from './window-store';

export type WindowListener = (model: ModelConfig, window: ContextWindow) => void;

export interface WindowCache {
  /** Known now (config, discovered, or remembered from an earlier run); undefined before the server was asked. */
  get(model: ModelConfig): ContextWindow | undefined;
  /** Asks the server (once at a time per model) unless a fresh window is known; `refresh` asks again even then. */
  discover(model: ModelConfig, options?: { refresh?: boolean; signal?: AbortSignal }): Promise<ContextWindow>;
  /** The server said its window (an overflow error): it replaces a discovered one, never the config's. */
  learn(model: ModelConfig, tokens: number): void;
  /**
   * The server counted `promptTokens` for a request: a window smaller than that (or a provisional
   * one) is wrong, and is asked again in the background.
   */
  counted(model: ModelConfig, promptTokens: number): void;
  subscribe(listener: WindowListener): () => void;
}

export interface WindowCacheOptions extends Omit<DiscoveryOptions, 'signal'> {
  /** Where windows are remembered between runs (default: nowhere). */
  store?: WindowStore;
  /** A remembered window older than this is asked again (default one day). */
  maxAgeMs?: number;
  now?: () => number;
}

export const DEFAULT_WINDOW_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export function createWindowCache(options: WindowCacheOptions, discover = discoverContextWindow): WindowCache {
  const store = options.store ?? createMemoryWindowStore();
  const maxAge = options.maxAgeMs ?? DEFAULT_WINDOW_MAX_AGE_MS;
  const now = options.now ?? Date.now;
  const discoveryOptions: Omit<DiscoveryOptions, 'signal'> = { env: options.env, ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}) };
  const known = new Map<string, ContextWindow>();
  const pending = new Map<string, Promise<ContextWindow>>();
  const listeners = new Set<WindowListener>();
  const announced = new Set<string>();
  const keyOf = (model: ModelConfig) => windowKey(model.baseUrl, model.model);
  const set = (model: ModelConfig, window: ContextWindow) => {
    known.set(keyOf(model), window);
    // Only a number the server said is worth keeping: an unknown or a guess is asked again next run.
    if (window.tokens !== undefined && !window.provisional && window.askedAt !== undefined) {
      store.write(keyOf(model), { tokens: window.tokens, source: window.source, askedAt: window.askedAt, ...(window.maximum ? { maximum: window.maximum } : {}), ...(window.server ? { server: window.server } : {}) });
    }
    for (const listener of listeners) listener(model, window);
  };
  /** In memory, else from the file (once per model and run). */
  const lookUp = (model: ModelConfig): ContextWindow | undefined => {
    const key = keyOf(model);
    const inMemory = known.get(key);
    if (inMemory) return inMemory;
    const remembered = store.read(key);
    if (!remembered) return undefined;
    const window: ContextWindow = { ...remembered, remembered: store.file };
    known.set(key, window);
    return window;
  };
  const stale = (window: ContextWindow) => window.remembered !== undefined && (window.askedAt === undefined || now() - window.askedAt > maxAge);

  const cache: WindowCache = {
    get(model) {
      return configuredWindow(model) ?? lookUp(model);
    },
    discover(model, discoverOptions = {}) {
      const configured = configuredWindow(model);
      if (configured) return Promise.resolve(configured);
      const key = keyOf(model);
      const cached = lookUp(model);
      if (cached && !discoverOptions.refresh && !stale(cached)) {
        // Read from the file: the front ends hear it like a discovered one.
        if (cached.remembered !== undefined && !announced.has(key)) {
          announced.add(key);
          for (const listener of listeners) listener(model, cached);
        }
        return Promise.resolve(cached);
      }
      const running = pending.get(key);
      if (running) return running;
      const asked = discover(model, { ...discoveryOptions, ...(discoverOptions.signal ? { signal: discoverOptions.signal } : {}) }).then((answer) => {
        pending.delete(key);
        // A window the server stated (in an error, or an earlier run) is not replaced by an unknown.
        const previous = known.get(key);
        if (answer.tokens === undefined && previous?.tokens !== undefined) return previous;
        const window: ContextWindow = answer.tokens !== undefined && answer.source !== 'contextWindow in the config' ? { ...answer, askedAt: now() } : answer;
        set(model, window);
        return window;
      });
      pending.set(key, asked);
      return asked;
    },
    learn(model, tokens) {
      if (configuredWindow(model)) return;
      const previous = lookUp(model);
      if (previous?.tokens === tokens && previous.remembered === undefined) return;
      set(model, {
        tokens,
        source: 'the server, in its error for a request that was too long',
        askedAt: now(),
        ...(previous?.maximum ? { maximum: previous.maximum } : {}),
        ...(previous?.server ? { server: previous.server } : {}),
      });
    },
    counted(model, promptTokens) {
      if (configuredWindow(model)) return;
      const window = lookUp(model);
      // Ollama and LM Studio load the model on the first request: its real window is known now.
      // A window smaller than what the server just read is not the one it runs with.
      if (window?.provisional || (window?.tokens !== undefined && promptTokens > window.tokens)) void cache.discover(model, { refresh: true });
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return cache;
}
