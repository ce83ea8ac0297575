import type { ApprovalAnswer, CommandAnswer } from '../../services/conversation/types';
import type { FrameUi } from '../../state/types';
import type { SamplingAnswer } from '../../state/slices/sampling';
import { EMPTY_EDITOR } from '../../state/slices/ui';
import { applyEditorKey, editorFromText, expandText } from '../input/editor';
import { earliestAt, isDeliberate, type KeyEvent } from '../../terminal/keyboard/keys';
import { actionFor, type ContextAction } from './keymap';
import { markRead, rowsRead } from '../panels/frameLayout';

/**
 * What a key does in the approval or command frame: a pure function, so the rules that protect
 * the user are tested directly.
 *
 * - No answer is taken within APPROVAL_DELAY_MS of the frame appearing, nor from a key that was
 *   pasted, typed ahead in a burst, or read before the frame was shown. Every key that arrives
 *   while that guard runs restarts it: someone typing a sentence when the frame appears never
 *   answers it with a letter of that sentence.
 * - Text typed while the guard runs is not the frame's: it goes on to the input, where it stays.
 * - A new frame's focused button is the one that denies (skips), so Enter alone never allows.
 * - Allowing (y / t / s, or Enter on an allow button) also needs every line of the frame to have
 *   been on screen; denying never does.
 * - Scrolling and moving between buttons always work.
 */

export const APPROVAL_DELAY_MS = 400;

/** `sampling*`: a server's sampling request (before the model), its answer streaming, its answer (before the server). */
export type FrameKind = 'approval' | 'command' | 'samplingRequest' | 'samplingRunning' | 'samplingResult';

const isSampling = (kind: FrameKind) => kind === 'samplingRequest' || kind === 'samplingRunning' || kind === 'samplingResult';

export interface FrameKeyContext {
  kind: FrameKind;
  /** When the frame appeared. */
  shownAt: number;
  /** Body rows in all and on screen, from the last layout. */
  total: number;
  viewport: number;
  /** The command as proposed, or a sampling request or answer as text (prefills the edit field). */
  command?: string;
  /** Command frame: why the command cannot run as proposed (it hides characters); `y` refuses, `e` edits `edited`. */
  mustEdit?: string;
  /** What the edit line starts from when `mustEdit` is set. */
  edited?: string;
  /**
   * Approval frame: why allowing takes the same allow key twice (the arguments hide characters),
   * so no single key, typed out of habit, lets such a call run.
   */
  confirmAllow?: string;
  /** Approval frame: the arguments as formatted JSON (prefills the arguments field). */
  argumentsText?: string;
  /** Approval frame: the rule line's starting text (`allow project alias__tool`). */
  ruleText?: string;
}

export type FrameAnswer = { kind: 'approval'; answer: ApprovalAnswer } | { kind: 'command'; answer: CommandAnswer } | { kind: 'sampling'; answer: SamplingAnswer };

export interface FrameKeyResult {
  ui: FrameUi;
  answer?: FrameAnswer;
  /** Why a key was not taken, for the status bar. */
  hint?: string;
  /** False: not a frame key (e.g. Ctrl+S), others may use it. */
  handled: boolean;
}

/** The button a new frame starts on: deny / skip, never one that lets something run. */
export function defaultButton(kind: FrameKind): number {
  return FRAME_BUTTON_ACTIONS[kind].indexOf('frame.no');
}

export function newFrameUi(id: string, viewport: number, width: number, kind: FrameKind = 'approval'): FrameUi {
  return { id, button: defaultButton(kind), scrollTop: 0, seen: viewport, seenWidth: width, mode: 'buttons', field: EMPTY_EDITOR };
}

/** When the key guard ends: APPROVAL_DELAY_MS after the frame appeared or after the last key typed while it ran. */
export function guardEndsAt(ui: Pick<FrameUi, 'guardKeyAt'>, shownAt: number): number {
  return Math.max(shownAt, ui.guardKeyAt ?? shownAt) + APPROVAL_DELAY_MS;
}

