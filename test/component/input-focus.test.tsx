import { describe, expect, it, vi } from 'vitest';

// Colour on, so the cursor's inverse cell is in the frame Ink draws.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});
import { APPROVAL_DELAY_MS } from '../../src/ui/keys/frameKeys';
import { InputHistory } from '../../src/runtime/inputHistory';
import { useRenderedApp, stripAnsi, type Harness } from './render';

let h: Harness;
const app = useRenderedApp();

async function typeEach(text: string) {
  for (const char of text) await h.type(char);
}

/** The raw row of the input bar that holds `text`. */
function inputRow(text: string): string {
  const row = h
    .rawScreen()
    .split('\n')
    .find((line) => stripAnsi(line).startsWith('│ › ') && stripAnsi(line).includes(text));
  if (row === undefined) throw new Error(`no input row with ${text}:\n${h.screen()}`);
  return row;
}

const hasCursor = (row: string) => row.includes('\x1b[7m');

/** The raw rows of the input bar (the last box on screen), borders included. */
function inputBox(): string[] {
  const lines = h.rawScreen().split('\n');
  const plain = lines.map(stripAnsi);
  const top = plain.findLastIndex((line) => line.startsWith('╭'));
  const bottom = plain.findIndex((line, index) => index > top && line.startsWith('╰'));
  return lines.slice(top, bottom + 1);
}

describe('input bar: one cursor on screen', () => {
  it('hides its cursor while a tool frame takes the keys, and in the frame reason line', async () => {
    vi.useFakeTimers();
    h = app.render();
    await typeEach('draft');
    expect(hasCursor(inputRow('draft'))).toBe(true);
    void h.store.getState().requestApproval({
      call: { id: 'c1', wireName: 'srv__echo', alias: 'srv', tool: 'echo', rawArguments: '{}', arguments: {} },
      position: 1,
      count: 1,
    });
    await h.settle();
    expect(h.store.getState().focus).toBe('input');
    expect(hasCursor(inputRow('draft'))).toBe(false);
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    await h.type('e');
    expect(h.screen()).toContain('Reason:');
    expect(hasCursor(inputRow('draft'))).toBe(false);
    await h.type('\x1b');
    await vi.advanceTimersByTimeAsync(60);
    await h.type('n');
    expect(h.screen()).not.toContain('Run this tool?');
    expect(hasCursor(inputRow('draft'))).toBe(true);
  });

  it('hides it while the sidebar has the focus, and keeps the bar the same height', async () => {
    h = app.render({ columns: 120 });
    // Exactly the text columns: the cursor cell after it takes a second row.
    h.store.getState().setEditor({ text: 'x'.repeat(114), cursor: 114, pastes: {}, literal: false, killed: '' });
    await h.settle();
    expect(inputBox().some(hasCursor)).toBe(true);
    const rows = inputBox().length;
    await h.type('\t');
    expect(h.store.getState().focus).toBe('sidebar');
    expect(inputBox().some(hasCursor)).toBe(false);
    expect(inputBox().length).toBe(rows);
  });
});

describe('input bar: completion candidates', () => {
  it('leave the status bar as soon as the input changes: Ctrl+U, or Ctrl+C', async () => {
    h = app.render();
    await typeEach(':mcp t');
    await h.type('\t');
    await h.type('\t');
    expect(h.screen()).toContain('tool  tools');
    await h.type('\x15');
    expect(h.store.getState().editor.text).toBe('');
    expect(h.screen()).not.toContain('tool  tools');

    await typeEach(':mcp t');
    await h.type('\t');
    await h.type('\t');
    expect(h.screen()).toContain('tool  tools');
    await h.type('\x03');
    expect(h.store.getState().editor.text).toBe('');
    expect(h.screen()).not.toContain('tool  tools');
  });

  it('stay while Tab cycles through them', async () => {
    h = app.render();
    await typeEach(':mcp t');
    await h.type('\t');
    await h.type('\t');
    await h.type('\t');
    expect(h.store.getState().editor.text).toBe(':mcp tools');
    expect(h.screen()).toContain('tool  tools');
  });
});

describe('input bar: history of multi-line entries', () => {
  const paste = Array.from({ length: 50 }, (_, index) => `pasted line ${index + 1}`).join('\n');

  function withHistory(entries: string[]) {
    const history = new InputHistory(undefined);
    for (const entry of entries) history.add(entry);
    h = app.render({ history });
  }

  it('a recalled 50-line paste shows as a chip again and is sent whole', async () => {
    withHistory(['older', paste]);
    await h.type('\x1b[A');
    expect(h.screen()).toContain('[pasted 50 lines]');
    expect(h.screen()).not.toContain('pasted line 2');
    await h.type('\r');
    expect(h.controller.submitted.at(-1)?.text).toBe(paste);
  });

  it('a multi-line entry is one ↑ step; ↓ comes back through it to the draft', async () => {
    withHistory(['older', 'first line\nsecond line\nthird line', paste]);
    await typeEach('my draft');
    await h.type('\x1b[A');
    expect(h.screen()).toContain('[pasted 50 lines]');
    await h.type('\x1b[A');
    expect(h.store.getState().editor.text).toBe('first line\nsecond line\nthird line');
    await h.type('\x1b[A');
    expect(h.store.getState().editor.text).toBe('older');
    await h.type('\x1b[B');
    // Coming forward the cursor is at the end: ↓ moves on to the newer entry at once.
    expect(h.store.getState().editor.text).toBe('first line\nsecond line\nthird line');
    await h.type('\x1b[B');
    expect(h.screen()).toContain('[pasted 50 lines]');
    await h.type('\x1b[B');
    expect(h.store.getState().editor.text).toBe('my draft');
  });

  it('after Ctrl+C clears a recalled entry, ↑ starts again from the newest', async () => {
    withHistory(['one', 'two', 'three']);
    await h.type('\x1b[A');
    await h.type('\x1b[A');
    expect(h.store.getState().editor.text).toBe('two');
    await h.type('\x03');
    expect(h.store.getState().editor.text).toBe('');
    await h.type('\x1b[A');
    expect(h.store.getState().editor.text).toBe('three');
  });
});
