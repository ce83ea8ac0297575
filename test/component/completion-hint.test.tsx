import { describe, expect, it } from 'vitest';
import { editorFromText } from '../../src/ui/input/editor';
import { useRenderedApp, type Harness } from './render';

// Fake timers: the hint's own few-second timeout never runs, so only the keys can take it down.
const app = useRenderedApp({ fakeTimers: true });
let h: Harness;

async function typeEach(text: string) {
  for (const char of text) await h.type(char);
}

const statusRow = () => h.screen().split('\n').filter((line) => line.trim() !== '').at(-1) ?? '';

describe('"nothing to complete" goes once it no longer applies', () => {
  it('goes when a later Tab completes', async () => {
    h = app.render({ columns: 120 });
    await typeEach(':zz');
    await h.type('\t');
    expect(statusRow()).toContain('nothing to complete');
    // The input changed without a key (as a history step or Ctrl+Y would), then Tab completes it.
    h.store.getState().setEditor(editorFromText(':mod'));
    await h.settle();
    await h.type('\t');
    expect(h.store.getState().editor.text).toBe(':model ');
    expect(statusRow()).not.toContain('nothing to complete');
    expect(h.store.getState().hint).toBeUndefined();
  });

  it('goes with the next key typed', async () => {
    h = app.render({ columns: 120 });
    await typeEach(':model zz');
    await h.type('\t');
    expect(statusRow()).toContain('nothing to complete');
    await h.type('\x7f');
    expect(statusRow()).not.toContain('nothing to complete');
    expect(statusRow()).toContain('Enter send');
  });

  it('goes with the next key even when it only moves the cursor', async () => {
    h = app.render({ columns: 120 });
    await typeEach(':zz');
    await h.type('\t');
    expect(statusRow()).toContain('nothing to complete');
    await h.type('\x1b[D');
    expect(statusRow()).not.toContain('nothing to complete');
  });

  it('comes back for another Tab that finds nothing, and leaves other hints alone', async () => {
    h = app.render({ columns: 120 });
    await typeEach(':zz');
    await h.type('\t');
    await h.type('\t');
    expect(statusRow()).toContain('nothing to complete');
    h.store.getState().setHint('something else to know');
    await h.settle();
    await h.type('a');
    expect(statusRow()).toContain('something else to know');
  });

  it('the candidates of a Tab stay while Tab cycles through them', async () => {
    h = app.render({ columns: 120 });
    await typeEach(':model ');
    await h.type('\t');
    expect(statusRow()).toContain('cloud  local  ollama');
    await h.type('\t');
    expect(h.store.getState().editor.text).toBe(':model local');
    expect(statusRow()).toContain('cloud  local  ollama');
  });
});
