import type { AppStore } from '../state/store';

const HINT_MS = 3000;
const timers = new WeakMap<AppStore, NodeJS.Timeout>();

/** Shows a one-line hint in the status bar for a few seconds. */
export function flashHint(store: AppStore, hint: string, ms = HINT_MS): void {
  store.getState().setHint(hint);
  clearTimeout(timers.get(store));
  timers.set(
    store,
    setTimeout(() => {
      if (store.getState().hint === hint) store.getState().setHint(undefined);
    }, ms),
  );
}
