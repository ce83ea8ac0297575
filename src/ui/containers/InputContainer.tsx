import { memo, useEffect, useRef } from 'react';
import { InputBar } from '../panels/InputBar';
import type { Theme } from '../../terminal/theme';
import { selectEditor, selectFocus, selectFrameWaiting, selectSomethingRuns } from '../../state/selectors';
import type { AppStore } from '../../state/store';
import { EMPTY_EDITOR } from '../../state/slices/ui';
import type { EditorState } from '../../state/types';
import type { AppController } from '../../runtime/controller';
import { flashHint } from '../../runtime/hints';
import { applyEditorKey, COLLAPSE_CHARS, COLLAPSE_LINES, editorFromText, expandText, insertText, lineCount } from '../input/editor';
import { KeyPriority } from '../../terminal/keyboard/keyInput';
import { MAX_PASTE_CHARS } from '../../terminal/keyboard/tokenizer';
import type { KeyEvent } from '../../terminal/keyboard/keys';
import { useKeys } from '../keys/useKeys';
import { clearCompletionHint, complete, dropStaleCompletionHint, type CompletionCycle } from './inputCompletion';
import { completesWithTab } from '../input/completes';
import { actionFor, runAction, type ActionHandlers, type KeyAction } from '../keys/keymap';
import { HistoryCursor } from '../../runtime/inputHistory';
import { useAppState, useAppStoreApi, useController, useUiEnv, type UiEnv } from '../StoreContext';

export interface InputKeyDeps {
  store: AppStore;
  controller: AppController;
  env: UiEnv;
  history: HistoryCursor;
  /** The input as it was before ↑ started walking the history (chips included). */
  stash: { current: EditorState | undefined };
  cycle: { current: CompletionCycle | undefined };
  /** The text the last history step put in the input. */
  recalledText?: string;
  /** Ctrl+X was pressed: Ctrl+E next opens the external editor. */
  chordPending?: boolean;
  /** When Esc was pressed on an empty, idle input (a second one soon after opens `:rewind`). */
  lastEscapeAt?: number;
  /**
   * What Tab put in the status bar and the text it was for: the candidates (kept while Tab cycles
   * through them), or `nothing to complete` (`once`: gone with the next key).
   */
  completionHint?: { hint: string; text: string; once?: boolean };
}

/** Two Esc presses this close on an empty input open `:rewind`. */
export const DOUBLE_ESCAPE_MS = 800;

function submit(deps: InputKeyDeps, editor: EditorState): void {
  const { store, controller, env } = deps;
  const text = expandText(editor);
  if (text.trim().length === 0) return;
  const state = store.getState();
  if (selectFrameWaiting(state)) {
    flashHint(store, 'answer the frame above first');
    return;
  }
  // An unknown `/word` or an attachment that cannot go: the draft stays, and the hint says why.
  const problem = controller.precheck?.(text, editor.literal ? { literal: true } : undefined);
  if (problem) {
    // The whole reason goes into the transcript (a status bar is too narrow for it).
    state.addStatus('warn', `not sent: ${problem}`);
    flashHint(store, 'not sent (see above); your message is still in the input', 6000);
    return;
  }
  env.history.add(text, editor.literal === true);
  deps.history.reset();
  deps.stash.current = undefined;
  state.setEditor({ ...EMPTY_EDITOR, killed: editor.killed });
  state.scrollToBottom();
  controller.submit(text, editor.literal ? { literal: true } : undefined);
}

/**
 * A history entry back in the input. A large one shows as a `[pasted N lines]` chip again, as it
 * did when it was sent (and, like any paste, a leading `:` or `!` in it stays text). Going back
 * (↑) puts the cursor on the first line, so the next ↑ moves on to the older entry: a multi-line
 * entry is one step; going forward (↓) puts it at the end, so the next ↓ moves on to the newer one.
 */
