import { describe, expect, it } from 'vitest';
import { APPROVAL_DELAY_MS, frameKey, newFrameUi, type FrameKeyContext } from '../../../src/ui/keys/frameKeys';
import { makeKey } from '../../../src/terminal/keyboard/keys';
import { expandText } from '../../../src/ui/input/editor';

// The tool frame's argument field (`a`) and rule line (`r`): they open only past the key guard,
// Enter sends what they hold for the conversation to check, and a rule (which may allow the call)
// is saved only once the whole call has been on screen.

const at = 1_000 + APPROVAL_DELAY_MS + 10;
const context = (total = 3): FrameKeyContext => ({ kind: 'approval', shownAt: 1_000, total, viewport: 10, argumentsText: '{\n  "path": "/a"\n}', ruleText: 'allow project fs__read_file' });

describe('argument field and rule line', () => {
  it('a opens the arguments as JSON; Enter answers an edit with the field text; Ctrl+J adds a line', () => {
    const early = frameKey(newFrameUi('f', 10, 80), makeKey('text', { text: 'a', at: 1_100 }), context());
    expect(early.ui.mode).toBe('buttons');
    const open = frameKey(newFrameUi('f', 10, 80), makeKey('text', { text: 'a', at }), context());
    expect(open.ui.mode).toBe('args');
    expect(expandText(open.ui.field)).toBe('{\n  "path": "/a"\n}');
    const newline = frameKey(open.ui, makeKey('char:j', { ctrl: true, at: at + 100 }), context());
    expect(expandText(newline.ui.field)).toBe('{\n  "path": "/a"\n}\n');
    const sent = frameKey(open.ui, makeKey('return', { at: at + 200 }), context());
    expect(sent.answer).toEqual({ kind: 'approval', answer: { action: 'edit', text: '{\n  "path": "/a"\n}' } });
  });

  it('r opens the rule line prefilled; Enter saves it only when the whole call was read', () => {
    const open = frameKey(newFrameUi('f', 10, 80), makeKey('text', { text: 'r', at }), context());
    expect(open.ui.mode).toBe('rule');
    expect(expandText(open.ui.field)).toBe('allow project fs__read_file');
    expect(frameKey(open.ui, makeKey('return', { at: at + 200 }), context()).answer).toEqual({ kind: 'approval', answer: { action: 'rule', text: 'allow project fs__read_file' } });
    const unread = frameKey(open.ui, makeKey('return', { at: at + 200 }), context(40));
    expect(unread.answer).toBeUndefined();
    expect(unread.hint).toMatch(/read the whole call first/);
  });
});
