/**
 * A one-consumer queue that turns callbacks (process output, tool progress) into an async
 * iterable, so generators can `yield*` them in order. Unbounded: producers here are bounded by
 * their own caps (output bytes, progress notifications of one call).
 */
export interface Channel<T> extends AsyncIterable<T> {
  push(value: T): void;
  close(): void;
}

export function createChannel<T>(): Channel<T> {
  const queue: T[] = [];
  let closed = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  return {
    push(value) {
      if (closed) return;
      queue.push(value);
      notify();
    },
    close() {
      closed = true;
      notify();
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (queue.length > 0) {
          yield queue.shift() as T;
          continue;
        }
        if (closed) return;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
    },
  };
}
