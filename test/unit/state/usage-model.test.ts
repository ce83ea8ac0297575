import { describe, expect, it } from 'vitest';
import { selectTokensPerSecond, selectUsage } from '../../../src/state/selectors';
import { createAppStore } from '../../../src/state/store';

/** One answered request on `model`, as the conversation reports it. */
function answer(store: ReturnType<typeof createAppStore>, model: string, promptTokens: number, tokensPerSecond?: number) {
  const state = store.getState();
  state.applyConversationEvent({ type: 'request-start', depth: 0, model });
  state.applyConversationEvent({ type: 'text-delta', text: 'ok' });
  state.applyConversationEvent({ type: 'usage', usage: { promptTokens, completionTokens: 10 }, ...(tokensPerSecond !== undefined ? { tokensPerSecond } : {}) });
  state.applyConversationEvent({ type: 'done', finishReason: 'stop' });
}

describe('usage belongs to the model that answered', () => {
  it(":model to another model hides the previous model's counts and speed", () => {
    const store = createAppStore({ modelName: 'alpha' });
    answer(store, 'alpha', 1234, 40);
    expect(selectUsage(store.getState())).toEqual({ promptTokens: 1234, completionTokens: 10 });
    expect(selectTokensPerSecond(store.getState())).toBe(40);
    store.getState().setModelName('beta');
    expect(selectUsage(store.getState())).toBeUndefined();
    expect(selectTokensPerSecond(store.getState())).toBeUndefined();
    // Back to the model that answered: its counts are its own again.
    store.getState().setModelName('alpha');
    expect(selectUsage(store.getState())?.promptTokens).toBe(1234);
  });

  it('the next model shows its own counts, and never the previous speed when it reports none', () => {
    const store = createAppStore({ modelName: 'alpha' });
    answer(store, 'alpha', 1234, 40);
    store.getState().setModelName('beta');
    answer(store, 'beta', 99);
    expect(selectUsage(store.getState())?.promptTokens).toBe(99);
    expect(selectTokensPerSecond(store.getState())).toBeUndefined();
  });

  it('the same model keeps its last speed when an answer reports none', () => {
    const store = createAppStore({ modelName: 'alpha' });
    answer(store, 'alpha', 1234, 40);
    answer(store, 'alpha', 1500);
    expect(selectTokensPerSecond(store.getState())).toBe(40);
  });

  it("usage arriving after a switch made mid-answer is the old model's, not shown as the new one's", () => {
    const store = createAppStore({ modelName: 'alpha' });
    const state = store.getState();
    state.applyConversationEvent({ type: 'request-start', depth: 0, model: 'alpha' });
    state.applyConversationEvent({ type: 'text-delta', text: 'streaming' });
    store.getState().setModelName('beta');
    store.getState().applyConversationEvent({ type: 'usage', usage: { promptTokens: 777, completionTokens: 1 }, tokensPerSecond: 12 });
    expect(store.getState().modelName).toBe('beta');
    expect(selectUsage(store.getState())).toBeUndefined();
    expect(selectTokensPerSecond(store.getState())).toBeUndefined();
  });

  it(':clear forgets the counts', () => {
    const store = createAppStore({ modelName: 'alpha' });
    answer(store, 'alpha', 1234, 40);
    store.getState().clearChat();
    expect(selectUsage(store.getState())).toBeUndefined();
  });
});
