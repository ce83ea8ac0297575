import { afterEach, describe, expect, it } from 'vitest';
import type { Runtime } from '../../../src/runtime/runtime';
import { isCompactionRequest, serverTokens, startContextServer, SUMMARY_MARK, type ServerKind } from '../../helpers/context-servers';
import type { ScriptedBroker } from '../../helpers/scripted-broker';
import { configFor, converse, longHistory, startRuntime, statuses } from './harness';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

async function setUp(kind: ServerKind, window: number, autoCompactAt: number | false): Promise<{ server: ScriptedBroker; runtime: Runtime }> {
  const server = await startContextServer(kind, window);
  open.push(server);
  const config = await configFor(kind, server.url, (c) => {
    c.context.autoCompactAt = autoCompactAt;
  });
  const runtime = await startRuntime(config);
  open.push(runtime);
  return { server, runtime };
}

const chatRequests = (server: ScriptedBroker) => server.requests.filter((request) => request.path.endsWith('/chat/completions'));

describe('a request the server rejects for length', () => {
  for (const kind of ['llama.cpp', 'openai', 'vllm', 'lmstudio', 'openrouter'] as const) {
    it(`${kind}: is compacted and sent again once; the user's message is kept and answered`, async () => {
      const window = kind === 'openai' ? 8192 : 2048;
      const { server, runtime } = await setUp(kind, window, false);
      const history = longHistory(kind === 'openai' ? 45 : 8);
      const { events, messages } = await converse(runtime, history, 'the newest question');
      const said = statuses(events);
      expect(said.find((line) => line.startsWith('warn: the server rejected the request for length'))).toContain(`window ${kind === 'openai' ? '8k' : '2k'}`);
      expect(said.filter((line) => line.startsWith('error'))).toEqual([]);
      const requests = chatRequests(server);
      expect(requests).toHaveLength(3);
      expect(isCompactionRequest(requests[1]!)).toBe(true);
      const retried = JSON.stringify(requests[2]!.body?.messages);
      expect(retried).toContain(SUMMARY_MARK);
      expect(retried).toContain('the newest question');
      expect(retried).not.toContain('question number 1:');
      expect(serverTokens(requests[2]!)).toBeLessThanOrEqual(window);
      expect(messages.map((message) => message.role)).toEqual(['user', 'compaction', 'assistant']);
      expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
      // The window the server named is now known for this model.
      expect(runtime.contextWindow(runtime.config.defaultModel)?.tokens).toBe(window);
    });
  }

  it('when even the compacted request does not fit, the error says so clearly', async () => {
    const { server, runtime } = await setUp('llama.cpp', 2048, false);
    const { events, messages } = await converse(runtime, [], `please read this: ${'word '.repeat(3000)}`);
    const errors = statuses(events).filter((line) => line.startsWith('error'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/rejected the request for length .*even after compacting.*larger window/);
    expect(messages.map((message) => message.role)).toEqual(['user']);
    expect(chatRequests(server)).toHaveLength(2);
    expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'error' });
  });
});

describe('automatic compaction', () => {
  it('compacts before a request that would pass context.autoCompactAt, so the server never rejects one', async () => {
    const { server, runtime } = await setUp('llama.cpp', 4096, 0.85);
    let history = longHistory(2);
    for (let turn = 0; turn < 12; turn++) {
      const { events, messages } = await converse(runtime, history, `follow-up ${turn}: ${'more detail please. '.repeat(10)}`);
      expect(statuses(events).filter((line) => line.startsWith('error'))).toEqual([]);
      history = [...history, ...messages];
    }
    const compactions = history.filter((message) => message.role === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions[0]).toMatchObject({ trigger: 'auto' });
    for (const request of chatRequests(server)) expect(serverTokens(request)).toBeLessThanOrEqual(4096);
    // Nothing was lost: every user message is still in the history.
    expect(history.filter((message) => message.role === 'user')).toHaveLength(14);
  });

  it('shortens old tool results first when that is enough', async () => {
    const { server, runtime } = await setUp('llama.cpp', 4096, 0.85);
    const at = '2026-01-01T00:00:00.000Z';
    const history = [
      { id: 'u1', role: 'user' as const, content: 'look it up', at },
      { id: 'a1', role: 'assistant' as const, content: '', toolCalls: [{ id: 'c1', name: 'builtin__calculator', arguments: '{"expression":"1"}' }], at },
      { id: 't1', role: 'tool' as const, toolCallId: 'c1', name: 'builtin__calculator', content: 'result line. '.repeat(600), isError: false, at },
      { id: 'a2', role: 'assistant' as const, content: 'found it', at },
      { id: 'u2', role: 'user' as const, content: 'thanks', at },
      { id: 'a3', role: 'assistant' as const, content: 'welcome', at },
    ];
    const { events } = await converse(runtime, history, 'and now?');
    expect(statuses(events).find((line) => /older tool result left out/.test(line))).toBeDefined();
    const sent = chatRequests(server);
    expect(sent).toHaveLength(1);
    expect(JSON.stringify(sent[0]!.body?.messages)).toContain('left out to save context');
  });
});

describe('Ollama', () => {
  it('warns when it reports prompt tokens equal to its num_ctx (it cut the prompt without saying so)', async () => {
    const { runtime } = await setUp('ollama', 2048, false);
    const { events } = await converse(runtime, longHistory(10), 'next');
    expect(statuses(events).find((line) => line.startsWith('warn: Ollama counted 2048 prompt tokens'))).toBeDefined();
  });
});
