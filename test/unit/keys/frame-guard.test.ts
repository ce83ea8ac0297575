import { describe, expect, it } from 'vitest';
import { APPROVAL_DELAY_MS, FRAME_BUTTON_ACTIONS, frameKey, newFrameUi, type FrameKeyContext, type FrameKind } from '../../../src/ui/keys/frameKeys';
import { makeKey, type KeyEvent } from '../../../src/terminal/keyboard/keys';
import type { FrameUi } from '../../../src/state/types';

// docs/ARCHITECTURE.md, Security invariants 9: no accidental approval. A new frame starts on its
// deny / skip button, every key during the key guard restarts it, and typing during the guard goes
// on to the input instead of answering.

const KINDS: FrameKind[] = ['approval', 'command'];
const context = (kind: FrameKind): FrameKeyContext => ({ kind, shownAt: 1_000, total: 3, viewport: 10, command: 'make deploy' });
const text = (char: string, at: number): KeyEvent => makeKey('text', { text: char, at });

/** Feeds keys in order, carrying the frame's state; returns every result. */
function feed(kind: FrameKind, keys: KeyEvent[], start: FrameUi = newFrameUi('f', 10, 80, kind)) {
  let ui = start;
  return keys.map((key) => {
    const result = frameKey(ui, key, context(kind));
    ui = result.ui;
    return result;
  });
}

describe('no accidental approval', () => {
  for (const kind of KINDS) {
    it(`${kind}: a new frame's focused button denies, so Enter alone never lets anything run`, () => {
      const ui = newFrameUi('f', 10, 80, kind);
      expect(FRAME_BUTTON_ACTIONS[kind][ui.button]).toBe('frame.no');
      // Enter long after the frame appeared, deliberately typed: it denies / skips.
      for (const at of [1_000 + APPROVAL_DELAY_MS, 1_000 + 10 * APPROVAL_DELAY_MS]) {
        const result = frameKey(ui, makeKey('return', { at }), context(kind));
        expect(result.answer?.answer.action).toBe(kind === 'approval' ? 'deny' : 'skip');
      }
    });

    it(`${kind}: a sentence typed as the frame appears answers nothing, whatever its letters, and goes to the input`, () => {
      // One key every 300 ms (under the delay), starting just before the frame and going on well past
      // the delay: each restarts the guard.
      const sentence = 'yes, that is it. stay there, even tonight';
      const keys = [...sentence].map((char, index) => text(char, 900 + index * (APPROVAL_DELAY_MS - 100)));
      const results = feed(kind, keys);
      for (const [index, result] of results.entries()) {
        expect(result.answer, `key ${index} ${JSON.stringify(sentence[index])}`).toBeUndefined();
        expect(result.handled, `key ${index} goes on to the input`).toBe(false);
      }
      // The last key was at 900 + 40 * 300; a y right before its delay ends is still refused.
      const last = keys.at(-1)!.at;
      const early = frameKey(results.at(-1)!.ui, text('y', last + APPROVAL_DELAY_MS - 1), context(kind));
      expect(early.answer).toBeUndefined();
      // Once the keys stopped for the whole delay, the frame's key works.
      const stillUi = early.ui;
      const late = frameKey(stillUi, text('y', early.ui.guardKeyAt! + APPROVAL_DELAY_MS), context(kind));
      expect(late.answer?.answer.action).toBe(kind === 'approval' ? 'allow' : 'run');
    });

    it(`${kind}: keys that are not typing (arrows, Enter, Esc) restart the guard too but stay with the frame`, () => {
      const keys = [makeKey('down', { at: 1_100 }), makeKey('return', { at: 1_450 }), makeKey('escape', { at: 1_800 }), makeKey('up', { at: 2_150 })];
      const results = feed(kind, keys);
      for (const result of results) {
        expect(result.answer).toBeUndefined();
        expect(result.handled).toBe(true);
      }
      // 2_150 was still inside the guard that 1_800 restarted: it runs until 2_550.
      const tooSoon = frameKey(results.at(-1)!.ui, makeKey('escape', { at: 2_500 }), context(kind));
      expect(tooSoon.answer).toBeUndefined();
      const after = frameKey(results.at(-1)!.ui, makeKey('escape', { at: 2_550 }), context(kind));
      expect(after.answer).toBeDefined();
    });

    it(`${kind}: a paste, Backspace, Space and bursts during the guard go to the input; Ctrl keys never do`, () => {
      const keys = [
        makeKey('paste', { text: 'y', paste: true, at: 1_050 }),
        makeKey('backspace', { at: 1_100 }),
        makeKey('space', { text: ' ', at: 1_150 }),
        makeKey('text', { text: 'yyy', burst: true, at: 1_200 }),
      ];
      for (const result of feed(kind, keys)) {
        expect(result.answer).toBeUndefined();
        expect(result.handled).toBe(false);
      }
      const ctrl = frameKey(newFrameUi('f', 10, 80, kind), makeKey('char:y', { ctrl: true, at: 1_050 }), context(kind));
      expect(ctrl.answer).toBeUndefined();
    });

    it(`${kind}: keys typed while the app was busy, read together after the delay, are typing and restart the guard`, () => {
      // The frame was drawn at 1_000, then the app stalled; the keys typed meanwhile arrive in one
      // read at 2_000, and the typist's next letters follow.
      const results = feed(kind, [makeKey('text', { text: 'd the tes', burst: true, at: 2_000 }), text('t', 2_030), text('s', 2_060), text('y', 2_090)]);
      for (const result of results) {
        expect(result.answer).toBeUndefined();
        expect(result.handled).toBe(false);
      }
    });

    it(`${kind}: once the guard is over, keys no longer restart it (scroll, then answer at once)`, () => {
      const results = feed(kind, [makeKey('down', { at: 1_000 + APPROVAL_DELAY_MS + 50 }), text('y', 1_000 + APPROVAL_DELAY_MS + 60)]);
      expect(results[1]!.answer?.answer.action).toBe(kind === 'approval' ? 'allow' : 'run');
    });
  }
});
