import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../../helpers/lifecycle';
import { chunk, sse, textReply, type ScriptedResponse } from '../../helpers/scripted-broker';
import { createSession, type Session } from '../../../src/runtime/session';
import type { AppConfig } from '../../../src/services/config/load';
import { EMPTY_ANSWER } from '../../../src/services/conversation/index';
import { createAppStore } from '../../../src/state/store';
import { run, startMcp, testConfig } from './harness';
import { untilStore as until } from '../../helpers/store-until';

// A 200 that carries no answer at all must fail visibly, like any failed answer: the question is
// taken back, never left in the history to be sent glued to the next message.
const { broker, track } = useBrokerAndTerminals();

const emptyBody: ScriptedResponse = { kind: 'stream', frames: [] };
const onlyFinish = sse([chunk({ role: 'assistant' }), chunk({}, { finishReason: 'stop' })]);
const onlyNonJson = sse([{ sse: 'data', data: 'not json at all' }, { sse: 'data', data: '{broken' }]);
const cases: Array<[string, ScriptedResponse]> = [
  ['an empty body', emptyBody],
  ['only a finish chunk', onlyFinish],
  ['only chunks that are not JSON', onlyNonJson],
  ['only whitespace', textReply('\n\n  ')],
];


async function start(config: AppConfig) {
  const store = createAppStore();
  const session: Session = track(createSession({ config, store, quit: () => {} }));
  await until(store, (state) => state.servers.builtin?.state === 'ready' || undefined);
  return { store, session };
}

describe('an empty answer', () => {
  it.each(cases)('%s: the loop reports an error and ends with finish reason "error", appending no answer', async (_, reply) => {
    const config = await testConfig(broker.url);
    const mcp = track(await startMcp(config));
    broker.enqueue(reply);
    const result = await run({ config, mcp, text: 'e1' });
    expect(result.events).toContainEqual({ type: 'error', message: EMPTY_ANSWER });
    expect(result.events.at(-1)).toEqual({ type: 'done', finishReason: 'error' });
    expect(result.messages.map((message) => message.role)).toEqual(['user']);
  });

  it('a finish reason other than stop is named in the error', async () => {
    const config = await testConfig(broker.url);
    const mcp = track(await startMcp(config));
    broker.enqueue(sse([chunk({}, { finishReason: 'content_filter' })]));
    const result = await run({ config, mcp, text: 'e1' });
    expect(result.events).toContainEqual({ type: 'error', message: `${EMPTY_ANSWER} (finish_reason "content_filter")` });
  });

  it.each(cases)('%s in the TUI: an error is shown, the question goes back into the input, the next message is sent alone', async (_, reply) => {
    const config = await testConfig(broker.url);
    const { store, session: s } = await start(config);
    broker.enqueue(reply);
    s.submit('e1');
    await s.idle();
    const state = store.getState();
    expect(state.items.some((item) => item.kind === 'status' && item.level === 'error' && item.text.includes(EMPTY_ANSWER))).toBe(true);
    expect(state.items.some((item) => item.kind === 'status' && item.text.includes('no answer: your message is back in the input'))).toBe(true);
    expect(state.draft).toBe('e1');
    expect(state.messages).toEqual([]);
    expect(state.items.filter((item) => item.kind === 'user' || (item.kind === 'assistant' && item.text.trim().length > 0))).toEqual([]);

    const begin = broker.requests.length;
    broker.enqueue(textReply('answer to e2'));
    state.setDraft('');
    s.submit('e2');
    await s.idle();
    const sent = broker.requests[begin]!.body!.messages!.filter((message) => message.role !== 'system');
    expect(sent).toEqual([{ role: 'user', content: 'e2' }]);
    expect(store.getState().items.at(-1)).toMatchObject({ kind: 'assistant', text: 'answer to e2' });
  });
});
