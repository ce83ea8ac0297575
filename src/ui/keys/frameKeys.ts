import type { ApprovalAnswer, CommandAnswer } from '../../services/conversation/types';
import type { FrameUi } from '../../state/types';
import { EMPTY_EDITOR } from '../../state/slices/ui';
import { applyEditorKey, editorFromText, expandText } from '../input/editor';
import { isDeliberate, type KeyEvent } from '../../terminal/keyboard/keys';
import { markRead, rowsRead } from '../panels/frameLayout';

/**
 * What a key does in the approval or command frame: a pure function, so the rules that protect
 * the user are tested directly.
 *
 * - No answer is taken within APPROVAL_DELAY_MS of the frame appearing, nor from a key that was
 *   pasted, typed ahead in a burst, or read before the frame was shown.
 * - Allowing (y / t / s, or Enter on an allow button) also needs every line of the frame to have
 *   been on screen; denying never does.
 * - Scrolling and moving between buttons always work.
 */

export const APPROVAL_DELAY_MS = 400;

export type FrameKind = 'approval' | 'command';

export interface FrameKeyContext {
  kind: FrameKind;
  /** When the frame appeared. */
  shownAt: number;
  /** Body rows in all and on screen, from the last layout. */
  total: number;
  viewport: number;
  /** The command as proposed (prefills the edit line). */
  command?: string;
}

export type FrameAnswer = { kind: 'approval'; answer: ApprovalAnswer } | { kind: 'command'; answer: CommandAnswer };

export interface FrameKeyResult {
  ui: FrameUi;
  answer?: FrameAnswer;
  /** Why a key was not taken, for the status bar. */
  hint?: string;
  /** False: not a frame key (e.g. Ctrl+S), others may use it. */
  handled: boolean;
}

const APPROVAL_KEYS = ['y', 't', 's', 'n', 'e'];
const COMMAND_KEYS = ['y', 'e', 'n'];

export function newFrameUi(id: string, viewport: number, width: number): FrameUi {
  return { id, button: 0, scrollTop: 0, seen: viewport, seenWidth: width, mode: 'buttons', field: EMPTY_EDITOR };
}

/** Every body row has been on screen (End alone does not count the rows it skipped). */
export function seenAll(ui: FrameUi, context: Pick<FrameKeyContext, 'total' | 'viewport'>): boolean {
  return rowsRead(ui.seen, ui.seenRuns, ui.scrollTop, context.viewport) >= context.total;
}

/** The keys work: the delay passed (at `now`) and every row has been on screen. */
export function isArmed(ui: FrameUi, context: FrameKeyContext, now: number): boolean {
  return now - context.shownAt >= APPROVAL_DELAY_MS && seenAll(ui, context);
}

function scrollTo(ui: FrameUi, top: number, context: FrameKeyContext): FrameUi {
  const max = Math.max(0, context.total - context.viewport);
  const scrollTop = Math.max(0, Math.min(top, max));
  // The rows on screen until now, then the rows on screen from now on.
  const before = markRead(ui.seen, ui.seenRuns, ui.scrollTop, ui.scrollTop + context.viewport);
  const after = markRead(before.seen, before.runs, scrollTop, scrollTop + context.viewport);
  return { ...ui, scrollTop, seen: after.seen, seenRuns: after.runs };
}

/** Why an answer key is not taken now, or undefined when it is. */
function lockReason(key: KeyEvent, context: FrameKeyContext): string | undefined {
  if (key.paste) return 'pasted text never answers a frame';
  if (key.burst) return 'keys typed ahead never answer a frame; press the key again';
  if (key.at < context.shownAt) return 'keys typed before the frame appeared never answer it';
  if (key.at - context.shownAt < APPROVAL_DELAY_MS) return 'the frame just appeared: press the key again';
  return undefined;
}

