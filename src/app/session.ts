import type { AppConfig } from '../services/config/load';
import type { AppStore } from '../state/store';
import type { AppController } from './controller';

export interface SessionOptions {
  config: AppConfig;
  store: AppStore;
  quit: () => void;
}

/** Connects what the user types to the services and the store. */
export function createSession({ config, store, quit }: SessionOptions): AppController {
  store.getState().setModelName(config.defaultModel);
  return {
    submit(text) {
      const trimmed = text.trim();
      if (trimmed === ':quit' || trimmed === ':q') {
        quit();
        return;
      }
      store.getState().addStatus('warn', `not sent: model requests are not available in this build (${trimmed.slice(0, 40)})`);
    },
    cancel() {
      return false;
    },
    quit,
  };
}
