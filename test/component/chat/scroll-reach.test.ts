import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { handleChatKey, handleNavigationKey, type TranscriptGeometry } from '../../../src/ui/keys/globalKeys';
import { helpLines, showOutput } from '../../../src/runtime/commands';
import { formatKeymap } from '../../../src/ui/keys/keymap';
import { makeKey, type KeyName } from '../../../src/terminal/keyboard/keys';
import { measureTranscript, TranscriptCache, transcriptWindow } from '../../../src/transcript/transcript';
import { frameRows, TranscriptViewport } from '../../../src/transcript/viewport';
import { createAppStore, type AppStore } from '../../../src/state/store';
import { colourTheme, stripSgr } from './helpers';

/**
 * The scroll keys and the viewport agree on how far up the transcript goes: the keys clamp the
 * offset at (rows - height) and the viewport shows the first row there. Real store, real key
 * handlers, the viewport the transcript layer draws with.
 */

interface Screen {
  store: AppStore;
  geometry: TranscriptGeometry;
  /** The transcript's rows as the screen shows them, after the store adopts the offset shown. */
  draw: () => string[];
  /** Every row of the transcript, top to bottom. */
  all: string[];
}

function screen(fill: readonly string[] | ((store: AppStore) => void), width: number, height: number): Screen {
  const store = createAppStore();
  if (typeof fill === 'function') fill(store);
  else for (const text of fill) store.getState().addStatus('info', text);
  store.getState().setFocus('chat');
  const cache = new TranscriptCache();
  const viewport = new TranscriptViewport();
  const options = { theme: colourTheme, reasoningCollapsed: false, expandedIds: new Set(store.getState().expandedIds) };
  const totalRows = () => measureTranscript(store.getState().items, width, options, cache);
  const draw = () => {
    const state = store.getState();
    const frame = viewport.frame({ items: state.items, width, height, scrollOffset: state.scrollOffset, theme: colourTheme, focused: true, reasoningCollapsed: false, expandedIds: options.expandedIds, holdStill: true, cache });
    // What the transcript layer does: the store takes the offset actually shown.
    if (frame.offset !== state.scrollOffset) state.setScrollOffset(frame.offset);
    return frameRows(frame).map(stripSgr);
  };
  const all = transcriptWindow(store.getState().items, width, 100_000, 0, options, undefined, cache).rows.map(stripSgr);
  return { store, geometry: { columns: 200, height, totalRows }, draw, all };
}

function press(view: Screen, name: KeyName): string[] {
  const key = makeKey(name);
  if (!handleNavigationKey(view.store, view.geometry, key)) handleChatKey(view.store, view.geometry, key);
  return view.draw();
}

/** Presses `name` until the offset stops changing; returns every screen seen on the way. */
function pressUntilStill(view: Screen, name: KeyName): string[][] {
  const screens = [view.draw()];
  for (let presses = 0; presses < view.all.length + 2; presses++) {
    const before = view.store.getState().scrollOffset;
    const next = press(view, name);
    if (view.store.getState().scrollOffset === before) break;
    screens.push(next);
  }
  return screens;
}

const paragraph = fc.array(fc.constantFrom('word', 'longer', 'a', 'wrapping', 'x'.repeat(30), '界界'), { minLength: 1, maxLength: 30 }).map((words) => words.join(' '));

describe('scrolling reaches the first row of a transcript taller than the screen', () => {
  it('Home, PgUp and ↑ all end on the first row, for many heights, widths and transcripts', () => {
    fc.assert(
      fc.property(fc.array(paragraph, { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 8, max: 120 }), (texts, height, width) => {
        const probe = screen(texts, width, height);
        fc.pre(probe.all.length > height);
        const first = probe.all[0]!;

        const home = screen(texts, width, height);
        expect(press(home, 'home')[0]).toBe(first);

        for (const key of ['pageup', 'up'] as const) {
          const view = screen(texts, width, height);
          const screens = pressUntilStill(view, key);
          expect(screens[screens.length - 1]![0]).toBe(first);
          // ↑ moves the top row up one row at a time, from the bottom view's top to the first row.
          if (key === 'up') {
            const tops = screens.map((rows) => rows[0]);
            expect(tops).toEqual(probe.all.slice(0, probe.all.length - height + 1).reverse());
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it(':help at 80x24 (transcript 19 rows high) shows its first line at Home', () => {
    // As `:help` shows it: one status item, expanded (it is long).
    const view = screen((store) => showOutput(store, helpLines(formatKeymap)), 80, 19);
    const first = view.all[0]!;
    expect(first).toContain('Commands:');
    expect(view.draw()[0]).not.toBe(first);
    expect(press(view, 'home')[0]).toBe(first);
    // End goes back to the bottom, following new output again.
    expect(press(view, 'end')).toEqual(view.all.slice(-19));
  });
});
