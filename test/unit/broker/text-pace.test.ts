import { describe, expect, it } from 'vitest';
import { createAccumulator, type SseMessage } from '../../../src/services/broker/accumulator';
import type { SseSource } from '../../../src/services/broker/sse';
import { accumulateStream } from '../../../src/services/broker/stream';
import type { BrokerEvent } from '../../../src/services/broker/types';

// accumulateStream tells its source when to read at the screen's pace (SseSource.pace): while the
// answer is only text or reasoning. Anything else (a tool call starting, the finish) is read as it
// arrives. A source that hands over scripted reads and records what it was told.

interface Recorded {
  paces: number[];
  released: number;
  cancelled: number;
}

function scriptedSource(reads: string[][]): SseSource & Recorded {
  const queue = reads.map((read) => read.map((data): SseMessage => ({ data })));
  const source: SseSource & Recorded = {
    paces: [],
    released: 0,
    cancelled: 0,
    read: async () => {
      const next = queue.shift();
      return next ? { done: false, value: next } : { done: true, value: undefined };
    },
    pace: (ms) => void source.paces.push(ms),
    cancel: async () => void source.cancelled++,
    release: async () => void source.released++,
    takeFieldErrors: () => [],
  };
  return source;
}

const delta = (value: Record<string, unknown>, finishReason: string | null = null) => JSON.stringify({ choices: [{ index: 0, delta: value, finish_reason: finishReason }] });
const text = (content: string) => delta({ content });
const fragment = (args: string) => delta({ tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: args } }] });

async function run(source: SseSource, textPaceMs: number, signal?: AbortSignal): Promise<BrokerEvent[]> {
  const events: BrokerEvent[] = [];
  for await (const event of accumulateStream(source, createAccumulator(), { textPaceMs, ...(signal ? { signal } : {}) })) events.push(event);
  return events;
}

describe('reading an answer at the pace of the screen', () => {
  it('paces text and reasoning; a tool call and the finish are read as they arrive', async () => {
    const source = scriptedSource([
      [delta({ role: 'assistant', content: '' })],
      [delta({ reasoning_content: 'hmm' })],
      [text('Let')],
      [text(' me'), text(' see.')],
      [fragment('{"x"')],
      [text(' more')],
      [fragment(':1}')],
      [delta({}, 'tool_calls')],
      ['[DONE]'],
    ]);
    const events = await run(source, 40);
    // The role chunk says nothing; text and reasoning are paced; once a call has begun, nothing is.
    expect(source.paces).toEqual([0, 40, 40, 40, 0, 0, 0, 0, 0]);
    // The text of one read is one delta.
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'hmm' },
      { type: 'text-delta', text: 'Let' },
      { type: 'text-delta', text: ' me see.' },
      { type: 'text-delta', text: ' more' },
    ]);
    // Stopped at [DONE]: the body is let through to its end, the connection kept.
    expect(source.released).toBe(1);
    expect(source.cancelled).toBe(0);
  });

  it('text that arrives with the finish is not paced: the answer ends as soon as it arrives', async () => {
    const source = scriptedSource([[text('one')], [text(' two'), delta({}, 'stop')], ['[DONE]']]);
    await run(source, 33);
    expect(source.paces).toEqual([33, 0, 0]);
  });

  it('without a pace every read is taken as it comes', async () => {
    const source = scriptedSource([[text('a')], [text('b')], [delta({}, 'stop'), '[DONE]']]);
    await run(source, 0);
    expect(source.paces).toEqual([0, 0, 0]);
  });

  it('an answer stopped before its [DONE] cuts the body instead of reading it to the end', async () => {
    const stop = new AbortController();
    const source = scriptedSource([[text('a')], [text('b')], ['[DONE]']]);
    for await (const event of accumulateStream(source, createAccumulator(), { signal: stop.signal, textPaceMs: 33 })) {
      if (event.type === 'text-delta') stop.abort();
    }
    expect(source.cancelled).toBe(1);
    expect(source.released).toBe(0);

    const failed = scriptedSource([[text('a')], [JSON.stringify({ error: { message: 'overloaded' } })], ['[DONE]']]);
    const events = await run(failed, 33);
    expect(events.at(-1)).toMatchObject({ type: 'error' });
    expect(failed.cancelled).toBe(1);
    expect(failed.released).toBe(0);
  });
});
