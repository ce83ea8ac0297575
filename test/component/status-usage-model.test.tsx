import { describe, expect, it } from 'vitest';
import { useRenderedApp } from './render';

const app = useRenderedApp();

describe('status bar after :model', () => {
  it('does not show the previous model token counts as the new model ones', async () => {
    const h = app.render({ columns: 140 });
    const state = h.store.getState();
    state.applyConversationEvent({ type: 'request-start', depth: 0, model: 'local' });
    state.applyConversationEvent({ type: 'text-delta', text: 'hi' });
    state.applyConversationEvent({ type: 'usage', usage: { promptTokens: 1234, completionTokens: 56 }, tokensPerSecond: 42.3 });
    state.applyConversationEvent({ type: 'done', finishReason: 'stop' });
    await h.settle();
    expect(h.screen()).toMatch(/local · idle · 42\.3 tok\/s · 1\.2k in \/ 56 out · mcp 0\/0/);
    // What the session does for `:model ollama`.
    h.store.getState().setModelName('ollama');
    await h.settle();
    expect(h.screen()).toMatch(/ollama · idle · mcp 0\/0/);
    expect(h.screen()).not.toContain('1.2k in');
    expect(h.screen()).not.toContain('tok/s');
    state.applyConversationEvent({ type: 'request-start', depth: 0, model: 'ollama' });
    state.applyConversationEvent({ type: 'usage', usage: { promptTokens: 300, completionTokens: 7 } });
    state.applyConversationEvent({ type: 'done', finishReason: 'stop' });
    await h.settle();
    expect(h.screen()).toMatch(/ollama · idle · 300 in \/ 7 out · mcp 0\/0/);
  });
});
