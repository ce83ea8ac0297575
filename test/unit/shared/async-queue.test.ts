import { describe, expect, it } from 'vitest';
import { createAsyncQueue, drainUntil } from '../../../src/services/shared/async-queue';

async function collect<T, R>(generator: AsyncGenerator<T, R, undefined>): Promise<{ items: T[]; value: R }> {
  const items: T[] = [];
  for (;;) {
    const next = await generator.next();
    if (next.done) return { items, value: next.value };
    items.push(next.value);
  }
}

describe('the one callback-to-async-iterable queue', () => {
  it('yields what callbacks push, in order, including what was pushed before iteration began', async () => {
    const queue = createAsyncQueue<number>();
    queue.push(1);
    setTimeout(() => {
      queue.push(2);
      queue.push(3);
      setTimeout(() => queue.close(), 0);
    }, 0);
    const seen: number[] = [];
    for await (const value of queue) seen.push(value);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('ends after the values queued before close, and ignores pushes after it', async () => {
    const queue = createAsyncQueue<string>();
    queue.push('a');
    queue.close();
    queue.push('late');
    const seen: string[] = [];
    for await (const value of queue) seen.push(value);
    expect(seen).toEqual(['a']);
  });

  it('drainUntil yields pushes while the work runs, then returns its value', async () => {
    const queue = createAsyncQueue<string>();
    const work = new Promise<number>((resolve) => {
      setTimeout(() => queue.push('first'), 0);
      setTimeout(() => {
        queue.push('second');
        resolve(42);
      }, 5);
    });
    expect(await collect(drainUntil(queue, work))).toEqual({ items: ['first', 'second'], value: 42 });
  });

  it('drainUntil yields what was pushed before the work failed, then throws its error', async () => {
    const queue = createAsyncQueue<string>();
    const work = new Promise<number>((_resolve, reject) => {
      setTimeout(() => {
        queue.push('retrying');
        reject(new Error('gave up'));
      }, 0);
    });
    const generator = drainUntil(queue, work);
    expect(await generator.next()).toEqual({ done: false, value: 'retrying' });
    await expect(generator.next()).rejects.toThrow('gave up');
  });
});
