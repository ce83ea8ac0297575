// What the TUI session does with its session file beyond appending: showing a resumed history, and
// taking back a message that got no answer, so it is never sent a second time behind the next one.
import type { Message } from '../services/conversation/types';
import type { OpenedHistory, SessionLog } from '../services/history/index';
import type { AppStore } from '../state/store';

type Status = (level: 'info' | 'warn' | 'error', text: string) => void;

/** Shows an opened session's warnings and, when it was resumed, its history. */
export function showOpenedHistory(opened: OpenedHistory, store: AppStore, status: Status): void {
  for (const warning of opened.warnings) status('warn', warning);
  if (opened.resumedId === undefined) return;
  // A crash or kill mid-answer leaves the question without its (unsaved) answer: like a message
  // that failed, it is taken back into the input rather than sent behind the next one.
  const messages = [...opened.messages];
  const unanswered: string[] = [];
  while (messages.at(-1)?.role === 'user') {
    const message = messages.pop() as Extract<Message, { role: 'user' }>;
    opened.log?.withdraw(message.id);
    unanswered.unshift(message.content);
  }
  store.getState().loadHistory(messages);
  status('info', `resumed session ${opened.resumedId} (${messages.length} messages); it is sent as context, nothing in it is run again`);
  if (unanswered.length > 0) {
    const state = store.getState();
    if (state.draft.trim().length === 0) state.setDraft(unanswered.join('\n\n'));
    status('warn', 'the last message got no answer (the app stopped before the answer was saved); it is back in the input');
  }
}

/**
 * A message that got no answer at all (cancelled before the first byte, or failed): out of the
 * conversation and the transcript, recorded as withdrawn in the log, and back in the input when
 * the input is empty (else ↑ recalls it from the input history).
 */
export function withdrawUnanswered(
  message: { id: string; text: string; reason: 'cancelled' | 'error' },
  store: AppStore,
  log: SessionLog | undefined,
  status: Status,
): void {
  log?.withdraw(message.id);
  const state = store.getState();
  state.withdrawUserMessage(message.id);
  const what = message.reason === 'cancelled' ? 'cancelled before the answer began' : 'no answer';
  const level = message.reason === 'cancelled' ? 'info' : 'warn';
  if (state.draft.trim().length === 0) {
    state.setDraft(message.text);
    status(level, `${what}: your message is back in the input (Enter sends it again)`);
  } else {
    status(level, `${what}: your message was taken back (↑ recalls it)`);
  }
}