export function recalledEditor(entry: string, direction: 'up' | 'down', killed: string, literal = false): EditorState {
  const large = lineCount(entry) >= COLLAPSE_LINES || entry.length > COLLAPSE_CHARS;
  const state = large ? insertText(EMPTY_EDITOR, entry, true) : editorFromText(entry);
  const firstLineEnd = state.text.indexOf('\n');
  const cursor = direction === 'up' && firstLineEnd !== -1 ? firstLineEnd : state.text.length;
  // Sent as literal text (a pasted `!…`): sent again, it is a message again, never a command.
  return { ...state, cursor, killed, ...(literal ? { literal: true } : {}) };
}

function walkHistory(deps: InputKeyDeps, editor: EditorState, direction: 'up' | 'down'): boolean {
  const { store, history } = deps;
  const show = (next: EditorState) => {
    deps.recalledText = next.text;
    store.getState().setEditor(next);
  };
  if (direction === 'up') {
    if (!history.browsing) deps.stash.current = editor;
    const entry = history.previous(expandText(editor));
    if (entry === undefined) return true;
    show(recalledEditor(entry, 'up', editor.killed, deps.env.history.isLiteral(entry)));
    return true;
  }
  if (!history.browsing) return true;
  const entry = history.next();
  if (!history.browsing && deps.stash.current) {
    show(deps.stash.current);
    deps.stash.current = undefined;
    return true;
  }
  if (entry !== undefined) show(recalledEditor(entry, 'down', editor.killed, deps.env.history.isLiteral(entry)));
  return true;
}

/**
 * The input changed by something other than walking the history (typing, Ctrl+C clearing it,
 * sending): the walk is over, and the next ↑ starts again from the newest entry.
 */
function endStaleHistoryWalk(deps: InputKeyDeps, text: string): void {
  if (!deps.history.browsing || text === deps.recalledText) return;
  deps.history.reset();
  deps.stash.current = undefined;
  deps.recalledText = undefined;
}

/**
 * The input's own keys. Enter, the newline keys and the editing keys go through the line editor
 * (it reads them from the same table); ↑ / ↓ walk the history when the editor has no line to move to.
 */
export const INPUT_ACTIONS = {
  'input.cancel': (deps) => {
    const state = deps.store.getState();
    // The controller is asked first: it knows a message is running the moment Enter sends it,
    // while the store hears of it with the next frame (up to 1/maxFps later). An Esc pressed in
    // that gap cancels too.
    if (deps.controller.cancel()) {
      flashHint(deps.store, 'cancelled');
      deps.lastEscapeAt = undefined;
      return true;
    }
    if (selectSomethingRuns(state)) {
      deps.lastEscapeAt = undefined;
      return true;
    }
    // Esc twice on an empty input: go back to an earlier message (`:rewind`).
    const now = Date.now();
    if (state.editor.text.length === 0 && deps.lastEscapeAt !== undefined && now - deps.lastEscapeAt <= DOUBLE_ESCAPE_MS) {
      deps.lastEscapeAt = undefined;
      deps.controller.submit(':rewind');
      return true;
    }
    deps.lastEscapeAt = state.editor.text.length === 0 ? now : undefined;
    return true;
  },
  'input.complete': (deps) => {
    const editor = deps.store.getState().editor;
    if (!completesWithTab(editor)) return false;
    complete(deps, editor);
    return true;
  },
  'input.externalEditor': (deps) => openExternalEditor(deps),
  'input.chordPrefix': (deps) => {
    deps.chordPending = true;
    return true;
  },
  // Ctrl+E is the end of the line unless it follows Ctrl+X.
  'input.chordEditor': (deps) => (deps.chordPending ? openExternalEditor(deps) : false),
  'input.historyPrevious': (deps) => walkHistory(deps, deps.store.getState().editor, 'up'),
  'input.historyNext': (deps) => walkHistory(deps, deps.store.getState().editor, 'down'),
} satisfies ActionHandlers<KeyAction, [InputKeyDeps]>;

