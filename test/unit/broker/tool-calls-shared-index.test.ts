import { describe, expect, it } from 'vitest';
import { accumulate, type AccumulatorState, createAccumulator, finalize, type SseMessage } from '../../../src/services/broker/accumulator';
import type { BrokerEvent, CompletedToolCall } from '../../../src/services/broker/types';

// Ollama and LiteLLM's ollama_chat stream each tool call whole, every one at `index: 0`, each with
// its own id. A new id at an index already in use is a new call, not more of the old one.
const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseMessage => ({
  data: JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] }),
});
const call = (id: string | undefined, name: string | undefined, args: unknown, index: number | undefined = 0) => ({
  ...(index !== undefined ? { index } : {}),
  ...(id !== undefined ? { id, type: 'function' } : {}),
  function: { ...(name !== undefined ? { name } : {}), ...(args !== undefined ? { arguments: args } : {}) },
});

function callsOf(messages: SseMessage[]): CompletedToolCall[] {
  let state: AccumulatorState = createAccumulator({ idPrefix: 'call_t' });
  for (const message of messages) state = accumulate(state, message).state;
  return finalize(state, 'complete').flatMap((event: BrokerEvent) => (event.type === 'tool-call' ? [event.call] : []));
}

describe('tool calls that share an index', () => {
  it('two calls at index 0 with different ids (string arguments) stay two calls, in order', () => {
    const calls = callsOf([
      chunk({ tool_calls: [call('call_a', 'time__now', '{"zone":"UTC"}')] }),
      chunk({ tool_calls: [call('call_b', 'time__now', '{"zone":"CET"}')] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(calls).toEqual([
      { id: 'call_a', name: 'time__now', arguments: '{"zone":"UTC"}' },
      { id: 'call_b', name: 'time__now', arguments: '{"zone":"CET"}' },
    ]);
  });

  it('two calls at index 0 with different ids and arguments as JSON objects stay two calls', () => {
    const calls = callsOf([
      chunk({ tool_calls: [call('call_a', 'fs__read', { path: '/a' })] }),
      chunk({ tool_calls: [call('call_b', 'fs__list', { dir: '/' })] }),
      chunk({}, 'stop'),
    ]);
    expect(calls).toEqual([
      { id: 'call_a', name: 'fs__read', arguments: '{"path":"/a"}' },
      { id: 'call_b', name: 'fs__list', arguments: '{"dir":"/"}' },
    ]);
  });

  it('both calls in one delta at the same index are two calls', () => {
    const calls = callsOf([chunk({ tool_calls: [call('x1', 'a__b', '{}'), call('x2', 'a__c', '{"n":1}')] }, 'tool_calls')]);
    expect(calls.map((c) => [c.id, c.name, c.arguments])).toEqual([
      ['x1', 'a__b', '{}'],
      ['x2', 'a__c', '{"n":1}'],
    ]);
  });

  it('fragments after the second call continue the second call, not the first', () => {
    const calls = callsOf([
      chunk({ tool_calls: [call('call_a', 'a__one', '{"x":1}')] }),
      chunk({ tool_calls: [call('call_b', 'a__two', '{"y":')] }),
      chunk({ tool_calls: [call(undefined, undefined, '2}')] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(calls).toEqual([
      { id: 'call_a', name: 'a__one', arguments: '{"x":1}' },
      { id: 'call_b', name: 'a__two', arguments: '{"y":2}' },
    ]);
  });

  it('the same id repeated at the same index is still one call (repeated id and name, object resent on finish)', () => {
    expect(
      callsOf([
        chunk({ tool_calls: [call('c1', 'a__b', '{"q":')] }),
        chunk({ tool_calls: [call('c1', 'a__b', '"x"}')] }),
        chunk({}, 'tool_calls'),
      ]),
    ).toEqual([{ id: 'c1', name: 'a__b', arguments: '{"q":"x"}' }]);
    expect(
      callsOf([chunk({ tool_calls: [call('c1', 'a__b', { q: 'x' })] }), chunk({ tool_calls: [call('c1', 'a__b', { q: 'x' })] }, 'tool_calls')]),
    ).toEqual([{ id: 'c1', name: 'a__b', arguments: '{"q":"x"}' }]);
  });

  it('a nameless fragment with a fresh id on unfinished arguments continues them (a proxy inventing ids per chunk)', () => {
    expect(
      callsOf([
        chunk({ tool_calls: [call('c1', 'a__b', '{"q":')] }),
        chunk({ tool_calls: [call('c2', undefined, '"x"}')] }),
        chunk({}, 'tool_calls'),
      ]),
    ).toEqual([{ id: 'c1', name: 'a__b', arguments: '{"q":"x"}' }]);
  });
});
