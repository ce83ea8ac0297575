import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEventBatcher, HOLD_MS, HOLD_TEXT_CHARS } from '../../../src/services/conversation/batcher';
import type { ConversationEvent } from '../../../src/services/conversation/types';

describe('event batcher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('applies an answer\'s first words at once, then merges deltas and applies at most once per frame', () => {
    const batches: ConversationEvent[][] = [];
    let clock = 1000;
    const batcher = createEventBatcher((events) => batches.push(events), 10, () => clock);
    batcher.push({ type: 'text-delta', text: 'first ' });
    expect(batches).toEqual([[{ type: 'text-delta', text: 'first ' }]]);
    clock += 100;
    for (let i = 0; i < 50; i++) batcher.push({ type: 'text-delta', text: `${i} ` });
    batcher.push({ type: 'reasoning-delta', text: 'a' });
    batcher.push({ type: 'reasoning-delta', text: 'b' });
    batcher.push({ type: 'text-delta', text: 'end' });
    expect(batches).toHaveLength(1);
    vi.advanceTimersByTime(0);
    expect(batches).toHaveLength(2);
    expect(batches[1]).toEqual([
      { type: 'text-delta', text: Array.from({ length: 50 }, (_, i) => `${i} `).join('') },
      { type: 'reasoning-delta', text: 'ab' },
      { type: 'text-delta', text: 'end' },
    ]);
    // The next frame waits 1000/maxFps ms after the last one.
    clock += 20;
    batcher.push({ type: 'text-delta', text: 'x' });
    vi.advanceTimersByTime(79);
    expect(batches).toHaveLength(2);
    clock += 80;
    vi.advanceTimersByTime(1);
    expect(batches).toHaveLength(3);
  });

  it('keeps other events in order and flush() applies at once', () => {
    const batches: ConversationEvent[][] = [];
    const batcher = createEventBatcher((events) => batches.push(events), 30);
    batcher.push({ type: 'status', level: 'info', message: 'first' });
    batcher.push({ type: 'text-delta', text: 'a' });
    expect(batches).toEqual([[{ type: 'status', level: 'info', message: 'first' }, { type: 'text-delta', text: 'a' }]]);
    batcher.push({ type: 'text-delta', text: 'b' });
    batcher.push({ type: 'status', level: 'info', message: 's' });
    batcher.push({ type: 'text-delta', text: 'c' });
    batcher.flush();
    expect(batches[1]).toEqual([{ type: 'text-delta', text: 'b' }, { type: 'status', level: 'info', message: 's' }, { type: 'text-delta', text: 'c' }]);
    batcher.flush();
    expect(batches).toHaveLength(2);
    batcher.push({ type: 'text-delta', text: 'd' });
    batcher.dispose();
    vi.advanceTimersByTime(1000);
    expect(batches).toHaveLength(2);
  });

  it('holds a frame while text arrives faster than anyone reads, up to HOLD_MS, and never holds the first words', () => {
    const batches: ConversationEvent[][] = [];
    let clock = 1000;
    const advance = (ms: number) => {
      clock += ms;
      vi.advanceTimersByTime(ms);
    };
    const batcher = createEventBatcher((events) => batches.push(events), 30, () => clock);
    const burst = 'x'.repeat(HOLD_TEXT_CHARS + 1);
    // The question's frame, then the answer's first words: at once, on their own.
    batcher.push({ type: 'status', level: 'info', message: 'asked' });
    advance(0);
    expect(batches).toHaveLength(1);
    advance(100);
    batcher.push({ type: 'text-delta', text: burst });
    expect(batches).toHaveLength(2);
    // A screenful per frame: no frame at the next frame time, nor until HOLD_MS after the last one.
    batcher.push({ type: 'text-delta', text: burst });
    advance(34);
    batcher.push({ type: 'text-delta', text: 'more' });
    advance(HOLD_MS - 35);
    expect(batches).toHaveLength(2);
    advance(1);
    expect(batches).toHaveLength(3);
    expect(batches[2]).toEqual([{ type: 'text-delta', text: `${burst}more` }]);
    // The end of the turn (or an approval frame) shows everything at once.
    batcher.push({ type: 'text-delta', text: burst });
    advance(40);
    expect(batches).toHaveLength(3);
    batcher.flush();
    expect(batches).toHaveLength(4);
  });

  it('draws every frame for text at a reading pace', () => {
    const batches: ConversationEvent[][] = [];
    let clock = 1000;
    const batcher = createEventBatcher((events) => batches.push(events), 30, () => clock);
    for (let frame = 0; frame < 10; frame++) {
      batcher.push({ type: 'text-delta', text: 'y'.repeat(HOLD_TEXT_CHARS) });
      clock += 34;
      vi.advanceTimersByTime(34);
    }
    expect(batches).toHaveLength(10);
  });
});
