import { describe, expect, it } from 'vitest';
import { APPROVAL_DELAY_MS, frameKey, newFrameUi, type FrameKeyContext } from '../../../src/ui/keys/frameKeys';
import { expandText } from '../../../src/ui/input/editor';
import { makeKey } from '../../../src/terminal/keyboard/keys';
import type { FrameUi } from '../../../src/state/types';

// README.md, "Safety": a proposed command or a tool call whose text hides characters (carriage
// returns, backspaces, escapes, bidi, zero-width) cannot be run with one key.

const at = APPROVAL_DELAY_MS + 100;
const letter = (text: string, when = at) => makeKey('text', { text, at: when });
const enter = (when = at) => makeKey('return', { at: when });

describe('a command that hides characters', () => {
  const context: FrameKeyContext = { kind: 'command', shownAt: 0, total: 1, viewport: 1, command: 'echo safe\rrm -rf ~', mustEdit: 'it holds control or invisible characters (\\r)', edited: 'echo saferm -rf ~' };

  it('y and Enter on Run refuse, saying e edits it', () => {
    // Run is chosen on purpose (a new frame starts on skip).
    const ui = { ...newFrameUi('c', 1, 80, 'command'), button: 0 };
    for (const key of [letter('y'), enter()]) {
      const result = frameKey(ui, key, context);
      expect(result.answer).toBeUndefined();
      expect(result.hint).toBe('hidden characters: edit it with e first');
    }
  });

  it('e opens the edit line without the hidden characters; Enter runs exactly that line', () => {
    const editing = frameKey(newFrameUi('c', 1, 80), letter('e'), context).ui;
    expect(editing.mode).toBe('edit');
    expect(expandText(editing.field)).toBe('echo saferm -rf ~');
    const ran = frameKey(editing, enter(at + 500), context);
    expect(ran.answer).toEqual({ kind: 'command', answer: { action: 'run', command: 'echo saferm -rf ~' } });
  });

  it('a command without them runs with y', () => {
    const plain: FrameKeyContext = { kind: 'command', shownAt: 0, total: 1, viewport: 1, command: 'ls' };
    expect(frameKey(newFrameUi('c', 1, 80), letter('y'), plain).answer).toEqual({ kind: 'command', answer: { action: 'run', command: 'ls' } });
  });
});

describe('a tool call whose arguments hide characters', () => {
  const context: FrameKeyContext = { kind: 'approval', shownAt: 0, total: 1, viewport: 1, confirmAllow: 'hidden characters in the arguments' };

  it('takes the same allow key twice in a row', () => {
    let ui: FrameUi = newFrameUi('a', 1, 80);
    const first = frameKey(ui, letter('y'), context);
    expect(first.answer).toBeUndefined();
    expect(first.hint).toBe('hidden characters in the arguments: press it again to allow');
    ui = first.ui;
    expect(frameKey(ui, letter('y', at + 300), context).answer).toEqual({ kind: 'approval', answer: { action: 'allow', scope: 'once' } });
  });

  it('another key in between starts over; a different allow key is a new first press', () => {
    const once = frameKey(newFrameUi('a', 1, 80), letter('y'), context).ui;
    const moved = frameKey(once, makeKey('right', { at: at + 100 }), context).ui;
    expect(frameKey(moved, letter('y', at + 200), context).answer).toBeUndefined();
    const switched = frameKey(once, letter('t', at + 100), context);
    expect(switched.answer).toBeUndefined();
    expect(frameKey(switched.ui, letter('t', at + 200), context).answer).toEqual({ kind: 'approval', answer: { action: 'allow', scope: 'tool' } });
  });

  it('a burst of the key never confirms', () => {
    const once = frameKey(newFrameUi('a', 1, 80), letter('y'), context).ui;
    const burst = frameKey(once, { ...letter('y', at + 100), burst: true }, context);
    expect(burst.answer).toBeUndefined();
    expect(frameKey(burst.ui, letter('y', at + 200), context).answer).toBeUndefined();
  });

  it('deny still takes one key', () => {
    expect(frameKey(newFrameUi('a', 1, 80), letter('n'), context).answer).toEqual({ kind: 'approval', answer: { action: 'deny' } });
  });
});