function guarding(ui: FrameUi, context: FrameKeyContext, at: number): boolean {
  return at < guardEndsAt(ui, context.shownAt);
}

/** Every body row has been on screen (End alone does not count the rows it skipped). */
export function seenAll(ui: FrameUi, context: Pick<FrameKeyContext, 'total' | 'viewport'>): boolean {
  return rowsRead(ui.seen, ui.seenRuns, ui.scrollTop, context.viewport) >= context.total;
}

/** The keys work: the delay passed (at `now`) and every row has been on screen. */
export function isArmed(ui: FrameUi, context: FrameKeyContext, now: number): boolean {
  return !guarding(ui, context, now) && seenAll(ui, context);
}

function scrollTo(ui: FrameUi, top: number, context: FrameKeyContext): FrameUi {
  const max = Math.max(0, context.total - context.viewport);
  const scrollTop = Math.max(0, Math.min(top, max));
  // The rows on screen until now, then the rows on screen from now on.
  const before = markRead(ui.seen, ui.seenRuns, ui.scrollTop, ui.scrollTop + context.viewport);
  const after = markRead(before.seen, before.runs, scrollTop, scrollTop + context.viewport);
  return { ...ui, scrollTop, seen: after.seen, seenRuns: after.runs };
}

/** Read after the frame appeared, but possibly typed before it (read late, or read before it was drawn). */
function typedBeforeFrame(key: KeyEvent, context: Pick<FrameKeyContext, 'shownAt'>): boolean {
  return earliestAt(key) < context.shownAt;
}

/** Why an answer key is not taken now, or undefined when it is. */
export function lockReason(key: KeyEvent, context: Pick<FrameKeyContext, 'shownAt'>, ui?: Pick<FrameUi, 'guardKeyAt'>): string | undefined {
  if (key.paste) return 'pasted text never answers a frame';
  if (key.burst) return 'keys typed ahead never answer a frame; press the key again';
  // A key read late (the app was busy) may have been typed as early as the stall began: if that is
  // before the frame appeared, it was not typed for the frame. (The delay below counts from the
  // read: a key typed after the frame appeared was typed with it in view.)
  if (typedBeforeFrame(key, context)) return 'keys typed before the frame appeared never answer it';
  if (key.at - context.shownAt < APPROVAL_DELAY_MS) return 'the frame just appeared: press the key again';
  if (ui && key.at < guardEndsAt(ui, context.shownAt)) return 'keys were still arriving: wait a moment, then press the key again';
  return undefined;
}

/** What the line editor does with typing: letters, Space, a paste, deleting back. */
const TYPING_ACTIONS: ReadonlySet<string | undefined> = new Set(['edit.type', 'edit.space', 'edit.paste', 'edit.deleteBack']);

/** Typing meant for the message being written (never Enter, Esc, or a key that moves or answers). */
export function isTyping(key: KeyEvent): boolean {
  return TYPING_ACTIONS.has(actionFor('edit', key));
}

const TYPED_AHEAD_HINT = 'your typing stays in the input; answer the frame once you stop typing';

type FrameAction = ContextAction<'approval'> | ContextAction<'command'> | ContextAction<'sampling'>;

/**
 * The frames' buttons, left to right, by the action each one presses. The panels draw them with
 * their letters (APPROVAL_BUTTONS, COMMAND_BUTTONS; panels do not import the key table), and a
 * test checks those letters against the table in this order.
 */
export const FRAME_BUTTON_ACTIONS = {
  approval: ['approval.allowOnce', 'approval.allowTool', 'approval.allowServer', 'frame.no', 'frame.edit', 'approval.editArguments', 'approval.saveRule'],
  command: ['command.run', 'frame.edit', 'frame.no'],
  samplingRequest: ['sampling.approve', 'frame.edit', 'frame.no'],
  samplingRunning: ['frame.no'],
  samplingResult: ['sampling.approve', 'frame.edit', 'frame.no'],
} as const satisfies Record<FrameKind, readonly FrameAction[]>;

