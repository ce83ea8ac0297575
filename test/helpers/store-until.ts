import type { AppStore } from '../../src/state/store';

/**
 * Resolves with what `probe` finds in the store once it finds something (not undefined, not false),
 * checking now and after every change; rejects after `timeoutMs` with the transcript's items so a
 * failure says where the session got to.
 */
export function untilStore<T>(store: AppStore, probe: (state: ReturnType<AppStore['getState']>) => T | undefined | false, timeoutMs = 20_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const value = probe(store.getState());
      if (value === undefined || value === false) return;
      unsubscribe();
      clearTimeout(timer);
      resolve(value);
    };
    const unsubscribe = store.subscribe(check);
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error(`timed out; items: ${JSON.stringify(store.getState().items.map((item) => [item.kind, 'text' in item ? item.text : '']))}`));
    }, timeoutMs);
    check();
  });
}
