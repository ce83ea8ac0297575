import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../../helpers/lifecycle';
import { textReply } from '../../helpers/scripted-broker';
import { createSession } from '../../../src/runtime/session';
import { createAppStore, type AppStore } from '../../../src/state/store';
import { run, startMcp, testConfig } from './harness';

// Servers without a reasoning parser (Ollama, vLLM, LM Studio) send `<think>…</think>` inside
// `content`. It is reasoning: streamed as such, kept apart in the history, never sent back.
const { broker, track } = useBrokerAndTerminals();

const thinking = '<think>\nThe user greets me.\nI should greet back.\n</think>\n\nHello there!';
const textOf = (events: Array<{ type: string; text?: string }>, type: string) => events.filter((event) => event.type === type).map((event) => event.text).join('');

function until(store: AppStore, probe: (state: ReturnType<AppStore['getState']>) => boolean, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!probe(store.getState())) return;
      unsubscribe();
      clearTimeout(timer);
      resolve();
    };
    const unsubscribe = store.subscribe(check);
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error('timed out'));
    }, timeoutMs);
    check();
  });
}

describe('inline <think> reasoning', () => {
  it('streamed in small chunks (tags cut across them): reasoning deltas, the answer without it, never sent back', async () => {
    const config = await testConfig(broker.url);
    const mcp = track(await startMcp(config));
    broker.enqueue(textReply(thinking, { chunkSize: 3 }));
    const result = await run({ config, mcp, text: 'hi' });
    expect(textOf(result.events as never, 'reasoning-delta')).toBe('The user greets me.\nI should greet back.');
    expect(textOf(result.events as never, 'text-delta')).toBe('Hello there!');
    expect(result.messages[1]).toMatchObject({ role: 'assistant', content: 'Hello there!', reasoning: 'The user greets me.\nI should greet back.' });

    broker.enqueue(textReply('Fine.'));
    await run({ config, mcp, history: result.messages, text: 'how are you?' });
    const sent = broker.requests[1]!.body!.messages!;
    expect(sent.find((message) => message.role === 'assistant')).toEqual({ role: 'assistant', content: 'Hello there!' });
    expect(JSON.stringify(sent)).not.toContain('think');
  });

  it('inlineReasoning: false on the model keeps the text as the server sent it', async () => {
    const config = await testConfig(broker.url, (c) => (c.models[c.defaultModel]!.inlineReasoning = false));
    const mcp = track(await startMcp(config));
    broker.enqueue(textReply(thinking, { chunkSize: 3 }));
    const result = await run({ config, mcp, text: 'hi' });
    expect(textOf(result.events as never, 'reasoning-delta')).toBe('');
    expect(result.messages[1]).toMatchObject({ role: 'assistant', content: thinking });
  });

  it('in the TUI the reasoning is on the answer item (shown and folded like reasoning_content)', async () => {
    const config = await testConfig(broker.url);
    const store = createAppStore();
    const session = track(createSession({ config, store, quit: () => {} }));
    await until(store, (state) => state.servers.builtin?.state === 'ready');
    broker.enqueue(textReply(thinking, { chunkSize: 4 }));
    session.submit('hi');
    await session.idle();
    expect(store.getState().items.at(-1)).toMatchObject({ kind: 'assistant', text: 'Hello there!', reasoning: 'The user greets me.\nI should greet back.' });
  });
});
