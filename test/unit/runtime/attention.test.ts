import { describe, expect, it } from 'vitest';
import { watchForAttention, type AttentionReason } from '../../../src/runtime/attention';
import { createAppStore } from '../../../src/state/store';
import type { AppState } from '../../../src/state/store';

// When aish-tui tells someone in another window that it waits (README.md, "Small comforts").
function watched() {
  const store = createAppStore();
  let focused = true;
  const told: AttentionReason[] = [];
  watchForAttention(store, { focused: () => focused, notify: (reason) => told.push(reason) });
  return { store, told, blur: () => (focused = false), focus: () => (focused = true) };
}

const waitingFrame = (store: ReturnType<typeof createAppStore>) =>
  store.setState({ approvals: [...store.getState().approvals, { request: {} as never, shownAt: 0, resolve: () => {} }] } as Partial<AppState>);

describe('attention', () => {
  it('says once that an answer ended or a frame waits, only while the terminal is not focused', () => {
    const { store, told, blur, focus } = watched();
    store.setState({ brokerState: 'streaming' });
    store.setState({ brokerState: 'idle' });
    waitingFrame(store);
    expect(told).toEqual([]);

    blur();
    store.setState({ brokerState: 'tools' });
    waitingFrame(store);
    expect(told).toEqual(['frame']);
    store.setState({ approvals: [], brokerState: 'streaming' });
    store.setState({ brokerState: 'idle' });
    store.setState({ brokerState: 'idle' });
    expect(told).toEqual(['frame', 'answer']);

    focus();
    store.setState({ brokerState: 'streaming' });
    store.setState({ brokerState: 'idle' });
    expect(told).toEqual(['frame', 'answer']);
  });

  it('tells of a quick answer that started and ended within one batched update', () => {
    const { store, told, blur } = watched();
    blur();
    store.getState().applyConversationEvents([
      { type: 'request-start', depth: 0, model: 'scripted' },
      { type: 'text-delta', text: 'done here' },
      { type: 'done', finishReason: 'stop' },
    ]);
    expect(store.getState().brokerState).toBe('idle');
    expect(told).toEqual(['answer']);
  });

  it('waits for the queued question that starts in the same update as the last one ends', () => {
    const { store, told, blur } = watched();
    blur();
    store.getState().applyConversationEvents([{ type: 'request-start', depth: 0, model: 'scripted' }, { type: 'done', finishReason: 'stop' }, { type: 'request-start', depth: 0, model: 'scripted' }]);
    expect(told).toEqual([]);
    store.getState().applyConversationEvents([{ type: 'done', finishReason: 'stop' }]);
    expect(told).toEqual(['answer']);
  });
});
