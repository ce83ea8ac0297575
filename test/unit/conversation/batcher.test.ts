import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEventBatcher } from '../../../src/services/conversation/batcher';
import type { ConversationEvent } from '../../../src/services/conversation/types';

describe('event batcher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('merges consecutive text and reasoning deltas and applies at most once per frame', () => {
    const batches: ConversationEvent[][] = [];
    let clock = 1000;
    const batcher = createEventBatcher((events) => batches.push(events), 10, () => clock);
    for (let i = 0; i < 50; i++) batcher.push({ type: 'text-delta', text: `${i} ` });
    batcher.push({ type: 'reasoning-delta', text: 'a' });
    batcher.push({ type: 'reasoning-delta', text: 'b' });
    batcher.push({ type: 'text-delta', text: 'end' });
    expect(batches).toHaveLength(0);
    vi.advanceTimersByTime(0);
    expect(batches).toHaveLength(1);
    expect(batches[0]).toEqual([
      { type: 'text-delta', text: Array.from({ length: 50 }, (_, i) => `${i} `).join('') },
      { type: 'reasoning-delta', text: 'ab' },
      { type: 'text-delta', text: 'end' },
    ]);
    // The next frame waits 1000/maxFps ms after the last one.
    clock += 20;
    batcher.push({ type: 'text-delta', text: 'x' });
    vi.advanceTimersByTime(79);
    expect(batches).toHaveLength(1);
    clock += 80;
    vi.advanceTimersByTime(1);
    expect(batches).toHaveLength(2);
  });

  it('keeps other events in order and flush() applies at once', () => {
    const batches: ConversationEvent[][] = [];
    const batcher = createEventBatcher((events) => batches.push(events), 30);
    batcher.push({ type: 'text-delta', text: 'a' });
    batcher.push({ type: 'status', level: 'info', message: 's' });
    batcher.push({ type: 'text-delta', text: 'b' });
    batcher.flush();
    expect(batches).toEqual([[{ type: 'text-delta', text: 'a' }, { type: 'status', level: 'info', message: 's' }, { type: 'text-delta', text: 'b' }]]);
    batcher.flush();
    expect(batches).toHaveLength(1);
    batcher.push({ type: 'text-delta', text: 'c' });
    batcher.dispose();
    vi.advanceTimersByTime(1000);
    expect(batches).toHaveLength(1);
  });
});