/** Ctrl+G: the draft goes to $VISUAL / $EDITOR; what is saved there comes back as the draft. */
function openExternalEditor(deps: InputKeyDeps): boolean {
  deps.chordPending = false;
  const { store, env } = deps;
  if (!env.editExternally) {
    flashHint(store, 'no external editor here');
    return true;
  }
  const before = store.getState().editor;
  void env.editExternally(expandText(before)).then((result) => {
    const state = store.getState();
    if ('error' in result) {
      // The draft is left exactly as it was.
      state.addStatus('error', `external editor: ${result.error}; your draft is unchanged`);
      return;
    }
    // Typing while the editor was open is not possible (the terminal was the editor's), so the
    // draft is still `before`: replace it.
    state.setEditor({ ...editorFromText(result.text), killed: before.killed });
  });
  return true;
}

/** Keys for the focused input: editing, sending, history, completion, Esc to cancel. */
export function handleInputKey(deps: InputKeyDeps, key: KeyEvent): boolean {
  const state = deps.store.getState();
  if (state.focus !== 'input') return false;
  const editor = state.editor;
  const chord = deps.chordPending;
  if (chord && actionFor('input', key) !== 'input.chordEditor') deps.chordPending = false;
  if (actionFor('input', key) !== 'input.cancel') deps.lastEscapeAt = undefined;
  // `nothing to complete` answered one Tab; the next key (typing, moving, another Tab) ends it.
  if (deps.completionHint?.once) clearCompletionHint(deps);

  const action = actionFor('input', key);
  // History waits for the editor: ↑ on a lower line of the message moves the cursor up.
  if (action !== 'input.historyPrevious' && action !== 'input.historyNext' && runAction<KeyAction, [InputKeyDeps]>(INPUT_ACTIONS, action, deps)) return true;
  if (key.truncated) flashHint(deps.store, `the paste was longer than ${MAX_PASTE_CHARS / 1024 / 1024} MB and was cut there`, 6000);
  const result = applyEditorKey(editor, key, { multiline: true });
  if (result.kind === 'submit') {
    submit(deps, result.state);
    return true;
  }
  if (result.kind === 'edit') {
    if (result.state !== editor) {
      // Moving the cursor keeps walking the history; changing the text makes it the new draft.
      if (result.state.text !== editor.text) {
        deps.history.reset();
        deps.stash.current = undefined;
        deps.cycle.current = undefined;
      }
      state.setEditor(result.state);
    }
    return true;
  }
  return runAction<KeyAction, [InputKeyDeps]>(INPUT_ACTIONS, action, deps);
}

export interface InputContainerProps {
  width: number;
  maxRows: number;
  theme: Theme;
}

/** The input bar and its keys; subscribes to the editor only, so typing re-renders only this. */
export const InputContainer = memo(function InputContainer({ width, maxRows, theme }: InputContainerProps) {
  const store = useAppStoreApi();
  const controller = useController();
  const env = useUiEnv();
  const editor = useAppState(selectEditor);
  // A frame or the connect prompt takes the keys while the focus stays here: no cursor then.
  const focused = useAppState((state) => selectFocus(state) === 'input' && !selectFrameWaiting(state) && state.sidebarUi.connect === undefined && state.picker === undefined);
  const deps = useRef<InputKeyDeps | undefined>(undefined);
  deps.current ??= { store, controller, env, history: new HistoryCursor(env.history), stash: { current: undefined }, cycle: { current: undefined } };
  deps.current.controller = controller;
  deps.current.env = env;
  useKeys((key) => handleInputKey(deps.current!, key), KeyPriority.panel);
  // Whatever changed the text (editing, Ctrl+C, history, sending), old candidates no longer apply.
  useEffect(() => {
    dropStaleCompletionHint(deps.current!);
    endStaleHistoryWalk(deps.current!, editor.text);
  }, [editor.text]);
  return <InputBar editor={editor} focused={focused} width={width} maxRows={maxRows} theme={theme} />;
});
