import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProtocolError } from '@modelcontextprotocol/client';
import { ClientTaskStore, type ClientTaskLimits } from '../../../src/services/mcp/client-tasks';

// The store behind the tasks a server asks the client to run (client-tasks.ts).

const limits: ClientTaskLimits = { maxTasks: 2, maxTtlMs: 60_000, defaultTtlMs: 10_000, pollIntervalMs: 500 };

afterEach(() => {
  vi.useRealTimers();
});

describe('ClientTaskStore', () => {
  it('creates a working task with the ttl asked for (capped) and the poll interval', () => {
    const store = new ClientTaskStore(limits);
    const { task, signal } = store.create(5_000);
    expect(task).toMatchObject({ status: 'working', ttl: 5_000, pollInterval: 500 });
    expect(task.taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(task.createdAt)).not.toBeNaN();
    expect(signal.aborted).toBe(false);
    expect(store.create(10 * 60_000).task.ttl).toBe(60_000);
  });

  it('uses the default ttl when none (or nonsense) is asked for', () => {
    const store = new ClientTaskStore(limits);
    expect(store.create(undefined).task.ttl).toBe(10_000);
    expect(store.create(-5).task.ttl).toBe(10_000);
  });

  it('completed: tasks/get shows it and tasks/result gives the result, even to a request that waited', async () => {
    const store = new ClientTaskStore(limits);
    const { task } = store.create(undefined);
    const waiting = store.result(task.taskId);
    store.finish(task.taskId, { result: { action: 'accept', content: { name: 'x' } } });
    await expect(waiting).resolves.toEqual({ action: 'accept', content: { name: 'x' } });
    expect(store.get(task.taskId).status).toBe('completed');
    await expect(store.result(task.taskId)).resolves.toEqual({ action: 'accept', content: { name: 'x' } });
  });

  it('failed: tasks/result throws the error the request would have answered', async () => {
    const store = new ClientTaskStore(limits);
    const { task } = store.create(undefined);
    store.finish(task.taskId, { error: { code: -1, message: 'the user declined' } });
    expect(store.get(task.taskId)).toMatchObject({ status: 'failed', statusMessage: 'the user declined' });
    await expect(store.result(task.taskId)).rejects.toMatchObject({ code: -1, message: expect.stringContaining('the user declined') });
  });

  it('cancel stops the work and wakes waiters; cancelling an ended task is an invalid-params error', async () => {
    const store = new ClientTaskStore(limits);
    const { task, signal } = store.create(undefined);
    const waiting = store.result(task.taskId);
    expect(store.cancel(task.taskId)).toMatchObject({ status: 'cancelled' });
    expect(signal.aborted).toBe(true);
    await expect(waiting).rejects.toBeInstanceOf(ProtocolError);
    store.finish(task.taskId, { result: {} });
    expect(store.get(task.taskId).status).toBe('cancelled');
    expect(() => store.cancel(task.taskId)).toThrow(/terminal status 'cancelled'/);
    try {
      store.cancel(task.taskId);
    } catch (error) {
      expect((error as ProtocolError).code).toBe(-32602);
    }
  });

  it('unknown ids are invalid-params errors for get, result and cancel', async () => {
    const store = new ClientTaskStore(limits);
    expect(() => store.get('nope')).toThrow(/unknown task: nope/);
    expect(() => store.cancel('nope')).toThrow(/unknown task/);
    await expect(store.result('nope')).rejects.toMatchObject({ code: -32602 });
  });

  it('a task is gone once its ttl passed; running work is stopped and a waiting result ends', async () => {
    vi.useFakeTimers();
    const store = new ClientTaskStore(limits);
    const { task, signal } = store.create(1_000);
    const waiting = store.result(task.taskId);
    const caught = waiting.catch((error: Error) => error);
    vi.advanceTimersByTime(1_000);
    expect(signal.aborted).toBe(true);
    expect(await caught).toBeInstanceOf(Error);
    expect(() => store.get(task.taskId)).toThrow(/unknown task/);
    expect(store.list()).toEqual([]);
  });

  it('is bounded: an ended task makes room, running ones do not', () => {
    const store = new ClientTaskStore(limits);
    const first = store.create(undefined).task;
    store.create(undefined);
    expect(() => store.create(undefined)).toThrow(/too many running tasks/);
    store.finish(first.taskId, { result: {} });
    store.create(undefined);
    expect(store.size).toBe(2);
    expect(() => store.get(first.taskId)).toThrow(/unknown task/);
  });

  it('lists every task; closeAll cancels the running ones and empties the store', () => {
    const store = new ClientTaskStore(limits);
    const a = store.create(undefined);
    const b = store.create(undefined);
    store.finish(b.task.taskId, { result: {} });
    expect(store.list().map((task) => task.status)).toEqual(['working', 'completed']);
    store.closeAll();
    expect(a.signal.aborted).toBe(true);
    expect(store.size).toBe(0);
  });
});