function samplingAnswerFor(kind: FrameKind, action: FrameAction, ui: FrameUi, context: FrameKeyContext): FrameKeyResult {
  switch (action) {
    case 'sampling.approve':
      if (kind === 'samplingRunning') return { ui, handled: true };
      if (!seenAll(ui, context)) return { ui, handled: true, hint: `read the whole ${kind === 'samplingRequest' ? 'request' : 'answer'} first (↓ / PgDn), then approve` };
      return { ui, handled: true, answer: { kind: 'sampling', answer: { action: 'approve' } } };
    case 'frame.no':
      return { ui, handled: true, answer: { kind: 'sampling', answer: { action: 'deny' } } };
    case 'frame.edit':
      if (kind === 'samplingRunning') return { ui, handled: true };
      return { ui: { ...ui, mode: 'edit', field: editorFromText(context.command ?? ''), button: 1 }, handled: true };
  }
  return { ui, handled: true };
}

function answerFor(kind: FrameKind, action: FrameAction, ui: FrameUi, context: FrameKeyContext): FrameKeyResult {
  if (isSampling(kind)) return samplingAnswerFor(kind, action, ui, context);
  if (kind === 'approval') {
    switch (action) {
      case 'approval.allowOnce':
      case 'approval.allowTool':
      case 'approval.allowServer': {
        if (!seenAll(ui, context)) return { ui, handled: true, hint: 'read the whole call first (↓ / PgDn), then approve' };
        if (context.confirmAllow && ui.confirming !== action) {
          return { ui: { ...ui, confirming: action }, handled: true, hint: `${context.confirmAllow}: press it again to allow` };
        }
        const scope = action === 'approval.allowOnce' ? 'once' : action === 'approval.allowTool' ? 'tool' : 'server';
        return { ui, handled: true, answer: { kind: 'approval', answer: { action: 'allow', scope } } };
      }
      case 'frame.no':
        return { ui, handled: true, answer: { kind: 'approval', answer: { action: 'deny' } } };
      case 'frame.edit':
        return { ui: { ...ui, mode: 'reason', field: EMPTY_EDITOR, button: 4 }, handled: true };
      case 'approval.editArguments':
        return { ui: { ...ui, mode: 'args', field: editorFromText(context.argumentsText ?? '{}'), button: 5 }, handled: true };
      case 'approval.saveRule':
        return { ui: { ...ui, mode: 'rule', field: editorFromText(context.ruleText ?? ''), button: 6 }, handled: true };
    }
  } else {
    switch (action) {
      case 'command.run':
        if (!seenAll(ui, context)) return { ui, handled: true, hint: 'read the whole command first (↓ / PgDn), then run it' };
        // No key runs a command that hides characters: only the edited line, which shows all it holds.
        if (context.mustEdit) return { ui, handled: true, hint: 'hidden characters: edit it with e first' };
        return { ui, handled: true, answer: { kind: 'command', answer: { action: 'run', command: context.command ?? '' } } };
      case 'frame.no':
        return { ui, handled: true, answer: { kind: 'command', answer: { action: 'skip' } } };
      case 'frame.edit':
        return { ui: { ...ui, mode: 'edit', field: editorFromText((context.mustEdit ? context.edited : undefined) ?? context.command ?? ''), button: 1 }, handled: true };
    }
  }
  return { ui, handled: true };
}

