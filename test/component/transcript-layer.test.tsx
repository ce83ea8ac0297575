import xtermHeadless from '@xterm/headless';
import { afterEach, describe, expect, it } from 'vitest';
import { ScreenWriter } from '../../src/terminal/screen';
import { loadHighlighter } from '../../src/transcript/highlight';
import { TranscriptLayer } from '../../src/transcript/layer';
import { TranscriptCache } from '../../src/transcript/transcript';
import { createAppStore } from '../../src/state/store';
import { renderApp, settle, type Harness } from './render';

// In the terminal the transcript is drawn by a layer beside Ink (src/transcript/layer.ts).
// These tests run the App with that layer and the real screen writer into a terminal emulator.

const { Terminal } = xtermHeadless;
type Term = InstanceType<typeof Terminal>;

let h: Harness | undefined;
let term: Term | undefined;
let layer: TranscriptLayer | undefined;
afterEach(() => {
  h?.unmount();
  layer?.dispose();
  term?.dispose();
  h = undefined;
  layer = undefined;
  term = undefined;
});

function setup(columns: number, rows: number) {
  const terminal = new Terminal({ cols: columns, rows, allowProposedApi: true, scrollback: 0 });
  term = terminal;
  let pending = Promise.resolve();
  let inkFrames = 0;
  const target = { columns, rows, write: (data: string) => (pending = pending.then(() => new Promise<void>((resolve) => terminal.write(data, resolve)))) };
  const writer = new ScreenWriter(target);
  const cache = new TranscriptCache();
  const store = createAppStore({ modelName: 'local' });
  const transcript = new TranscriptLayer(store, () => writer.render(), cache);
  layer = transcript;
  writer.setRegion(transcript);
  const harness = renderApp({ columns, rows, store, env: { transcriptLayer: transcript } });
  h = harness;
  // From here on every Ink frame goes to the screen writer, as in the app.
  const write = harness.stdout.write;
  harness.stdout.write = (frame: string) => {
    inkFrames++;
    writer.render(frame);
    return write(frame);
  };
  writer.render(harness.stdout.frames.at(-1) ?? '');
  const screen = async (): Promise<string[]> => {
    await new Promise((resolve) => setImmediate(resolve));
    await pending;
    const buffer = terminal.buffer.active;
    return Array.from({ length: rows }, (_, row) => buffer.getLine(row)?.translateToString(true) ?? '');
  };
  const redrawn = async (): Promise<string[]> => {
    writer.invalidate();
    writer.render();
    return screen();
  };
  return { harness, writer, cache, screen, redrawn, inkFrames: () => inkFrames };
}

describe('transcript layer', () => {
  it('draws a streamed answer without any Ink frame, beside the sidebar', async () => {
    const app = setup(100, 20);
    const state = app.harness.store.getState();
    state.applyMcpEvent({ type: 'server', snapshot: { alias: 'builtin', target: 'built-in', state: 'ready', tools: [], stderr: [] } });
    state.addUserItem('q1', 'a question');
    state.applyConversationEvent({ type: 'request-start', depth: 0, model: 'local' });
    // The first delta also turns the status bar to "streaming": that is an Ink frame.
    state.applyConversationEvent({ type: 'text-delta', text: 'first ' });
    await settle();
    const framesBefore = app.inkFrames();
    for (let index = 0; index < 60; index++) {
      app.harness.store.getState().applyConversationEvent({ type: 'text-delta', text: `word${index} ` });
      await settle();
    }
    expect(app.inkFrames()).toBe(framesBefore);
    const screen = await app.screen();
    expect(screen.join('\n')).toContain('word59');
    expect(screen[1]).toContain('MCP servers');
    // Every row of the transcript is beside the sidebar's border, none drawn over it.
    for (const row of screen.slice(1, 15)) expect(row.trimEnd()).toMatch(/│$/);
    expect(screen[15]).toMatch(/word59 +└─+┘$/);
  });

  it('scrolls a growing answer inside a scroll region and ends up exactly as a full redraw', async () => {
    const app = setup(90, 24);
    const state = app.harness.store.getState();
    state.applyMcpEvent({ type: 'server', snapshot: { alias: 'builtin', target: 'built-in', state: 'ready', tools: [], stderr: [] } });
    state.addUserItem('q1', 'a question');
    state.applyConversationEvent({ type: 'request-start', depth: 0, model: 'local' });
    await settle();
    let bytesWithScroll = 0;
    const writes: string[] = [];
    const original = app.writer.render.bind(app.writer);
    app.writer.render = (frame?: string) => {
      const before = app.writer.bytesWritten;
      original(frame);
      bytesWithScroll += app.writer.bytesWritten - before;
    };
    const spy = term!.write.bind(term!);
    term!.write = ((data: string | Uint8Array, callback?: () => void) => {
      writes.push(String(data));
      return spy(data, callback);
    }) as Term['write'];
    for (let index = 0; index < 120; index++) {
      app.harness.store.getState().applyConversationEvent({ type: 'text-delta', text: index % 9 === 8 ? `line ${index}\n\n` : `token${index} ` });
      await settle();
      if (index % 10 === 0) await app.screen();
    }
    const streamed = await app.screen();
    expect(writes.some((data) => /\x1b\[\d+;\d+r\x1b\[\d+S/.test(data))).toBe(true);
    expect(streamed).toEqual(await app.redrawn());
    expect(bytesWithScroll).toBeGreaterThan(0);
  });

  it('typing redraws the input, never the transcript', async () => {
    const app = setup(100, 20);
    app.harness.store.getState().addUserItem('q1', 'a question');
    app.harness.store.getState().applyConversationEvent({ type: 'text-delta', text: 'an answer' });
    // A grammar that finishes loading redraws the transcript, as it should (the layer's idle
    // warm-up loads four; another file in this shared worker may have started others, and on a
    // loaded machine they land in the middle of the typing). What is measured here is typing
    // alone, so every grammar is loaded first.
    await loadHighlighter();
    await settle();
    await app.screen();
    const layouts = app.cache.stats.layouts;
    const hits = app.cache.stats.hits;
    const framesBefore = app.inkFrames();
    for (const char of 'typing here') await app.harness.type(char);
    expect(app.inkFrames()).toBeGreaterThan(framesBefore);
    expect(app.harness.store.getState().editor.text).toBe('typing here');
    expect(app.cache.stats.layouts).toBe(layouts);
    expect(app.cache.stats.hits).toBe(hits);
    expect((await app.screen()).join('\n')).toContain('an answer');
  });
});
