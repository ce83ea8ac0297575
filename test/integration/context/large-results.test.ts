import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversationEvent, Message } from '../../../src/services/conversation/types';
import type { Runtime } from '../../../src/runtime/runtime';
import { isCompactionRequest, serverTokens, startContextServer, windowedRouter } from '../../helpers/context-servers';
import { lastMessage, toolCallReply, type ScriptedBroker } from '../../helpers/scripted-broker';
import { configFor, longHistory, startRuntime, statuses } from './harness';

// A tool result larger than the whole window (README.md, "Context"): the request that carries it
// is sent with the result cut to fit, never one the server must refuse; the history (and so the
// session log) keeps the result whole.
const RESULTS_SERVER = path.resolve(__dirname, '../../helpers/results-mcp-server.mjs');
const WINDOW = 4096;
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

async function converse(runtime: Runtime, history: Message[], text: string): Promise<{ events: ConversationEvent[]; messages: Message[] }> {
  const events: ConversationEvent[] = [];
  for await (const event of runtime.converse({
    signal: new AbortController().signal,
    history,
    text,
    model: runtime.config.models[runtime.config.defaultModel]!,
    approve: async () => ({ action: 'allow', scope: 'once' }),
    confirmCommand: async () => ({ action: 'skip' }),
  })) {
    events.push(event);
  }
  return { events, messages: events.flatMap((event) => (event.type === 'message' ? [event.message] : [])) };
}

async function setUp(): Promise<{ server: ScriptedBroker; runtime: Runtime }> {
  const server = await startContextServer('llama.cpp', WINDOW);
  open.push(server);
  const windowed = windowedRouter('llama.cpp', WINDOW);
  server.route((request) => {
    const last = lastMessage(request);
    const fits = serverTokens(request) <= WINDOW;
    if (!fits || isCompactionRequest(request) || last?.role === 'tool') return windowed(request);
    // The model asks for 400 lines (about 5k tokens by the server's count) on every new question.
    return toolCallReply([{ name: 'results__lines', arguments: { count: 400 }, id: `call_${request.index}` }], { usage: { prompt_tokens: serverTokens(request), completion_tokens: 20 } });
  });
  const config = await configFor('llama.cpp', server.url, (c) => {
    c.mcp.servers = { results: { command: process.execPath, args: [RESULTS_SERVER] } } as typeof c.mcp.servers;
  });
  const runtime = await startRuntime(config);
  open.push(runtime);
  return { server, runtime };
}

describe('a tool result larger than the window', () => {
  it('is sent cut to fit, in the first turn and after earlier turns; the history keeps it whole', async () => {
    const { server, runtime } = await setUp();
    for (const history of [[], longHistory(3)]) {
      const { events, messages } = await converse(runtime, history, 'list the lines please');
      const said = statuses(events);
      expect(said.filter((line) => line.startsWith('error'))).toEqual([]);
      expect(said.some((line) => /latest tool result was too large for the model's window: sent cut/.test(line))).toBe(true);
      const result = messages.find((message) => message.role === 'tool');
      expect(result?.role === 'tool' && result.content.split('\n')).toHaveLength(400);
      expect(messages.at(-1)).toMatchObject({ role: 'assistant' });
      expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
    }
    const chats = server.requests.filter((request) => request.path.endsWith('/chat/completions'));
    for (const request of chats) expect(serverTokens(request)).toBeLessThanOrEqual(WINDOW);
    const answered = chats.filter((request) => lastMessage(request)?.role === 'tool');
    expect(answered.length).toBe(2);
    for (const request of answered) expect(String(lastMessage(request)?.content)).toMatch(/cut to fit the model's context window/);
  });
});
