import { describe, expect, it, vi } from 'vitest';
import { APPROVAL_DELAY_MS } from '../../src/ui/keys/frameKeys';
import type { ServerSnapshot } from '../../src/services/mcp/types';
import { useRenderedApp, type Harness } from './render';

const app = useRenderedApp({ fakeTimers: true });
let h: Harness;

const server: ServerSnapshot = { alias: 'srv', target: 'node srv.js', state: 'ready', transport: 'stdio', tools: [{ name: 'echo', inputSchema: {} }], stderr: [] };

async function typeEach(text: string) {
  for (const char of text) await h.type(char);
}

async function focus(target: 'sidebar' | 'chat') {
  await h.type('\t');
  if (target === 'chat') await h.type('\t');
  expect(h.store.getState().focus).toBe(target);
}

function withServer() {
  h = app.render({ columns: 120, rows: 30 });
  h.store.getState().applyMcpEvent({ type: 'server', snapshot: server });
}

describe('typing while the transcript or the sidebar has the focus', () => {
  it('goes to the input from the transcript, first key included, and the focus moves there', async () => {
    withServer();
    await focus('chat');
    await typeEach('hello');
    expect(h.store.getState().focus).toBe('input');
    expect(h.store.getState().editor.text).toBe('hello');
    expect(h.screen()).toContain('› hello');
  });

  it('a run of keys that arrives in one read goes whole', async () => {
    withServer();
    await focus('chat');
    await h.type('what now?');
    expect(h.store.getState().focus).toBe('input');
    expect(h.store.getState().editor.text).toBe('what now?');
  });

  it("the transcript's own letters still act there", async () => {
    withServer();
    h.store.getState().applyConversationEvent({ type: 'tool-call', call: { id: 't1', wireName: 'srv__echo', rawArguments: '{}' } });
    await focus('chat');
    await h.type('r');
    await h.type('x');
    expect(h.store.getState().reasoningCollapsed).toBe(true);
    expect(h.store.getState().expandedIds).toEqual(['t1']);
    expect(h.store.getState().focus).toBe('chat');
    expect(h.store.getState().editor.text).toBe('');
  });

  it('goes to the input from the sidebar, whose own letters still act there', async () => {
    withServer();
    await focus('sidebar');
    await h.type('r');
    expect(h.controller.actions).toEqual(['reconnect srv']);
    expect(h.store.getState().focus).toBe('sidebar');
    await typeEach('hey');
    expect(h.store.getState().focus).toBe('input');
    expect(h.store.getState().editor.text).toBe('hey');
    // `c` opens the connect prompt: a sidebar command, not text for the input.
    await focus('sidebar');
    await h.type('c');
    expect(h.store.getState().sidebarUi.connect).toBeDefined();
    expect(h.store.getState().editor.text).toBe('hey');
  });

  it('stays in the tool details while they are open', async () => {
    withServer();
    await focus('sidebar');
    await h.type('i');
    expect(h.store.getState().sidebarUi.detail).toBeDefined();
    await h.type('h');
    expect(h.store.getState().focus).toBe('sidebar');
    expect(h.store.getState().editor.text).toBe('');
  });

  it('answers nothing while a tool frame is open; only what was typed as it appeared goes to the input', async () => {
    withServer();
    await focus('chat');
    let answered: unknown;
    void h.store
      .getState()
      .requestApproval({ call: { id: 'c1', wireName: 'srv__echo', alias: 'srv', tool: 'echo', rawArguments: '{}', arguments: {} }, position: 1, count: 1 })
      .then((answer) => (answered = answer));
    await h.settle();
    expect(h.screen()).toContain('Run this tool?');
    // Typed at once, as if meant for the input: it goes there and answers nothing.
    await typeEach('yes');
    expect(h.store.getState().focus).toBe('input');
    expect(h.store.getState().editor.text).toBe('yes');
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    // After the guard, the frame keeps a letter that is not its own; a run of letters read
    // together is typing, whenever it comes, and goes to the input too.
    await h.type('h');
    expect(h.store.getState().editor.text).toBe('yes');
    await h.type('hello');
    expect(answered).toBeUndefined();
    expect(h.store.getState().approvals).toHaveLength(1);
    expect(h.store.getState().editor.text).toBe('yeshello');
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    // Deliberate keys still answer it.
    await h.type('n');
    expect(answered).toEqual({ action: 'deny' });
  });
});
