import { describe, expect, it, vi } from 'vitest';

// Colour on (as in a real terminal), so the NO_COLOR test shows a difference.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});
import { QUIT_WINDOW_MS } from '../../src/ui/keys/globalKeys';
import { formatKeymap, KEYMAP } from '../../src/ui/keys/keymap';
import { useRenderedApp, type Harness } from './render';

let h: Harness;
const app = useRenderedApp();

function fillTranscript(count: number) {
  for (let index = 0; index < count; index++) h.store.getState().addStatus('info', `status line ${index}`);
}

describe('status bar', () => {
  it('shows model, broker state, speed and usage of the last answer, and ready/total servers', async () => {
    h = app.render({ columns: 140 });
    const state = h.store.getState();
    state.applyMcpEvent({ type: 'server', snapshot: { alias: 'a', target: 'built-in', state: 'ready', tools: [], stderr: [] } });
    state.applyMcpEvent({ type: 'server', snapshot: { alias: 'b', target: 'http://x', state: 'connecting', tools: [], stderr: [] } });
    state.applyConversationEvent({ type: 'request-start', depth: 0, model: 'qwen' });
    state.applyConversationEvent({ type: 'text-delta', text: 'hi' });
    await h.settle();
    expect(h.screen()).toMatch(/qwen · streaming · mcp 1\/2/);
    expect(h.screen()).toContain('Esc cancel');
    state.applyConversationEvent({ type: 'usage', usage: { promptTokens: 1234, completionTokens: 56 }, tokensPerSecond: 42.3 });
    state.applyConversationEvent({ type: 'done', finishReason: 'stop' });
    await h.settle();
    expect(h.screen()).toMatch(/qwen · idle · 42\.3 tok\/s · 1\.2k in \/ 56 out · mcp 1\/2/);
    expect(h.screen()).not.toContain('Esc cancel');
  });

  it('shows the keys for the focus, and a transient hint instead', async () => {
    h = app.render({ columns: 140 });
    expect(h.screen()).toContain('Enter send · Ctrl+J newline · Tab focus · Ctrl+D quit');
    await h.type('\t');
    expect(h.screen()).toContain('↑↓ select · Enter open · i info · r reconnect · d disconnect · c connect · p rules · Space on/off · Tab focus');
    await h.type('\t');
    expect(h.screen()).toContain('↑↓ scroll · Home/End · r reasoning · x expand · Tab focus');
    h.store.getState().setHint('something to know');
    await h.settle();
    expect(h.screen()).toContain('something to know');
    expect(h.screen()).not.toContain('r reasoning');
  });
});

