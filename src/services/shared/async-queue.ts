/**
 * The one bridge from callbacks to async iteration: values pushed by callbacks (process output,
 * tool progress, the HTTP client's retry hook) come out of a `for await` in order, so a generator
 * can `yield*` them while the work that produces them runs. One consumer. Unbounded: every
 * producer here is bounded by its own caps (output bytes, progress notifications of one call,
 * retries of one request).
 */
export interface AsyncQueue<T> extends AsyncIterable<T> {
  /** Queues a value; ignored once the queue is closed. */
  push(value: T): void;
  /** Ends the iteration once the values queued so far are taken. */
  close(): void;
}

export function createAsyncQueue<T>(): AsyncQueue<T> {
  const items: T[] = [];
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
      items.push(value);
      notify();
    },
    close() {
      closed = true;
      notify();
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (items.length > 0) {
          yield items.shift() as T;
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

/**
 * Yields what is pushed into `queue` while `work` runs, then returns the work's value (or throws
 * its error). The work's end closes the queue, so nothing pushed before it is lost.
 */
export async function* drainUntil<T, R>(queue: AsyncQueue<T>, work: Promise<R>): AsyncGenerator<T, R, undefined> {
  const settled = work.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  void settled.then(() => queue.close());
  yield* queue;
  const result = await settled;
  if (!result.ok) throw result.error;
  return result.value;
}
