// What the TUI session does with its session file beyond appending: showing a resumed history, and
// taking back a message that got no answer, so it is never sent a second time behind the next one.
import type { Message } from '../services/conversation/types';
import type { OpenedHistory } from '../services/history/index';
import type { AppStore } from '../state/store';
import { editorFromText } from './input/editor';

type Status = (level: 'info' | 'warn' | 'error', text: string) => void;

/**
 * Shows an opened session's warnings and, when it was resumed, its history. Returns the ids of the
 * unanswered messages it took back, to be marked withdrawn in the log once something new is written.
 */
export function showOpenedHistory(opened: OpenedHistory, store: AppStore, status: Status): string[] {
  for (const warning of opened.warnings) status('warn', warning);
  if (opened.resumedId === undefined) return [];
  // A crash or kill mid-answer leaves the question without its (unsaved) answer: like a message
  // that failed, it is taken back into the input rather than sent behind the next one.
  const messages = [...opened.messages];
  const unanswered: Array<Extract<Message, { role: 'user' }>> = [];
  while (messages.at(-1)?.role === 'user') unanswered.unshift(messages.pop() as Extract<Message, { role: 'user' }>);
  store.getState().loadHistory(messages);
  status('info', `resumed session ${opened.resumedId} (${messages.length} messages); it is sent as context, nothing in it is run again`);
  if (unanswered.length > 0) {
    if (store.getState().draft.trim().length === 0) restoreToInput(store, unanswered.map((message) => message.content).join('\n\n'));
    status('warn', 'the last message got no answer (the app stopped before the answer was saved); it is back in the input');
  }
  return unanswered.map((message) => message.id);
}

/**
 * Puts a message that was sent as chat back into the input as literal text: Enter sends it as a
 * message again, even when it starts with `:` or `!` (it may have been pasted, and pasted text
 * never runs as a command).
 */
function restoreToInput(store: AppStore, text: string): void {
  const state = store.getState();
  state.setEditor({ ...editorFromText(text), literal: true, killed: state.editor.killed });
}

/**
 * A message that got no answer at all (cancelled before the first byte, or failed): out of the
 * conversation and the transcript, and back in the input when the input is empty (else ↑ recalls
 * it from the input history). The session marks it withdrawn in the log.
 */
export function withdrawUnanswered(message: { id: string; text: string; reason: 'cancelled' | 'error' }, store: AppStore, status: Status): void {
  const state = store.getState();
  state.withdrawUserMessage(message.id);
  const what = message.reason === 'cancelled' ? 'cancelled before the answer began' : 'no answer';
  const level = message.reason === 'cancelled' ? 'info' : 'warn';
  if (state.draft.trim().length === 0) {
    restoreToInput(store, message.text);
    status(level, `${what}: your message is back in the input (Enter sends it again)`);
  } else {
    status(level, `${what}: your message was taken back (↑ recalls it)`);
  }
}
