import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { streamChat } from '../../../src/services/broker/index';
import type { AppConfig } from '../../../src/services/config/load';
import type { SamplingRequest, SamplingResult, ServerLogEntry } from '../../../src/services/mcp/types';
import { createSampler, type RequestReview, type ResultReview, type SamplingPrompter } from '../../../src/runtime/sampling';
import { everythingServer, testConfig } from '../conversation/harness';
import { startScriptedBroker, textReply, type ScriptedBroker } from '../../helpers/scripted-broker';
import { startEverything, testManager, type RunningServer, type TestManager } from '../../helpers/mcp';

// Sampling and logging against the real server-everything, over stdio and streamable HTTP: its
// `trigger-sampling-request` tool asks this client to sample, the scripted OpenAI-compatible
// broker answers as the model, and the tool's result carries what the client returned.

let broker: ScriptedBroker;
let http: RunningServer;

beforeAll(async () => {
  broker = await startScriptedBroker();
  http = await startEverything('streamableHttp');
});
afterAll(async () => {
  await broker.close();
  await http.stop();
});

let current: TestManager | undefined;
afterEach(async () => {
  await current?.dispose();
  current = undefined;
});

/** A prompter that answers as told and records what it was shown. */
function recordingPrompter(answers: { request: RequestReview[]; result: ResultReview[] }) {
  const seen: { requests: SamplingRequest[]; results: SamplingResult[]; streamed: string[]; done: string[] } = { requests: [], results: [], streamed: [], done: [] };
  const prompter: SamplingPrompter = {
    reviewRequest: async (request) => {
      seen.requests.push(request);
      return answers.request.shift() ?? { action: 'deny' };
    },
    generating: () => {},
    streaming: (_id, text) => seen.streamed.push(text),
    reviewResult: async (_id, result) => {
      seen.results.push(result);
      return answers.result.shift() ?? { action: 'deny' };
    },
    done: (id) => seen.done.push(id),
  };
  return { prompter, seen };
}

async function connectEverything(config: AppConfig, prompter: SamplingPrompter | undefined, transport: 'stdio' | 'http', unattended = false): Promise<TestManager> {
  const reports: string[] = [];
  const sampling = createSampler({ config, streamChat, env: process.env, currentModel: () => config.defaultModel, ...(prompter ? { prompter } : {}), unattended, report: (_level, text) => reports.push(text) });
  current = testManager({ sampling });
  const server = transport === 'stdio' ? everythingServer() : { url: http.url };
  const snapshot = await current.manager.connect('everything', server);
  expect(snapshot.state, snapshot.error).toBe('ready');
  return current;
}

const samplingResult = (text: string) => JSON.parse(text.slice(text.indexOf('{'))) as { content: { text: string }; model: string; stopReason?: string };