/**
 * The reason line (approval) or the command line (command frame). One-line fields are the line
 * editor (src/ui/input/editor.ts) fed by the app's one keyboard reader, drawn by fieldLine
 * (src/ui/panels/editorView.ts). The design named ink-text-input for them; it was removed because
 * it cannot work without a second reader of the keyboard: it takes keys only through Ink's
 * useInput, which on mount calls Ink's setRawMode(true) — Ink then attaches its own 'readable'
 * listener to stdin and parses the raw bytes itself, beside the tokenizer — and on unmount
 * setRawMode(false), which would put the terminal back in cooked mode under our reader. Ink's
 * StdinContext is not exported, so it cannot be handed a stdin our reader drives short of
 * re-encoding parsed keys into escape sequences for Ink's parser, which loses the paste / burst /
 * read-time marks the frames' guarantees rest on (docs/ARCHITECTURE.md, Security invariants 2 and 9: ink-text-input submits on
 * any Enter, a pasted or typed-ahead one included). Its cursor is private state that starts at
 * the end of the value, so Ctrl+A/E/U/W cannot be added by wrapping it; with focus off it draws
 * the bare value, unsanitized and without a cursor.
 */
function fieldKey(ui: FrameUi, key: KeyEvent, context: FrameKeyContext): FrameKeyResult {
  if (actionFor('line', key) === 'line.back') return { ui: { ...ui, mode: 'buttons', field: EMPTY_EDITOR }, handled: true };
  // Ctrl+G opens $EDITOR in the arguments field (ui/Frames.tsx, it needs the terminal); elsewhere it says so.
  if (actionFor('line', key) === 'line.externalEditor') return { ui, handled: true, hint: ui.mode === 'args' ? 'no external editor here' : 'Ctrl+G opens $EDITOR in the arguments field (a in a tool frame)' };
  // A sampling request or answer has many lines: Enter uses the edit, Ctrl+J starts a new line.
  const result = applyEditorKey(ui.field, key, { multiline: isSampling(context.kind) || ui.mode === 'args' });
  if (result.kind === 'edit') return { ui: { ...ui, field: result.state }, handled: true };
  if (result.kind === 'submit') {
    if (!isDeliberate(key)) return { ui, handled: true, hint: 'a pasted or typed-ahead Enter never answers a frame' };
    const text = expandText(result.state).trim();
    if (context.kind === 'samplingRequest') return { ui, handled: true, answer: { kind: 'sampling', answer: { action: 'edit', text } } };
    if (context.kind === 'samplingResult') return { ui, handled: true, answer: { kind: 'sampling', answer: { action: 'approve', text: expandText(result.state) } } };
    if (context.kind === 'samplingRunning') return { ui: { ...ui, mode: 'buttons', field: EMPTY_EDITOR }, handled: true };
    // Edited arguments and rule lines are checked by the conversation, which shows the call again.
    if (context.kind === 'approval' && ui.mode === 'args') return { ui, handled: true, answer: { kind: 'approval', answer: { action: 'edit', text: expandText(result.state) } } };
    if (context.kind === 'approval' && ui.mode === 'rule') {
      if (!text) return { ui, handled: true, hint: 'the rule is empty: Esc goes back' };
      // A saved allow rule lets the call run: like the allow keys, only once all of it was read.
      if (!seenAll(ui, context)) return { ui, handled: true, hint: 'read the whole call first (Esc, then ↓ / PgDn), then save the rule' };
      return { ui, handled: true, answer: { kind: 'approval', answer: { action: 'rule', text } } };
    }
    if (context.kind === 'approval') {
      return { ui, handled: true, answer: { kind: 'approval', answer: { action: 'deny', ...(text ? { reason: text } : {}) } } };
    }
    if (!text) return { ui, handled: true, hint: 'the command is empty: Esc goes back' };
    return { ui, handled: true, answer: { kind: 'command', answer: { action: 'run', command: text } } };
  }
  // Ctrl/Alt keys the line does not use go on to the global keys.
  return { ui, handled: !(key.ctrl || key.meta) };
}

/** The frame's action for `key`: letters count in either case (Y allows like y). */
function frameAction(kind: FrameKind, key: KeyEvent): FrameAction | undefined {
  // Ctrl and Alt letters match by their key name, so lower-casing the text touches typed letters only.
  const lettered = { ...key, text: key.text.toLowerCase() };
  if (isSampling(kind)) return actionFor('sampling', lettered);
  return kind === 'approval' ? actionFor('approval', lettered) : actionFor('command', lettered);
}

