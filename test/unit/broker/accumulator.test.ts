import { describe, expect, it } from 'vitest';
import { accumulate, type AccumulatorState, createAccumulator, finalize, finishReasonOf, type SseMessage } from '../../../src/services/broker/accumulator';
import type { BrokerEvent } from '../../../src/services/broker/types';

const chunk = (delta: Record<string, unknown> | undefined, finish: string | null = null, extra: Record<string, unknown> = {}): SseMessage => ({
  data: JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, ...(delta ? { delta } : {}), finish_reason: finish }], ...extra }),
});

function run(messages: SseMessage[], state: AccumulatorState = createAccumulator({ idPrefix: 'call_t' })): { state: AccumulatorState; events: BrokerEvent[] } {
  const events: BrokerEvent[] = [];
  for (const message of messages) {
    const step = accumulate(state, message);
    state = step.state;
    events.push(...step.events);
  }
  return { state, events };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

describe('accumulator', () => {
  it('is pure: the input state is never modified and the same input gives the same output', () => {
    const start = deepFreeze(createAccumulator());
    const message = chunk({ content: 'hi', tool_calls: [{ index: 0, id: 'a', function: { name: 'x__y', arguments: '{' } }] }, 'tool_calls', {
      usage: { prompt_tokens: 1, completion_tokens: 2 },
    });
    const first = accumulate(start, message);
    const second = accumulate(start, message);
    expect(first).toEqual(second);
    expect(start).toEqual(createAccumulator());
    deepFreeze(first.state);
    // Continuing from a frozen state works too: nothing is changed in place.
    expect(() => accumulate(first.state, chunk({ tool_calls: [{ index: 0, function: { arguments: '}' } }] }))).not.toThrow();
  });

  it('emits text and reasoning at once, tool calls and usage only at the end', () => {
    const { state, events } = run([
      chunk({ reasoning_content: 'hm' }),
      chunk({ content: 'Hi' }),
      chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'a__b', arguments: '{}' } }] }, 'tool_calls', { usage: { prompt_tokens: 1, completion_tokens: 1 } }),
    ]);
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'hm' },
      { type: 'text-delta', text: 'Hi' },
    ]);
    expect(finalize(state, 'complete')).toEqual([
      { type: 'tool-call', call: { id: 'c', name: 'a__b', arguments: '{}' } },
      { type: 'usage', usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('takes reasoning from reasoning_content or reasoning, once when a server sends both', () => {
    const { events } = run([chunk({ reasoning: 'a' }), chunk({ reasoning_content: 'b' }), chunk({ reasoning_content: 'c', reasoning: 'c' })]);
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'a' },
      { type: 'reasoning-delta', text: 'b' },
      { type: 'reasoning-delta', text: 'c' },
    ]);
  });

  it('ignores everything after [DONE]', () => {
    const { state, events } = run([chunk({ content: 'a' }, 'stop'), { data: '[DONE]' }, chunk({ content: 'late' })]);
    expect(events).toEqual([{ type: 'text-delta', text: 'a' }]);
    expect(state.done).toBe(true);
  });

  it('gives tool calls without an id a stable id per index and empty arguments as {}', () => {
    const { state } = run([chunk({ tool_calls: [{ index: 0, function: { name: 'a__noargs' } }, { index: 1, function: { name: 'a__b', arguments: ' ' } }] }, 'tool_calls')]);
    expect(finalize(state, 'complete').filter((event) => event.type === 'tool-call')).toEqual([
      { type: 'tool-call', call: { id: 'call_t_0', name: 'a__noargs', arguments: '{}' } },
      { type: 'tool-call', call: { id: 'call_t_1', name: 'a__b', arguments: '{}' } },
    ]);
  });

  it('reads the legacy function_call delta as tool call 0', () => {
    const { state } = run([chunk({ function_call: { name: 'a__f', arguments: '{"x":' } }), chunk({ function_call: { arguments: '1}' } }, 'function_call')]);
    expect(finalize(state, 'complete')).toEqual([
      { type: 'tool-call', call: { id: 'call_t_0', name: 'a__f', arguments: '{"x":1}' } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('reports a chunk that is not JSON once, as a status, and goes on', () => {
    const { events, state } = run([{ data: 'keep-alive' }, { data: '{broken' }, chunk({ content: 'ok' }, 'stop')]);
    expect(events).toEqual([
      { type: 'status', message: 'ignored a stream chunk that is not a JSON object: keep-alive' },
      { type: 'text-delta', text: 'ok' },
    ]);
    expect(state.malformedChunks).toBe(2);
  });

  it('reports only the first of several server errors', () => {
    const { events } = run([{ data: '{"error":{"message":"first"}}' }, { event: 'error', data: '{"error":{"message":"second"}}' }]);
    expect(events).toEqual([{ type: 'error', kind: 'stream', message: 'the server reported an error during the answer: first' }]);
  });

  it('reports finish_reason "error" without an error object', () => {
    const { state, events } = run([chunk({ content: 'x' }, 'error')]);
    expect(events).toEqual([
      { type: 'text-delta', text: 'x' },
      { type: 'error', kind: 'stream', message: 'the server reported an error during the answer: the server ended the answer with finish_reason "error"' },
    ]);
    expect(finishReasonOf(state, 'complete')).toBe('error');
  });

  it('an event: error with a non-JSON body reports the text', () => {
    const { events } = run([{ event: 'error', data: 'upstream timed out' }]);
    expect(events).toEqual([{ type: 'error', kind: 'stream', message: 'the server reported an error during the answer: upstream timed out' }]);
  });

  it('a cut stream runs no tool calls and finishes incomplete, keeping usage', () => {
    const { state } = run([chunk({ tool_calls: [{ index: 0, id: 'c', function: { name: 'a__b', arguments: '{"pa' } }] }, null, { usage: { prompt_tokens: 3, completion_tokens: 1 } })]);
    expect(finalize(state, 'cut')).toEqual([
      { type: 'usage', usage: { promptTokens: 3, completionTokens: 1, totalTokens: 4 } },
      { type: 'finish', reason: 'incomplete' },
    ]);
    expect(finalize(state, 'cut', 'cancelled')).toEqual([
      { type: 'usage', usage: { promptTokens: 3, completionTokens: 1, totalTokens: 4 } },
      { type: 'finish', reason: 'cancelled' },
    ]);
  });

  it('normalizes finish reasons other servers use', () => {
    expect(finishReasonOf(run([chunk({}, 'max_tokens')]).state, 'complete')).toBe('length');
    expect(finishReasonOf(run([chunk({}, 'eos')]).state, 'complete')).toBe('stop');
    expect(finishReasonOf(run([chunk({}, 'content_filter')]).state, 'complete')).toBe('content_filter');
    // A finish reason that arrived before the connection broke still counts.
    expect(finishReasonOf(run([chunk({}, 'stop')]).state, 'cut')).toBe('stop');
  });

  it('keeps the first choice of an n>1 request and ignores the others', () => {
    const message = {
      data: JSON.stringify({
        choices: [
          { index: 1, delta: { content: 'other' }, finish_reason: null },
          { index: 0, delta: { content: 'mine' }, finish_reason: null },
        ],
      }),
    };
    expect(run([message]).events).toEqual([{ type: 'text-delta', text: 'mine' }]);
  });
});
