import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ElicitationRequest, McpEvent, ToolProgress } from '../../../src/services/mcp/types';
import { buildToolIndex } from '../../../src/services/tools/names';
import { EVERYTHING, testManager, until, type TestManager } from '../../helpers/mcp';

// MCP tasks against the real server-everything: its `simulate-research-query` runs only as a task
// (execution.taskSupport "required"); the server declares task calls, polls every second and
// asks for a clarification (elicitation, delivered through tasks/result) when the query is ambiguous.

describe('tasks with server-everything', () => {
  let test: TestManager;
  const asked: ElicitationRequest[] = [];

  beforeAll(async () => {
    test = testManager({
      elicit: async (request) => {
        asked.push(request);
        return { action: 'accept', content: { interpretation: 'historical' } };
      },
    });
    const snapshot = await test.manager.connect('everything', { command: process.execPath, args: [EVERYTHING, 'stdio'] });
    expect(snapshot.state).toBe('ready');
  });

  afterAll(async () => {
    await test?.dispose();
  });

  it('offers the task-only tool to the model because the server declares task calls', () => {
    const [snapshot] = test.manager.servers();
    expect(snapshot?.taskCalls).toBe(true);
    const index = buildToolIndex(test.manager.servers());
    expect(index.byWireName.get('everything__simulate-research-query')).toMatchObject({ tool: 'simulate-research-query' });
    expect(index.problems.filter((line) => line.includes('simulate-research-query'))).toEqual([]);
  });

  const STAGES = ['Gathering sources...', 'Analyzing content...', 'Synthesizing findings...', 'Generating report...'];

  it('runs it as a task: status and its messages as progress, then the result', async () => {
    const progress: ToolProgress[] = [];
    const outcome = await test.manager.callTool('everything', 'simulate-research-query', { topic: 'tides' }, { onProgress: (value) => progress.push(value) });
    expect(outcome).toMatchObject({ kind: 'ok', isError: false });
    expect(outcome.content).toContain('# Research Report: tides');
    expect(progress[0]).toMatchObject({ task: 'working', message: 'Gathering sources...' });
    // The client polls at the server's suggested interval, which is also the length of each of
    // the server's stages, so a poll that comes late (a busy machine) can skip one stage: the
    // messages seen must be the server's stages in their order, with at least one between the first
    // and the last.
    const seen = progress.map((value) => value.message).filter((message, index, all) => message !== undefined && message !== all[index - 1]);
    expect(seen.filter((message) => !STAGES.includes(message!))).toEqual([]);
    expect(seen.map((message) => STAGES.indexOf(message!))).toEqual([...seen.map((message) => STAGES.indexOf(message!))].sort((a, b) => a - b));
    expect(seen.some((message) => STAGES.slice(1, -1).includes(message!))).toBe(true);
    expect(progress.at(-1)).toMatchObject({ task: 'completed' });
    expect(test.manager.runningTasks?.()).toEqual([]);
  });

  it('answers the task\'s question through the elicitation handler (input_required)', async () => {
    const progress: ToolProgress[] = [];
    const outcome = await test.manager.callTool('everything', 'simulate-research-query', { topic: 'rome', ambiguous: true }, { onProgress: (value) => progress.push(value) });
    expect(asked).toEqual([expect.objectContaining({ mode: 'form', alias: 'everything' })]);
    expect(progress.map((value) => value.task)).toContain('input_required');
    expect(outcome.content).toContain('# Research Report: rome (historical)');
  });

  it('Esc (the caller\'s abort) cancels the task on the server', async () => {
    const controller = new AbortController();
    const call = test.manager.callTool('everything', 'simulate-research-query', { topic: 'cancelled' }, { signal: controller.signal, onProgress: () => controller.abort() });
    const outcome = await call;
    expect(outcome).toMatchObject({ kind: 'cancelled', content: '[aish] tool call cancelled by the user' });
    expect(test.manager.runningTasks?.()).toEqual([]);
  });

  it('moved to the background: the call answers at once, the result comes as an event', async () => {
    const finished: McpEvent[] = [];
    const stop = test.manager.subscribe((event) => {
      if (event.type === 'task-finished') finished.push(event);
    });
    let started = false;
    const call = test.manager.callTool('everything', 'simulate-research-query', { topic: 'waves' }, { onProgress: () => (started = true) });
    await until(() => started);
    expect(test.manager.runningTasks?.()).toEqual([expect.objectContaining({ alias: 'everything', tool: 'simulate-research-query', background: false })]);
    const moved = test.manager.moveTasksToBackground?.() ?? [];
    expect(moved).toEqual([expect.objectContaining({ alias: 'everything', tool: 'simulate-research-query' })]);
    const outcome = await call;
    expect(outcome.kind).toBe('ok');
    expect(outcome.content).toContain(`runs in the background as task ${moved[0]!.taskId}`);
    await until(() => finished.length === 1, 20_000);
    stop();
    expect(finished[0]).toMatchObject({ type: 'task-finished', alias: 'everything', tool: 'simulate-research-query', taskId: moved[0]!.taskId, outcome: { kind: 'ok' } });
    expect((finished[0] as { outcome: { content: string } }).outcome.content).toContain('# Research Report: waves');
  });
});
