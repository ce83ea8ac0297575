import { describe, expect, it } from 'vitest';
import { accumulate, type AccumulatorState, createAccumulator, finalize, type SseMessage } from '../../../src/services/broker/accumulator';
import type { BrokerEvent } from '../../../src/services/broker/types';

// What the broker reports for answers that did not end cleanly; the conversation loop decides
// from the finish reason whether any call may run, so it must come through as the server said it.
const chunk = (delta: Record<string, unknown>, finish: string | null = null): SseMessage => ({
  data: JSON.stringify({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] }),
});

function eventsOf(messages: SseMessage[]): BrokerEvent[] {
  let state: AccumulatorState = createAccumulator({ idPrefix: 'call_t' });
  const events: BrokerEvent[] = [];
  for (const message of messages) {
    const step = accumulate(state, message);
    state = step.state;
    events.push(...step.events);
  }
  return [...events, ...finalize(state, 'complete')];
}

describe('answers that did not end cleanly', () => {
  it('a call cut by "length" (llama-server): finish stays "length", never "tool_calls", and the raw arguments are kept', () => {
    const events = eventsOf([
      chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'time__now', arguments: '{"format":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"date' } }] }),
      chunk({}, 'length'),
    ]);
    expect(events).toEqual([
      { type: 'tool-call', call: { id: 'c1', name: 'time__now', arguments: '{"format":"date' } },
      { type: 'finish', reason: 'length' },
    ]);
  });

  it('only a finish chunk, or only chunks that are not JSON: no text, no calls (the loop calls that an empty answer)', () => {
    expect(eventsOf([chunk({ role: 'assistant' }), chunk({}, 'stop')])).toEqual([{ type: 'finish', reason: 'stop' }]);
    const events = eventsOf([{ data: 'not json' }, { data: '{broken' }]);
    expect(events.filter((event) => event.type === 'text-delta' || event.type === 'tool-call')).toEqual([]);
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'incomplete' });
  });
});
