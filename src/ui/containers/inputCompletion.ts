// Tab completion in the input (the logic; runtime/completion.ts has the candidates): a `:` / `/`
// command line, or the `@word` before the cursor from its completion source. Candidates show in
// the status bar while Tab cycles through them.
import type { AppStore } from '../../state/store';
import type { EditorState } from '../../state/types';
import { findCompletion, commonPrefix, DEFAULT_COMMANDS, type CompletionSources } from '../../runtime/completion';
import { flashHint } from '../../runtime/hints';
import { editorFromText } from '../input/editor';
import { atWordBefore } from '../input/completes';
import type { UiEnv } from '../StoreContext';
import type { InputKeyDeps } from './InputContainer';

export interface CompletionCycle {
  /** The text Tab produced last; another Tab on the same text moves on to the next candidate. */
  text: string;
  from: number;
  candidates: string[];
  index: number;
}

function completionSources(store: AppStore, env: UiEnv, controller?: InputKeyDeps['controller']): CompletionSources {
  const state = store.getState();
  const tools: string[] = [];
  for (const alias of state.order) for (const tool of state.servers[alias]?.tools ?? []) tools.push(`${alias}__${tool.name}`);
  return { commands: env.commands ?? DEFAULT_COMMANDS, models: env.modelNames, aliases: state.order, tools, sessions: env.sessionIds?.() ?? [], roots: controller?.roots?.() ?? [], prompts: controller?.promptNames?.() ?? [] };
}

const NOTHING_TO_COMPLETE = 'nothing to complete';
/** Takes down what an earlier Tab put in the status bar, if it is still there. */
export function clearCompletionHint(deps: InputKeyDeps): void {
  const shown = deps.completionHint;
  if (!shown) return;
  deps.completionHint = undefined;
  if (deps.store.getState().hint === shown.hint) deps.store.getState().setHint(undefined);
}

/** What Tab completes before the cursor: an `@word` from its source, else a `:` / `/` command line. */
function findAt(deps: InputKeyDeps, editor: EditorState, before: string) {
  const at = atWordBefore(editor);
  if (!at) return findCompletion(before, completionSources(deps.store, deps.env, deps.controller));
  const source = deps.env.completionSources?.find((candidate) => candidate.trigger === '@');
  if (!source) return undefined;
  return { from: at.from, word: at.word, candidates: [...source.complete(at.word)] };
}

export function complete(deps: InputKeyDeps, editor: EditorState): void {
  const { store } = deps;
  // Completion works on the text before the cursor; what follows it stays as it is.
  const text = editor.text.slice(0, editor.cursor);
  const after = editor.text.slice(editor.cursor);
  const cycle = deps.cycle.current;
  const set = (next: string) => store.getState().setEditor({ ...editorFromText(next + after), cursor: next.length, pastes: editor.pastes, literal: editor.literal, killed: editor.killed });
  if (cycle && cycle.text === text && after.length === 0) {
    const index = (cycle.index + 1) % cycle.candidates.length;
    const next = text.slice(0, cycle.from) + cycle.candidates[index]!;
    deps.cycle.current = { ...cycle, text: next, index };
    set(next);
    // Cycling keeps the list it cycles through on show.
    if (deps.completionHint) deps.completionHint = { ...deps.completionHint, text: next };
    return;
  }
  // A new completion: whatever an earlier Tab said (candidates, or that there was nothing) is stale.
  clearCompletionHint(deps);
  const found = findAt(deps, editor, text);
  if (!found || found.candidates.length === 0) {
    flashHint(store, NOTHING_TO_COMPLETE);
    deps.completionHint = { hint: NOTHING_TO_COMPLETE, text, once: true };
    return;
  }
  if (found.candidates.length === 1) {
    const only = found.candidates[0]!;
    // A folder stays open for the next Tab; anything else is a finished word.
    set(text.slice(0, found.from) + only + (only.endsWith('/') ? '' : ' '));
    return;
  }
  const prefix = commonPrefix(found.candidates);
  if (prefix.length > found.word.length) {
    set(text.slice(0, found.from) + prefix);
  } else {
    const next = text.slice(0, found.from) + found.candidates[0]!;
    deps.cycle.current = { text: next, from: found.from, candidates: found.candidates, index: 0 };
    set(next);
  }
  const hint = found.candidates.join('  ');
  flashHint(store, hint, 5000);
  deps.completionHint = { hint, text: store.getState().editor.text };
}

/** Candidates listed for another text are stale: they go as soon as the input changes. */
export function dropStaleCompletionHint(deps: InputKeyDeps): void {
  const shown = deps.completionHint;
  if (!shown) return;
  const state = deps.store.getState();
  if (state.hint !== shown.hint) {
    deps.completionHint = undefined;
    return;
  }
  if (state.editor.text === shown.text) return;
  deps.completionHint = undefined;
  state.setHint(undefined);
}
