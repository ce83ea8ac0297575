import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionFor, KEYMAP, letterFor, parseSpec, type KeyAction, type KeyBinding, type KeyContext } from '../../../src/ui/keys/keymap';
import { CHAT_ACTIONS, CORE_ACTIONS, NAVIGATION_ACTIONS } from '../../../src/ui/keys/globalKeys';
import { CONNECT_ACTIONS, DETAIL_ACTIONS, SIDEBAR_ACTIONS } from '../../../src/ui/containers/SidebarContainer';
import { INPUT_ACTIONS } from '../../../src/ui/containers/InputContainer';
import { PICKER_ACTIONS } from '../../../src/ui/containers/PickerContainer';
import { APPROVAL_DELAY_MS, FRAME_BUTTON_ACTIONS, frameKey, newFrameUi, type FrameKeyContext } from '../../../src/ui/keys/frameKeys';
import { applyEditorKey, editorFromText } from '../../../src/ui/input/editor';
import { APPROVAL_BUTTONS } from '../../../src/ui/panels/ApprovalFrame';
import { COMMAND_BUTTONS } from '../../../src/ui/panels/CommandFrame';
import { SAMPLING_BUTTONS } from '../../../src/ui/panels/SamplingFrame';
import { makeKey, type KeyEvent, type KeyName } from '../../../src/terminal/keyboard/keys';

// The key table is the dispatch table: every action it names is acted on by a handler, and the
// handlers act on nothing else (they look keys up in the table instead of naming them).

const table: readonly KeyBinding[] = KEYMAP;
const root = path.resolve(import.meta.dirname, '..', '..', '..');

/** The key a spec describes, as the keyboard reader would deliver it typed on its own. */
function keyFor(spec: string, at = 10_000): KeyEvent {
  const { ctrl, meta, shift, base } = parseSpec(spec);
  const fields = { ctrl, meta, shift: shift ?? false, at };
  if (base === 'paste') return makeKey('paste', { ...fields, text: 'pasted', paste: true });
  if (base === 'other') return makeKey('text', { ...fields, text: 'q' });
  if ([...base].length === 1) return ctrl || meta ? makeKey(`char:${base}`, { ...fields, text: base }) : makeKey('text', { ...fields, text: base });
  return makeKey(base as KeyName, fields);
}

const specs = (contexts: readonly KeyContext[]) =>
  table.filter((binding) => contexts.includes(binding.where)).flatMap((binding) => Object.entries(binding.bind).map(([spec, action]) => ({ context: binding.where, spec, action })));

/** The handlers that are action maps, keyed by action id. */
const ACTION_MAPS = { CORE_ACTIONS, NAVIGATION_ACTIONS, CHAT_ACTIONS, SIDEBAR_ACTIONS, CONNECT_ACTIONS, DETAIL_ACTIONS, INPUT_ACTIONS, PICKER_ACTIONS };
/** Contexts whose handlers are a switch over the table's actions (tested by running them below). */
const SWITCH_CONTEXTS: readonly KeyContext[] = ['approval', 'command', 'form', 'link', 'sampling', 'line', 'edit'];
/** Actions of the input context that the line editor carries out (it reads them from the table). */
const EDITOR_INPUT_ACTIONS: readonly string[] = ['input.send', 'input.newline'];

