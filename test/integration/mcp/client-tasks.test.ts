import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { streamChat } from '../../../src/services/broker/index';
import type { ElicitationAnswer, ElicitationRequest } from '../../../src/services/mcp/types';
import { createSampler, type SamplingPrompter } from '../../../src/runtime/sampling';
import { everythingServer, testConfig } from '../conversation/harness';
import { startScriptedBroker, textReply, type ScriptedBroker } from '../../helpers/scripted-broker';
import path from 'node:path';
import { ROOT, startEverything, testManager, type TestManager } from '../../helpers/mcp';

// Tasks the client runs for a server (MCP 2025-11-25): server-everything's async tools send
// `sampling/createMessage` and `elicitation/create` with a `task` field, poll `tasks/get` and
// fetch `tasks/result`. It offers those tools only to a client that declares `tasks.requests`.

let broker: ScriptedBroker;
beforeAll(async () => {
  broker = await startScriptedBroker();
});
afterAll(async () => {
  await broker.close();
});

let current: TestManager | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

const approving: SamplingPrompter = {
  reviewRequest: async () => ({ action: 'approve' }),
  generating: () => {},
  streaming: () => {},
  reviewResult: async () => ({ action: 'approve' }),
  done: () => {},
};

async function connect(prompter: SamplingPrompter, elicit: (request: ElicitationRequest) => Promise<ElicitationAnswer>, url?: string): Promise<TestManager> {
  const config = await testConfig(broker.url);
  const sampling = createSampler({ config, streamChat, env: process.env, currentModel: () => config.defaultModel, prompter, unattended: false, report: () => {} });
  current = testManager({ sampling, elicit });
  const snapshot = await current.manager.connect('everything', url ? { url } : everythingServer());
  expect(snapshot.state, snapshot.error).toBe('ready');
  await until(() => ['trigger-sampling-request-async', 'trigger-elicitation-request-async'].every((name) => tools(current!).includes(name)));
  return current;
}

describe('client-side tasks against server-everything over stdio', () => {
  it('lists both async tools: the client declares tasks for sampling and elicitation', async () => {
    const { manager } = await connect(approving, async () => ({ action: 'decline' }));
    expect(tools(current!)).toEqual(expect.arrayContaining(['trigger-sampling-request', 'trigger-elicitation-request', 'trigger-sampling-request-async', 'trigger-elicitation-request-async']));
    expect(manager.servers()[0]!.tools.length).toBeGreaterThan(0);
  });

  it('a task-augmented sampling request is approved, answered by the model, and its result fetched by the server', async () => {
    const { manager } = await connect(approving, async () => ({ action: 'decline' }));
    broker.enqueue(textReply('Sampled as a task.'));
    const outcome = await manager.callTool('everything', 'trigger-sampling-request-async', { prompt: 'say hi', maxTokens: 40 });
    expect(outcome.isError, outcome.content).toBe(false);
    expect(outcome.content).toContain('[COMPLETED] Async sampling completed!');
    expect(outcome.content).toMatch(/Task created: [0-9a-f-]{36}/);
    expect(outcome.content).toContain('Sampled as a task.');
    expect(outcome.content).toContain('io.modelcontextprotocol/related-task');
  });

  it('a denied task-augmented sampling request ends the task as failed with the reason', async () => {
    const denying: SamplingPrompter = { ...approving, reviewRequest: async () => ({ action: 'deny', reason: 'not as a task' }) };
    const { manager } = await connect(denying, async () => ({ action: 'decline' }));
    const outcome = await manager.callTool('everything', 'trigger-sampling-request-async', { prompt: 'say hi' });
    expect(outcome.content).toContain('[FAILED]');
    expect(outcome.content).toContain('not as a task');
  });

  it('a task-augmented elicitation goes to the elicitation handler and the answers reach the server', async () => {
    const asked: ElicitationRequest[] = [];
    const { manager } = await connect(approving, async (request) => {
      asked.push(request);
      return { action: 'accept', content: { name: 'Grace Hopper', favoriteColor: 'Blue', agreeToTerms: true } };
    });
    const outcome = await manager.callTool('everything', 'trigger-elicitation-request-async', {});
    expect(asked[0]).toMatchObject({ mode: 'form', alias: 'everything', message: 'Please provide inputs for the following fields (async task demo):' });
    expect(outcome.isError, outcome.content).toBe(false);
    expect(outcome.content).toContain('[COMPLETED] User provided the requested information!');
    expect(outcome.content).toContain('- Name: Grace Hopper');
    expect(outcome.content).toContain('- Favorite Color: Blue');
    expect(outcome.content).not.toContain('[SYNC]');
  });
});

describe('client-side tasks against server-everything over streamable HTTP', () => {
  it('both async tools work: the sampling answer and the form answers come back through tasks/result', async () => {
    const http = await startEverything('streamableHttp');
    try {
      const { manager } = await connect(approving, async () => ({ action: 'accept', content: { name: 'Over HTTP' } }), http.url);
      broker.enqueue(textReply('Sampled over HTTP.'));
      const sampled = await manager.callTool('everything', 'trigger-sampling-request-async', { prompt: 'hi' });
      expect(sampled.content).toContain('[COMPLETED] Async sampling completed!');
      expect(sampled.content).toContain('Sampled over HTTP.');
      const asked = await manager.callTool('everything', 'trigger-elicitation-request-async', {});
      expect(asked.content).toContain('- Name: Over HTTP');
    } finally {
      await current?.dispose();
      current = undefined;
      await http.stop();
    }
  });
});

describe('client-side tasks: list, get, cancel as a server drives them', () => {
  it('tasks/cancel closes the open form, tasks/get shows cancelled, unknown ids and a second cancel are errors', async () => {
    let aborted: Promise<boolean> = Promise.resolve(false);
    current = testManager({
      elicit: (_request, signal) => {
        aborted = new Promise((resolve) => signal?.addEventListener('abort', () => resolve(true), { once: true }));
        // The person has not answered yet: the form stays open until the server cancels the task.
        return new Promise((resolve) => signal?.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));
      },
    });
    const snapshot = await current.manager.connect('tasks', { command: process.execPath, args: [path.join(ROOT, 'test', 'helpers', 'client-task-server.mjs')] });
    expect(snapshot.state, snapshot.error).toBe('ready');
    const outcome = await current.manager.callTool('tasks', 'ask-and-cancel', {});
    const report = JSON.parse(outcome.content) as Record<string, { result?: Record<string, unknown>; error?: { code: number; message: string } }>;
    const taskId = (report.create!.result!.task as { taskId: string }).taskId;
    expect(report.create!.result!.task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: expect.any(Number) });
    expect(report.list!.result!.tasks).toEqual([expect.objectContaining({ taskId, status: 'working' })]);
    expect(report.unknown!.error).toMatchObject({ code: -32602, message: expect.stringContaining('unknown task') });
    expect(report.cancel!.result).toMatchObject({ taskId, status: 'cancelled' });
    expect(await aborted).toBe(true);
    expect(report.get!.result).toMatchObject({ taskId, status: 'cancelled' });
    expect(report.result!.error).toBeDefined();
    expect(report.cancelAgain!.error).toMatchObject({ code: -32602, message: expect.stringContaining('terminal status') });
  });
});

function tools(test: TestManager): string[] {
  return test.manager.servers().find((server) => server.alias === 'everything')?.tools.map((tool) => tool.name) ?? [];
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