describe('keys', () => {
  it('Esc cancels the running answer when the input has the focus', async () => {
    h = app.render();
    h.store.getState().applyConversationEvent({ type: 'request-start', depth: 0, model: 'local' });
    h.controller.running = true;
    await h.settle();
    await h.type('\x1b');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(h.controller.cancelled).toBe(1);
  });

  it('Esc cancels a message the session runs before the store has heard of it (right after Enter)', async () => {
    h = app.render();
    // The job queue runs the message; its request-start reaches the store with the next frame.
    h.controller.running = true;
    await h.type('\x1b');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(h.controller.cancelled).toBe(1);
  });

  it('Esc with nothing running does not cancel; from the sidebar it goes back to the input', async () => {
    h = app.render({ columns: 120 });
    h.controller.running = true;
    await h.type('\t');
    await h.type('\x1b');
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(h.store.getState().focus).toBe('input');
    expect(h.controller.cancelled).toBe(0);
  });

  it('Ctrl+C cancels, then clears the input, then quits on a second press within a second', async () => {
    vi.useFakeTimers();
    h = app.render();
    h.controller.running = true;
    for (const char of 'draft') await h.type(char);
    await h.type('\x03');
    expect(h.controller.cancelled).toBe(1);
    expect(h.store.getState().editor.text).toBe('draft');
    await h.type('\x03');
    expect(h.store.getState().editor.text).toBe('');
    await h.type('\x03');
    expect(h.screen()).toContain('press Ctrl+C again to quit');
    await vi.advanceTimersByTimeAsync(QUIT_WINDOW_MS + 50);
    expect(h.screen()).not.toContain('press Ctrl+C again to quit');
    await h.type('\x03');
    expect(h.controller.quits).toBe(0);
    await h.type('\x03');
    expect(h.controller.quits).toBe(1);
  });

  it('Ctrl+D quits and Ctrl+L redraws', async () => {
    h = app.render();
    await h.type('\x0c');
    expect(h.redraws).toBe(1);
    await h.type('\x04');
    expect(h.controller.quits).toBe(1);
  });

  it('PgUp/PgDn/Home/End scroll the transcript, clamped to its length', async () => {
    h = app.render({ rows: 30 });
    fillTranscript(100);
    await h.settle();
    await h.type('\x1b[5~');
    const page = h.store.getState().scrollOffset;
    expect(page).toBeGreaterThan(10);
    await h.type('\x1b[5~');
    expect(h.store.getState().scrollOffset).toBe(page * 2);
    await h.type('\x1b[H');
    const top = h.store.getState().scrollOffset;
    expect(top).toBeGreaterThan(page * 2);
    await h.type('\x1b[5~');
    expect(h.store.getState().scrollOffset).toBe(top);
    await h.type('\x1b[6~');
    expect(h.store.getState().scrollOffset).toBe(top - page);
    await h.type('\x1b[F');
    expect(h.store.getState().scrollOffset).toBe(0);
  });

  it('Home/End move the cursor when the input has text, and scroll when it is empty', async () => {
    h = app.render();
    fillTranscript(100);
    for (const char of 'abc') await h.type(char);
    await h.type('\x1b[H');
    expect(h.store.getState().editor.cursor).toBe(0);
    expect(h.store.getState().scrollOffset).toBe(0);
  });

  it('in the chat, ↑/↓ scroll by a line, r folds reasoning and x expands tool results', async () => {
    h = app.render({ columns: 120 });
    fillTranscript(100);
    h.store.getState().applyConversationEvent({ type: 'tool-call', call: { id: 't1', wireName: 'a__b', rawArguments: '{}' } });
    await h.type('\t');
    await h.type('\t');
    expect(h.store.getState().focus).toBe('chat');
    await h.type('\x1b[A');
    await h.type('\x1b[A');
    await h.type('\x1b[B');
    expect(h.store.getState().scrollOffset).toBe(1);
    await h.type('r');
    expect(h.store.getState().reasoningCollapsed).toBe(true);
    await h.type('x');
    expect(h.store.getState().expandedIds).toEqual(['t1']);
    await h.type('x');
    expect(h.store.getState().expandedIds).toEqual([]);
  });

  it('x shows a user message longer than the transcript shows folded, and folds it again', async () => {
    h = app.render({ columns: 100, rows: 30 });
    const long = Array.from({ length: 450 }, (_, index) => `pasted line ${index + 1}`).join('\n');
    h.store.getState().addUserItem('u-long', long);
    h.store.getState().addUserItem('u-short', 'a short one');
    await h.settle();
    // Folded: the message stops after 400 lines and says how to see the rest.
    expect(h.screen()).toContain('… 50 more lines · x in the chat shows them');
    expect(h.screen()).toContain('pasted line 400');
    expect(h.screen()).not.toContain('pasted line 401');
    await h.type('\t');
    await h.type('\t');
    await h.type('x');
    expect(h.store.getState().expandedIds).toEqual(['u-long']);
    expect(h.screen()).toContain('pasted line 450');
    expect(h.screen()).not.toContain('more lines');
    await h.type('x');
    expect(h.store.getState().expandedIds).toEqual([]);
  });
});

describe('looks', () => {
  it('NO_COLOR: no colour codes at all, focus and selection still visible', async () => {
    const COLOUR = /\x1b\[(3[0-9]|9[0-7]|38;)/;
    h = app.render({ columns: 120 });
    await h.type('\t');
    expect(h.rawScreen()).toMatch(COLOUR);
    h.unmount();
    vi.stubEnv('NO_COLOR', '1');
    try {
      h = app.render({ columns: 120 });
      h.store.getState().applyMcpEvent({ type: 'server', snapshot: { alias: 'a', target: 'built-in', state: 'ready', tools: [], stderr: [] } });
      await h.type('\t');
      await h.type('\x1b[B');
      expect(h.rawScreen()).not.toMatch(COLOUR);
      // The selected server is drawn inverse.
      expect(h.rawScreen()).toMatch(/\x1b\[7m(\x1b\[[0-9;]*m)*› ● a/);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  for (const [columns, rows] of [
    [80, 24],
    [200, 60],
    [60, 16],
  ] as const) {
    it(`nothing is wider than the terminal at ${columns}x${rows}, with a frame and servers`, async () => {
      h = app.render({ columns, rows });
      h.store.getState().applyMcpEvent({
        type: 'server',
        snapshot: { alias: 'a-very-long-server-alias-name', target: 'http://x', state: 'error', error: 'x'.repeat(300), tools: [], stderr: [] },
      });
      h.store.getState().toggleSidebar(false);
      fillTranscript(5);
      void h.store.getState().requestApproval({
        call: { id: 'c', wireName: `srv__${'t'.repeat(150)}`, alias: 'srv', tool: 't'.repeat(150), rawArguments: '{}', arguments: { text: 'y'.repeat(700) } },
        position: 1,
        count: 1,
      });
      await h.settle();
      const lines = h.screen().split('\n');
      expect(lines.length).toBeLessThanOrEqual(rows);
      for (const line of lines) expect([...line].length, line).toBeLessThanOrEqual(columns);
      expect(h.screen()).toContain('Run this tool?');
    });
  }
});

describe('keymap', () => {
  it('lists every key for :help, grouped by where it works', () => {
    const lines = formatKeymap();
    expect(lines).toContain('Everywhere:');
    expect(lines).toContain('Tool call frame:');
    for (const binding of KEYMAP) expect(lines.some((line) => line.includes(binding.keys) && line.includes(binding.does))).toBe(true);
  });
});