describe.each(['stdio', 'http'] as const)('sampling against server-everything over %s', (transport) => {
  it('offers the sampling tool only because sampling is declared', async () => {
    const config = await testConfig(broker.url);
    const { manager } = await connectEverything(config, undefined, transport);
    expect(manager.servers()[0]!.tools.map((tool) => tool.name)).toContain('trigger-sampling-request');
    await current!.dispose();
    // Without a sampling handler (the `aish-tui mcp` subcommands) the client does not declare it.
    current = testManager();
    const snapshot = await current.manager.connect('everything', transport === 'stdio' ? everythingServer() : { url: http.url });
    expect(snapshot.tools.map((tool) => tool.name)).not.toContain('trigger-sampling-request');
  });

  it('approved both ways: the request reaches the model as chat messages, the answer reaches the server', async () => {
    const config = await testConfig(broker.url);
    const { prompter, seen } = recordingPrompter({ request: [{ action: 'approve' }], result: [{ action: 'approve' }] });
    const { manager } = await connectEverything(config, prompter, transport);
    const start = broker.requests.length;
    broker.enqueue(textReply('Sampled hello.'));
    const outcome = await manager.callTool('everything', 'trigger-sampling-request', { prompt: 'say hi', maxTokens: 50 });
    expect(outcome.isError, outcome.content).toBe(false);
    const result = samplingResult(outcome.content);
    expect(result).toMatchObject({ content: { type: 'text', text: 'Sampled hello.' }, model: 'scripted', stopReason: 'endTurn' });
    expect(seen.requests[0]).toMatchObject({ alias: 'everything', systemPrompt: 'You are a helpful test server.', maxTokens: 50, temperature: 0.7 });
    expect(seen.results[0]).toMatchObject({ text: 'Sampled hello.' });
    expect(seen.streamed.at(-1)).toBe('Sampled hello.');
    expect(seen.done).toEqual([seen.requests[0]!.id]);
    const body = broker.requests[start]!.body!;
    expect(body.messages).toEqual([
      { role: 'system', content: 'You are a helpful test server.' },
      { role: 'user', content: 'Resource trigger-sampling-request context: say hi' },
    ]);
    expect(body).toMatchObject({ max_tokens: 50, temperature: 0.7 });
  });

  it('denied: the server gets the "user rejected" error (-1) and the model is never asked', async () => {
    const config = await testConfig(broker.url);
    const { prompter } = recordingPrompter({ request: [{ action: 'deny', reason: 'not now' }], result: [] });
    const { manager } = await connectEverything(config, prompter, transport);
    const start = broker.requests.length;
    const outcome = await manager.callTool('everything', 'trigger-sampling-request', { prompt: 'say hi' });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/-1|declined/);
    expect(outcome.content).toContain('not now');
    expect(broker.requests.length).toBe(start);
  });

  it('edited request and edited answer: what the person changed is what is sent and returned', async () => {
    const config = await testConfig(broker.url);
    const edit = '### system prompt\nBe brief.\n### max tokens\n20\n### user\nSay only: edited';
    const { prompter } = recordingPrompter({ request: [{ action: 'edit', text: edit }, { action: 'approve' }], result: [{ action: 'approve', text: 'Changed by the person.' }] });
    const { manager } = await connectEverything(config, prompter, transport);
    const start = broker.requests.length;
    broker.enqueue(textReply('edited'));
    const outcome = await manager.callTool('everything', 'trigger-sampling-request', { prompt: 'say hi' });
    expect(samplingResult(outcome.content).content.text).toBe('Changed by the person.');
    expect(broker.requests[start]!.body).toMatchObject({ max_tokens: 20, messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Say only: edited' }] });
  });
});

describe('sampling limits and unattended answers', () => {
  it('headless without --allow-sampling refuses; with it, answers within the max tokens limit and says so', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.mcp.sampling = { ...c.mcp.sampling, maxTokens: 30 };
    });
    const refused = await connectEverything(config, undefined, 'stdio');
    const outcome = await refused.manager.callTool('everything', 'trigger-sampling-request', { prompt: 'x', maxTokens: 500 });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toContain('--allow-sampling');
    await current!.dispose();

    const start = broker.requests.length;
    broker.enqueue(textReply('unattended answer'));
    const { manager } = await connectEverything(config, undefined, 'stdio', true);
    const answered = await manager.callTool('everything', 'trigger-sampling-request', { prompt: 'x', maxTokens: 500 });
    expect(samplingResult(answered.content).content.text).toBe('unattended answer');
    expect(broker.requests[start]!.body).toMatchObject({ max_tokens: 30 });
  });

  it('per-server requests per minute: the one over the limit is refused without asking', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.mcp.servers.everything = { ...everythingServer(), sampling: { perMinute: 1 } };
    });
    const { prompter, seen } = recordingPrompter({ request: [{ action: 'approve' }, { action: 'approve' }], result: [{ action: 'approve' }, { action: 'approve' }] });
    const { manager } = await connectEverything(config, prompter, 'stdio');
    broker.enqueue(textReply('first'));
    expect(samplingResult((await manager.callTool('everything', 'trigger-sampling-request', { prompt: 'a' })).content).content.text).toBe('first');
    const second = await manager.callTool('everything', 'trigger-sampling-request', { prompt: 'b' });
    expect(second.isError).toBe(true);
    expect(second.content).toContain('more than 1 sampling requests in a minute');
    expect(seen.requests).toHaveLength(1);
  });

  it('autoApprove for a trusted server: answered without the prompter being asked', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.mcp.servers.everything = { ...everythingServer(), sampling: { autoApprove: true } };
    });
    const { prompter, seen } = recordingPrompter({ request: [], result: [] });
    const { manager } = await connectEverything(config, prompter, 'stdio');
    broker.enqueue(textReply('trusted'));
    const outcome = await manager.callTool('everything', 'trigger-sampling-request', { prompt: 'a' });
    expect(samplingResult(outcome.content).content.text).toBe('trusted');
    expect(seen.requests).toHaveLength(0);
  });
});

describe.each(['stdio', 'http'] as const)('logging against server-everything over %s', (transport) => {
  it('sets the configured level and keeps the messages at or above it in the snapshot; errors become status lines', async () => {
    const config = await testConfig(broker.url);
    const { manager, events, statuses } = await connectEverything(config, undefined, transport);
    // Each toggled session logs once at once, then every 5 s, at a random level; the client's
    // level (warning, the default) decides what arrives.
    await manager.callTool('everything', 'toggle-simulated-logging', {});
    const deadline = Date.now() + 20_000;
    const logOf = () => (manager.servers()[0]!.log ?? []) as ServerLogEntry[];
    // One message is enough for every check below; a second would come 5 s later.
    while (logOf().length < 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    await manager.callTool('everything', 'toggle-simulated-logging', {});
    const log = logOf();
    // The levels are random: the first message at or above warning has arrived; none below it
    // ever does.
    expect(log.length).toBeGreaterThanOrEqual(1);
    for (const entry of log) expect(['warning', 'error', 'critical', 'alert', 'emergency']).toContain(entry.level);
    expect(log[0]!.text).toMatch(/-level message|level-message/);
    const severe = log.filter((entry) => entry.level !== 'warning');
    if (severe.length > 0) expect(statuses().some((line) => line.startsWith('mcp everything log '))).toBe(true);
    expect(events.length).toBeGreaterThan(0);
  });
});

describe('logging/setLevel', () => {
  it("asks a server that declares logging for the configured level (default warning), once it is ready", async () => {
    const bodies: string[] = [];
    const recording: typeof fetch = async (input, init) => {
      if (typeof init?.body === 'string') bodies.push(init.body);
      return fetch(input, init);
    };
    const levels = () => bodies.flatMap((body) => {
      const message = JSON.parse(body) as { method?: string; params?: { level?: string } };
      return message.method === 'logging/setLevel' ? [message.params?.level] : [];
    });
    current = testManager({ fetch: recording });
    expect((await current.manager.connect('everything', { url: http.url })).state).toBe('ready');
    const deadline = Date.now() + 5_000;
    while (levels().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(levels()).toEqual(['warning']);
    await current.manager.connect('everything', { url: http.url, logLevel: 'error' });
    while (levels().length < 2 && Date.now() < deadline + 5_000) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(levels()).toEqual(['warning', 'error']);
  });
});