describe('the key table is the dispatch table', () => {
  it('every spec parses, names a key the entry shows, and finds its own action', () => {
    const label = (base: string) =>
      ({ up: '↑', down: '↓', left: '←', right: '→', return: 'Enter', escape: 'Esc', pageup: 'PgUp', pagedown: 'PgDn', backspace: 'Backspace', delete: 'Delete', home: 'Home', end: 'End', tab: 'Tab', paste: 'paste', other: 'other letters' })[base] ?? (base.length === 1 ? base.toUpperCase() : base);
    for (const { context, spec, action } of specs(['everywhere', 'input', 'edit', 'sidebar', 'chat', 'approval', 'command', 'form', 'link', 'sampling', 'line', 'details', 'prompt', 'picker'])) {
      const { ctrl, meta, shift, base } = parseSpec(spec);
      const binding = table.find((entry) => entry.where === context && entry.bind[spec] === action)!;
      const shown = `${binding.keys} ${binding.does}`;
      if (base !== 'space') {
        const name = [ctrl ? 'Ctrl+' : '', meta ? 'Alt+' : '', shift ? 'Shift+' : '', label(base)].join('');
        // Letters on their own are shown lower-case (`y`), with a modifier upper-case (`Ctrl+A`).
        const shownName = !ctrl && !meta && !shift && base.length === 1 ? base : name;
        expect(shown, `${context} ${spec}`).toContain(shownName);
      }
      expect(actionFor(context, keyFor(spec)), `${context} ${spec}`).toBe(action);
    }
  });

  it('every action in the table is handled by a dispatcher, and every handled action is in the table', () => {
    const tableActions = new Set(table.flatMap((binding) => Object.values(binding.bind)));
    const mapped = new Set(Object.values(ACTION_MAPS).flatMap((handlers) => Object.keys(handlers)));
    for (const action of mapped) expect(tableActions, action).toContain(action);
    const bySwitch = new Set(specs(SWITCH_CONTEXTS).map(({ action }) => action));
    for (const action of tableActions) {
      expect(mapped.has(action) || bySwitch.has(action) || EDITOR_INPUT_ACTIONS.includes(action), `no handler for ${action}`).toBe(true);
    }
  });

  it('every frame key does something: an answer, a move, a scroll or a hint', () => {
    for (const kind of ['approval', 'command'] as const) {
      const context: FrameKeyContext = { kind, shownAt: 0, total: 30, viewport: 10, command: 'ls' };
      for (const { spec, action } of specs([kind])) {
        const ui = { ...newFrameUi('f', 10, 80), scrollTop: 5, seen: 30, button: 1 };
        const key = keyFor(spec, APPROVAL_DELAY_MS + 1);
        // A run of letters that holds an answer key is what a frame explains.
        const result = frameKey(ui, action === 'frame.refuseText' ? { ...key, text: 'yes' } : key, context);
        expect(result.handled, `${kind} ${spec}`).toBe(true);
        expect(result.answer !== undefined || result.ui !== ui || result.hint !== undefined, `${kind} ${spec} did nothing`).toBe(true);
      }
      for (const { spec } of specs(['line'])) {
        const ui = { ...newFrameUi('f', 10, 80), mode: kind === 'approval' ? ('reason' as const) : ('edit' as const), field: editorFromText('why') };
        const result = frameKey(ui, keyFor(spec, APPROVAL_DELAY_MS + 1), context);
        expect(result.answer !== undefined || result.ui !== ui || result.hint !== undefined, `line ${spec} did nothing`).toBe(true);
      }
    }
  });

  it('every sampling frame key does something: an answer, a move, a scroll or a hint; the edit field takes many lines', () => {
    for (const kind of ['samplingRequest', 'samplingResult'] as const) {
      const context: FrameKeyContext = { kind, shownAt: 0, total: 30, viewport: 10, command: '### user\nhi' };
      for (const { spec, action } of specs(['sampling'])) {
        const ui = { ...newFrameUi('f', 10, 80), scrollTop: 5, seen: 30, button: 1 };
        const key = keyFor(spec, APPROVAL_DELAY_MS + 1);
        const result = frameKey(ui, action === 'frame.refuseText' ? { ...key, text: 'yes' } : key, context);
        expect(result.handled, `${kind} ${spec}`).toBe(true);
        expect(result.answer !== undefined || result.ui !== ui || result.hint !== undefined, `${kind} ${spec} did nothing`).toBe(true);
      }
      const editing = { ...newFrameUi('f', 10, 80), mode: 'edit' as const, field: editorFromText('### user\nhi') };
      const newline = frameKey(editing, makeKey('char:j', { ctrl: true, at: APPROVAL_DELAY_MS + 1 }), context);
      expect(newline.ui.field.text).toBe('### user\nhi\n');
      const enter = frameKey(editing, makeKey('return', { at: APPROVAL_DELAY_MS + 1 }), context);
      expect(enter.answer).toEqual({ kind: 'sampling', answer: kind === 'samplingRequest' ? { action: 'edit', text: '### user\nhi' } : { action: 'approve', text: '### user\nhi' } });
    }
    for (const [stage, kind] of [['request', 'samplingRequest'], ['running', 'samplingRunning'], ['result', 'samplingResult']] as const) {
      expect(SAMPLING_BUTTONS[stage].map((button) => button.key)).toEqual(FRAME_BUTTON_ACTIONS[kind].map((action) => letterFor('sampling', action)));
    }
  });

  it("the frames' buttons show the table's letters, and a button's letter and Enter on that button give the same answer", () => {
    for (const [kind, buttons] of [['approval', APPROVAL_BUTTONS], ['command', COMMAND_BUTTONS]] as const) {
      expect(buttons.map((button) => button.key)).toEqual(FRAME_BUTTON_ACTIONS[kind].map((action) => letterFor(kind, action)));
      const context: FrameKeyContext = { kind, shownAt: 0, total: 5, viewport: 10, command: 'ls' };
      buttons.forEach((button, index) => {
        const ui = { ...newFrameUi('f', 10, 80), button: index };
        const byEnter = frameKey(ui, makeKey('return', { at: APPROVAL_DELAY_MS + 1 }), context);
        const byLetter = frameKey(ui, makeKey('text', { text: button.key, at: APPROVAL_DELAY_MS + 1 }), context);
        expect(byLetter.answer ?? byLetter.ui.mode, `${kind} ${button.key}`).toEqual(byEnter.answer ?? byEnter.ui.mode);
        expect(byLetter.answer !== undefined || byLetter.ui.mode !== 'buttons', `${kind} ${button.key} answers nothing`).toBe(true);
      });
    }
  });

  it('every editing key changes the text or the cursor; Enter and the newline keys do what the input table says', () => {
    const middle = { ...editorFromText('one two\nthree four\nfive'), cursor: 12, killed: 'x' };
    for (const { spec } of specs(['edit'])) {
      const result = applyEditorKey(middle, keyFor(spec), { multiline: true });
      expect(result.kind, spec).toBe('edit');
      if (result.kind === 'edit') expect(result.state.text !== middle.text || result.state.cursor !== middle.cursor, `${spec} did nothing`).toBe(true);
    }
    for (const { spec, action } of specs(['input']).filter(({ action }) => EDITOR_INPUT_ACTIONS.includes(action))) {
      const result = applyEditorKey(middle, keyFor(spec), { multiline: true });
      expect(result.kind, spec).toBe(action === 'input.send' ? 'submit' : 'edit');
    }
  });

  it('keys the table does not list do nothing in the editor and the panels', () => {
    const unlisted = [makeKey('char:t', { ctrl: true, text: 't' }), makeKey('char:z', { meta: true, text: 'z' }), makeKey('f5'), makeKey('insert')];
    for (const key of unlisted) {
      for (const context of ['everywhere', 'input', 'edit', 'sidebar', 'chat', 'approval', 'command', 'line', 'details', 'prompt', 'picker'] as const) {
        expect(actionFor(context, key), `${context} ${key.name}`).toBeUndefined();
      }
      expect(applyEditorKey(editorFromText('abc'), key, { multiline: true }).kind).toBe('ignored');
    }
  });

  it('the handlers name no keys: they look every key up in the table', () => {
    const files = [
      'src/ui/keys/globalKeys.ts',
      'src/ui/keys/frameKeys.ts',
      'src/ui/keys/formKeys.ts',
      'src/ui/keys/useKeys.ts',
      'src/ui/containers/InputContainer.tsx',
      'src/ui/containers/SidebarContainer.tsx',
      'src/ui/containers/ChatContainer.tsx',
      'src/ui/containers/StatusContainer.tsx',
      'src/ui/Frames.tsx',
      'src/ui/App.tsx',
      'src/ui/input/editor.ts',
    ];
    const keyNames = /\bkey\.name\b|\bisCtrl\(|\bisMeta\(|\bkey\.text\s*===|case '(?:up|down|left|right|home|end|return|escape|tab|text|paste|pageup|pagedown|backspace|delete|space)'/;
    const offenders: string[] = [];
    for (const file of files) {
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .forEach((line, index) => {
          if (keyNames.test(line)) offenders.push(`${file}:${index + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});
