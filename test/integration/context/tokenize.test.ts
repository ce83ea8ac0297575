import { afterEach, describe, expect, it } from 'vitest';
import type { Message } from '../../../src/services/conversation/types';
import { errorReply, type ScriptedBroker } from '../../helpers/scripted-broker';
import { serverTokens, startContextServer } from '../../helpers/context-servers';
import { configFor, converse, startRuntime } from './harness';

// Before a request to a llama.cpp server, the parts of the request are counted with its own
// `/tokenize` (README.md, "Context"): only the texts not counted before, so a request adds no round
// trip for what did not change, and anything else falls back to the calibrated estimate.
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

const chats = (server: ScriptedBroker) => server.requests.filter((request) => request.path.endsWith('/chat/completions'));
const tokenizeCalls = (server: ScriptedBroker) => server.probes.filter((request) => request.path === '/tokenize');

describe("llama.cpp's /tokenize", () => {
  it('counts each text once, and the count before the request is the server’s within the template overhead', async () => {
    const server = await startContextServer('llama.cpp', 32_768);
    open.push(server);
    const runtime = await startRuntime(await configFor('llama.cpp', server.url));
    open.push(runtime);
    let history: Message[] = [];
    const estimates: number[] = [];
    const countings: Array<string | undefined> = [];
    for (let turn = 1; turn <= 3; turn++) {
      const before = tokenizeCalls(server).length;
      const { events, messages } = await converse(runtime, history, `question ${turn}: what does part ${turn} do?`);
      history = [...history, ...messages];
      const estimated = events.find((event) => event.type === 'context' && !event.context.reported);
      if (estimated?.type === 'context') {
        estimates.push(estimated.context.used);
        countings.push(estimated.context.counting);
      }
      const sent = tokenizeCalls(server).slice(before).map((request) => (request.body as unknown as { content: string }).content);
      if (turn === 1) {
        // The system prompt, every tool definition and the question.
        expect(sent.length).toBeGreaterThan(2);
        expect(sent).toContain(`question 1: what does part 1 do?`);
      } else {
        // Only what is new: the last answer and the new question.
        expect(sent.sort()).toEqual([(history.at(-3) as { content: string }).content, `question ${turn}: what does part ${turn} do?`].sort());
      }
    }
    // Measuring between turns asks nothing.
    const asked = tokenizeCalls(server).length;
    const between = runtime.measureContext(runtime.config.defaultModel, history);
    expect(tokenizeCalls(server).length).toBe(asked);
    // `:context` says how it counted: before a request every part by the server's tokenizer; between
    // turns the answer that just arrived is estimated until the next request counts it.
    expect(countings[2]).toBe("counted by the server's tokenizer (/tokenize); the chat template's overhead corrected by 2 server counts");
    expect(between?.counting).toBe("estimated where the server's tokenizer (/tokenize) has not counted yet, corrected by 3 server counts");
    // Counted with the server's tokenizer and calibrated once, the count before the request is
    // within a few percent of what the server then counted.
    const reported = chats(server).map((request) => serverTokens(request));
    const error = Math.abs(estimates[2]! - reported[2]!) / reported[2]!;
    expect(error).toBeLessThan(0.03);
  });

  it('a server without /tokenize is asked in the first request only, and the estimate counts instead', async () => {
    const server = await startContextServer('llama.cpp', 32_768);
    open.push(server);
    server.serve('POST', '/tokenize', errorReply(404, { error: { message: 'File Not Found' } }));
    const runtime = await startRuntime(await configFor('llama.cpp', server.url));
    open.push(runtime);
    let history: Message[] = [];
    let afterFirst = 0;
    for (let turn = 1; turn <= 3; turn++) {
      const { events, messages } = await converse(runtime, history, `question ${turn}`);
      history = [...history, ...messages];
      expect(events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
      if (turn === 1) afterFirst = tokenizeCalls(server).length;
    }
    // The first request's parts went at once (one round); none after the server said 404.
    expect(afterFirst).toBeGreaterThan(0);
    expect(afterFirst).toBeLessThanOrEqual(8);
    expect(tokenizeCalls(server)).toHaveLength(afterFirst);
    expect(chats(server)).toHaveLength(3);
    expect(runtime.measureContext(runtime.config.defaultModel, history)?.counting).toMatch(/^estimated \(about 4 characters a token\), corrected by [1-9]\d* server counts?$/);
  });

  it('other server kinds are never asked', async () => {
    const server = await startContextServer('vllm', 32_768);
    open.push(server);
    const runtime = await startRuntime(await configFor('vllm', server.url));
    open.push(runtime);
    const before = runtime.measureContext(runtime.config.defaultModel, []);
    expect(before?.counting).toBe('estimated (about 4 characters a token), not yet corrected by a server count');
    const { messages } = await converse(runtime, [], 'question');
    expect(tokenizeCalls(server)).toHaveLength(0);
    expect(runtime.measureContext(runtime.config.defaultModel, messages)?.counting).toBe('estimated (about 4 characters a token), corrected by 1 server count');
  });
});
