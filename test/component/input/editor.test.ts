import { describe, expect, it } from 'vitest';
import { applyEditorKey, editorFromText, emptyEditor, expandText, insertText, type EditorState } from '../../../src/ui/input/editor';
import { makeKey, type KeyEvent, type KeyName } from '../../../src/terminal/keyboard/keys';

const key = (name: KeyName, fields: Partial<KeyEvent> = {}) => makeKey(name, fields);
const ctrl = (letter: string) => makeKey(`char:${letter}`, { ctrl: true, text: letter });
const alt = (letter: string) => makeKey(`char:${letter}`, { meta: true, text: letter });
const text = (value: string) => makeKey('text', { text: value });

function run(state: EditorState, ...keys: KeyEvent[]): EditorState {
  let current = state;
  for (const entry of keys) {
    const result = applyEditorKey(current, entry, { multiline: true });
    if (result.kind !== 'ignored') current = result.state;
  }
  return current;
}

describe('line editor', () => {
  it('types, moves and deletes', () => {
    const state = run(emptyEditor, text('h'), text('e'), text('y'), key('left'), key('backspace'), text('a'), key('end'), text('!'));
    expect(state.text).toBe('hay!');
    expect(state.cursor).toBe(4);
    const deleted = run(state, key('home'), key('delete'));
    expect(deleted.text).toBe('ay!');
    expect(deleted.cursor).toBe(0);
  });

  it('Enter submits; Ctrl+J, Alt+Enter and Shift+Enter insert a newline', () => {
    expect(applyEditorKey(editorFromText('hi'), key('return'), { multiline: true }).kind).toBe('submit');
    const state = run(editorFromText('a'), ctrl('j'), text('b'), key('return', { meta: true }), text('c'), key('return', { shift: true }), text('d'));
    expect(state.text).toBe('a\nb\nc\nd');
  });

  it('readline keys: Ctrl+A/E/U/K/W/Y and Alt+B/F/D', () => {
    const base = editorFromText('say hello world');
    expect(run(base, ctrl('a')).cursor).toBe(0);
    expect(run(base, ctrl('a'), ctrl('e')).cursor).toBe(15);
    expect(run(base, ctrl('w')).text).toBe('say hello ');
    expect(run(base, alt('b'), alt('b')).cursor).toBe(4);
    expect(run(base, ctrl('a'), alt('f')).cursor).toBe(3);
    expect(run(base, ctrl('a'), alt('d')).text).toBe(' hello world');
    const killed = run(base, alt('b'), ctrl('u'));
    expect(killed.text).toBe('world');
    expect(run(killed, ctrl('e'), ctrl('y')).text).toBe('worldsay hello ');
    expect(run(base, ctrl('a'), alt('f'), ctrl('k')).text).toBe('say');
    expect(run(base, key('left', { ctrl: true })).cursor).toBe(10);
    expect(run(base, key('backspace', { meta: true })).text).toBe('say hello ');
  });

  it('never inserts letters for control keys it does not use', () => {
    const state = editorFromText('x');
    for (const letter of ['d', 's', 'l', 'c', 'g', 'o', 'r', 't', 'v', 'x', 'z']) {
      const result = applyEditorKey(state, ctrl(letter), { multiline: true });
      expect(result.kind, `Ctrl+${letter}`).toBe('ignored');
    }
    expect(applyEditorKey(state, alt('x'), { multiline: true }).kind).toBe('ignored');
    expect(applyEditorKey(state, key('f5'), { multiline: true }).kind).toBe('ignored');
  });

  it('moves between lines with ↑/↓ and reports the edges (for the history)', () => {
    const state = editorFromText('first line\nsecond');
    const up = applyEditorKey(state, key('up'), { multiline: true });
    expect(up.kind).toBe('edit');
    expect(up.kind === 'edit' && up.state.cursor).toBe(6);
    expect(applyEditorKey(state, key('down'), { multiline: true }).kind).toBe('ignored');
    expect(applyEditorKey({ ...state, cursor: 3 }, key('up'), { multiline: true }).kind).toBe('ignored');
  });

  it('inserts a paste as one edit; pasted newlines never submit', () => {
    const result = applyEditorKey(editorFromText('a'), key('paste', { text: 'b\nc\n', paste: true }), { multiline: true });
    expect(result.kind).toBe('edit');
    expect(result.kind === 'edit' && result.state.text).toBe('ab\nc\n');
  });

  it('collapses a large paste to one chip that expands on send and is deleted whole', () => {
    const pasted = Array.from({ length: 50 }, (_, index) => `line ${index + 1}`).join('\n');
    let state = run(editorFromText('see: '), key('paste', { text: pasted, paste: true }), text(' thanks'));
    expect(state.text.length).toBe('see: '.length + 1 + ' thanks'.length);
    expect(expandText(state)).toBe(`see: ${pasted} thanks`);
    state = run(state, ctrl('w'), key('backspace'), key('backspace'));
    expect(state.text).toBe('see: ');
    expect(Object.keys(state.pastes)).toHaveLength(0);
    expect(expandText(state)).toBe('see: ');
  });

  it('a literal private-use character typed later never expands to a paste', () => {
    const pasted = 'x\n'.repeat(20);
    let state = insertText(emptyEditor, pasted, true);
    const chip = state.text;
    state = insertText(state, chip);
    expect(expandText(state)).toBe(pasted + chip);
  });

  it('marks input that starts with pasted text as literal, and typed text at the start clears it', () => {
    const pasted = run(emptyEditor, key('paste', { text: ':quit', paste: true }));
    expect(pasted.literal).toBe(true);
    expect(run(pasted, key('end'), text('!')).literal).toBe(true);
    expect(run(pasted, key('home'), text(':')).literal).toBe(false);
    expect(run(emptyEditor, text(':'), key('paste', { text: 'quit', paste: true })).literal).toBe(false);
  });

  it('a one-line field turns pasted newlines into spaces and submits on Enter', () => {
    const result = applyEditorKey(emptyEditor, key('paste', { text: 'too\nmany\nlines', paste: true }), { multiline: false });
    expect(result.kind === 'edit' && result.state.text).toBe('too many lines');
    expect(applyEditorKey(emptyEditor, ctrl('j'), { multiline: false }).kind).toBe('submit');
  });
});