function answerFor(kind: FrameKind, letter: string, ui: FrameUi, context: FrameKeyContext): FrameKeyResult {
  if (kind === 'approval') {
    switch (letter) {
      case 'y':
      case 't':
      case 's': {
        if (!seenAll(ui, context)) return { ui, handled: true, hint: 'read the whole call first (↓ / PgDn), then approve' };
        const scope = letter === 'y' ? 'once' : letter === 't' ? 'tool' : 'server';
        return { ui, handled: true, answer: { kind: 'approval', answer: { action: 'allow', scope } } };
      }
      case 'n':
        return { ui, handled: true, answer: { kind: 'approval', answer: { action: 'deny' } } };
      case 'e':
        return { ui: { ...ui, mode: 'reason', field: EMPTY_EDITOR, button: 4 }, handled: true };
    }
  } else {
    switch (letter) {
      case 'y':
        if (!seenAll(ui, context)) return { ui, handled: true, hint: 'read the whole command first (↓ / PgDn), then run it' };
        return { ui, handled: true, answer: { kind: 'command', answer: { action: 'run', command: context.command ?? '' } } };
      case 'n':
        return { ui, handled: true, answer: { kind: 'command', answer: { action: 'skip' } } };
      case 'e':
        return { ui: { ...ui, mode: 'edit', field: editorFromText(context.command ?? ''), button: 1 }, handled: true };
    }
  }
  return { ui, handled: true };
}

function fieldKey(ui: FrameUi, key: KeyEvent, context: FrameKeyContext): FrameKeyResult {
  if (key.name === 'escape') return { ui: { ...ui, mode: 'buttons', field: EMPTY_EDITOR }, handled: true };
  const result = applyEditorKey(ui.field, key, { multiline: false });
  if (result.kind === 'edit') return { ui: { ...ui, field: result.state }, handled: true };
  if (result.kind === 'submit') {
    if (!isDeliberate(key)) return { ui, handled: true, hint: 'a pasted or typed-ahead Enter never answers a frame' };
    const text = expandText(result.state).trim();
    if (context.kind === 'approval') {
      return { ui, handled: true, answer: { kind: 'approval', answer: { action: 'deny', ...(text ? { reason: text } : {}) } } };
    }
    if (!text) return { ui, handled: true, hint: 'the command is empty: Esc goes back' };
    return { ui, handled: true, answer: { kind: 'command', answer: { action: 'run', command: text } } };
  }
  // Ctrl/Alt keys the line does not use go on to the global keys.
  return { ui, handled: !(key.ctrl || key.meta) };
}

export function frameKey(ui: FrameUi, key: KeyEvent, context: FrameKeyContext): FrameKeyResult {
  if (ui.mode !== 'buttons') return fieldKey(ui, key, context);
  const buttons = context.kind === 'approval' ? APPROVAL_KEYS : COMMAND_KEYS;

  switch (key.name) {
    case 'up':
      return { ui: scrollTo(ui, ui.scrollTop - 1, context), handled: true };
    case 'down':
      return { ui: scrollTo(ui, ui.scrollTop + 1, context), handled: true };
    case 'pageup':
      return { ui: scrollTo(ui, ui.scrollTop - Math.max(1, context.viewport - 1), context), handled: true };
    case 'pagedown':
      return { ui: scrollTo(ui, ui.scrollTop + Math.max(1, context.viewport - 1), context), handled: true };
    case 'home':
      return { ui: scrollTo(ui, 0, context), handled: true };
    case 'end':
      return { ui: scrollTo(ui, context.total, context), handled: true };
    case 'left':
      return { ui: { ...ui, button: (ui.button - 1 + buttons.length) % buttons.length }, handled: true };
    case 'right':
      return { ui: { ...ui, button: (ui.button + 1) % buttons.length }, handled: true };
    case 'tab':
      return { ui: { ...ui, button: (ui.button + (key.shift ? -1 : 1) + buttons.length) % buttons.length }, handled: true };
    case 'escape':
    case 'return': {
      const reason = lockReason(key, context);
      if (reason) return { ui, handled: true, hint: reason };
      const letter = key.name === 'escape' ? 'n' : buttons[ui.button] ?? 'n';
      return answerFor(context.kind, letter, ui, context);
    }
    case 'text': {
      const letter = key.text.toLowerCase();
      if (!buttons.includes(letter)) {
        const mentionsKey = [...letter].some((char) => buttons.includes(char));
        return { ui, handled: true, ...(mentionsKey ? { hint: lockReason(key, context) ?? 'press one key at a time' } : {}) };
      }
      const reason = lockReason(key, context);
      if (reason) return { ui, handled: true, hint: reason };
      return answerFor(context.kind, letter, ui, context);
    }
    case 'paste':
      return { ui, handled: true, hint: 'pasted text never answers a frame' };
    default:
      // Ctrl/Alt combinations (Ctrl+S, Ctrl+L, …) belong to the global keys.
      return { ui, handled: !(key.ctrl || key.meta) };
  }
}