export function frameKey(current: FrameUi, key: KeyEvent, context: FrameKeyContext): FrameKeyResult {
  if (current.mode !== 'buttons') return fieldKey(current, key, context);
  // A key while the guard runs restarts it (whatever the key does), and typing goes to the input.
  // A burst of text is typing whenever it comes: when the app was busy as the frame
  // appeared, keys typed meanwhile are read together only after the delay has passed.
  // A key typed before the frame appeared (read late because the app was busy) is typing too.
  const guarded = guarding(current, context, key.at) || typedBeforeFrame(key, context) || (key.burst && isTyping(key));
  const ui = guarded && key.at > (current.guardKeyAt ?? -Infinity) ? { ...current, guardKeyAt: key.at } : current;
  if (guarded && isTyping(key)) return { ui, handled: false, hint: TYPED_AHEAD_HINT };
  const result = buttonKey(ui, key, context, current);
  // A confirmation holds only for the very next key: anything else in between starts over.
  if (ui.confirming !== undefined && result.ui.confirming === ui.confirming && !result.answer) return { ...result, ui: { ...result.ui, confirming: undefined } };
  return result;
}

/** `current` is the frame's state before this key (the guard is checked against it). */
function buttonKey(ui: FrameUi, key: KeyEvent, context: FrameKeyContext, current: FrameUi): FrameKeyResult {
  const buttons: readonly FrameAction[] = FRAME_BUTTON_ACTIONS[context.kind];
  const step = Math.max(1, context.viewport - 1);
  const moveButton = (by: number) => ({ ui: { ...ui, button: (ui.button + by + buttons.length) % buttons.length }, handled: true });
  const answer = (action: FrameAction): FrameKeyResult => {
    // Checked against the guard as it was before this key.
    const reason = lockReason(key, context, current);
    if (reason) return { ui, handled: true, hint: reason };
    return answerFor(context.kind, action, ui, context);
  };

  const action = frameAction(context.kind, key);
  switch (action) {
    case 'frame.scrollUp':
      return { ui: scrollTo(ui, ui.scrollTop - 1, context), handled: true };
    case 'frame.scrollDown':
      return { ui: scrollTo(ui, ui.scrollTop + 1, context), handled: true };
    case 'frame.pageUp':
      return { ui: scrollTo(ui, ui.scrollTop - step, context), handled: true };
    case 'frame.pageDown':
      return { ui: scrollTo(ui, ui.scrollTop + step, context), handled: true };
    case 'frame.top':
      return { ui: scrollTo(ui, 0, context), handled: true };
    case 'frame.bottom':
      return { ui: scrollTo(ui, context.total, context), handled: true };
    case 'frame.buttonPrevious':
      return moveButton(-1);
    case 'frame.buttonNext':
      return moveButton(1);
    case 'frame.press':
      return answer(buttons[ui.button] ?? 'frame.no');
    case 'frame.refusePaste':
      return { ui, handled: true, hint: 'pasted text never answers a frame' };
    case 'frame.refuseText': {
      // A run of letters (typed ahead, or pasted without bracketed paste) answers nothing; say why
      // when it holds an answer key.
      const answers: readonly (FrameAction | undefined)[] = buttons;
      const mentionsKey = [...key.text].some((char) => answers.includes(frameAction(context.kind, { ...key, text: char })));
      return { ui, handled: true, ...(mentionsKey ? { hint: lockReason(key, context, current) ?? 'press one key at a time' } : {}) };
    }
    case 'sampling.externalEditor':
      // ui/Frames.tsx opens $EDITOR before this runs (it needs the terminal); reached only without one.
      return { ui, handled: true, hint: 'no external editor here' };
    case undefined:
      break;
    default:
      return answer(action);
  }
  // Ctrl/Alt combinations (Ctrl+S, Ctrl+L, …) belong to the global keys.
  return { ui, handled: !(key.ctrl || key.meta) };
}
