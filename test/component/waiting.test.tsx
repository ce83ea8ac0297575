import { describe, expect, it, vi } from 'vitest';
import { APPROVAL_DELAY_MS } from '../../src/ui/keys/frameKeys';
import { proposeCommand } from './frames';
import { useRenderedApp, type Harness } from './render';

let h: Harness;
const app = useRenderedApp({ fakeTimers: true });

/** What the conversation loop does for each proposed command: the item, then the question. */
function propose(id: string, command: string) {
  h.store.getState().applyConversationEvent({ type: 'command-proposed', command: { id, command } });
  return proposeCommand(h, command, id);
}

describe('command frames in a row', () => {
  it('say which of the answer’s commands this is (1 of 2, 2 of 2), and the status bar says it waits for you', async () => {
    h = app.render({ columns: 120, rows: 30 });
    const state = h.store.getState();
    state.applyConversationEvent({ type: 'request-start', depth: 0, model: 'local' });
    state.applyConversationEvent({ type: 'text-delta', text: 'Two steps:\n\nCMD: echo one\nCMD: echo two\n' });
    await h.settle();
    expect(h.screen()).toContain('local · streaming');

    const first = await propose('c1', 'echo one');
    expect(h.screen()).toMatch(/Run this command\?.*1 of 2/);
    expect(h.screen()).toContain('local · waiting for you');
    expect(h.screen()).not.toContain('local · streaming');
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    await h.type('n');
    expect(first.answer).toEqual({ action: 'skip' });
    h.store.getState().applyConversationEvent({ type: 'command-skipped', id: 'c1' });

    await propose('c2', 'echo two');
    expect(h.screen()).toMatch(/Run this command\?.*2 of 2/);
    expect(h.screen()).toContain('waiting for you');
  });

  it('a single command has no counter', async () => {
    h = app.render({ columns: 120, rows: 30 });
    h.store.getState().applyConversationEvent({ type: 'text-delta', text: 'CMD: ls' });
    await propose('c1', 'ls');
    expect(h.screen()).toContain('Run this command?');
    expect(h.screen()).not.toMatch(/\d of \d/);
  });
});

describe('before the first byte of an answer', () => {
  it('shows a spinner line with the seconds waited under the transcript, gone when the answer starts', async () => {
    h = app.render({ columns: 100, rows: 30 });
    h.store.getState().applyConversationEvent({ type: 'request-start', depth: 0, model: 'local' });
    await h.settle();
    expect(h.screen()).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] waiting for the answer · 0s/);
    const lines = h.screen().split('\n');
    const waitingRow = lines.findIndex((line) => line.includes('waiting for the answer'));
    // Right above the input bar: the row the answer will start from.
    expect(lines[waitingRow + 1]).toMatch(/^╭/);
    await vi.advanceTimersByTimeAsync(2100);
    expect(h.screen()).toContain('waiting for the answer · 2s');
    h.store.getState().applyConversationEvent({ type: 'text-delta', text: 'Hello there' });
    await h.settle();
    expect(h.screen()).not.toContain('waiting for the answer');
    expect(h.screen()).toContain('Hello there');
  });
});
