import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskResults } from '../../../src/runtime/task-results';
import type { McpEvent } from '../../../src/services/mcp/types';
import { EVERYTHING, ROOT, testManager, until, type TestManager } from '../../helpers/mcp';

// Cancelling MCP tasks against the real server-everything (its task-only `simulate-research-query`),
// with every line the client sends recorded on the way in: Esc and `:tasks cancel` must really
// send `tasks/cancel` for that task, and a cancelled background task reaches the model as such.

const WRAPPER = path.join(ROOT, 'test', 'helpers', 'recording-stdio-wrapper.mjs');
const log = path.join(mkdtempSync(path.join(os.tmpdir(), 'aish-task-cancel-')), 'sent.jsonl');
const cancelsSent = (taskId: string) =>
  (existsSync(log) ? readFileSync(log, 'utf8') : '')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { method?: string; params?: { taskId?: string } })
    .filter((message) => message.method === 'tasks/cancel' && message.params?.taskId === taskId);

describe('cancelling tasks (server-everything, requests recorded)', () => {
  let test: TestManager;
  const sent: string[] = [];
  let results: ReturnType<typeof createTaskResults>;

  beforeAll(async () => {
    test = testManager();
    const snapshot = await test.manager.connect('everything', { command: process.execPath, args: [WRAPPER, log, process.execPath, EVERYTHING, 'stdio'] });
    expect(snapshot.state).toBe('ready');
    results = createTaskResults({ mcp: test.manager, status: () => {}, send: (text) => sent.push(text) });
  });
  afterAll(async () => {
    results?.stop();
    await test?.dispose();
  });

  const start = (topic: string, signal?: AbortSignal) => {
    let started = false;
    const call = test.manager.callTool('everything', 'simulate-research-query', { topic }, { ...(signal ? { signal } : {}), onProgress: () => (started = true) });
    return { call, started: () => started };
  };

  it('Esc (the caller\'s abort) sends tasks/cancel for the task to the server', async () => {
    const controller = new AbortController();
    const running = start('esc', controller.signal);
    await until(running.started);
    const [task] = test.manager.runningTasks?.() ?? [];
    controller.abort();
    expect((await running.call).kind).toBe('cancelled');
    await until(() => cancelsSent(task!.taskId).length === 1);
  });

  it(':tasks cancel <n> ends a foreground task call as cancelled and sends tasks/cancel', async () => {
    const running = start('foreground');
    await until(running.started);
    expect(results.list()[0]).toMatch(/^1\. everything__simulate-research-query {2}task /);
    const [task] = test.manager.runningTasks?.() ?? [];
    expect(results.cancel('1')).toEqual([`everything__simulate-research-query: task ${task!.taskId} cancelled (tasks/cancel sent)`]);
    expect((await running.call).kind).toBe('cancelled');
    await until(() => cancelsSent(task!.taskId).length === 1);
    expect(test.manager.runningTasks?.()).toEqual([]);
  });

  it(':tasks cancel <id> cancels a background task; the model is told it was cancelled', async () => {
    const finished: McpEvent[] = [];
    const stop = test.manager.subscribe((event) => void (event.type === 'task-finished' && finished.push(event)));
    const running = start('background');
    await until(running.started);
    const [moved] = test.manager.moveTasksToBackground?.() ?? [];
    expect((await running.call).kind).toBe('ok');
    expect(results.cancel(moved!.taskId.slice(0, 8))).toEqual([`everything__simulate-research-query: task ${moved!.taskId} cancelled (tasks/cancel sent)`]);
    await until(() => finished.length === 1);
    stop();
    await until(() => cancelsSent(moved!.taskId).length === 1);
    expect(finished[0]).toMatchObject({ taskId: moved!.taskId });
    expect(sent.at(-1)).toContain(`[aish] background task ${moved!.taskId} of everything__simulate-research-query ended (cancelled)`);
    expect(test.manager.runningTasks?.()).toEqual([]);
  });

  it(':tasks cancel with nothing to match says so', () => {
    expect(results.cancel('7')).toEqual(['no running task 7 (:tasks lists them, numbered)']);
    expect(results.cancel('')).toEqual(['usage: :tasks cancel <n|id> (:tasks lists the running tasks, numbered)']);
  });
});
