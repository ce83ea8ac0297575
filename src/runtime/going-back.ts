// `:retry`, `:rewind` (and Esc Esc) and `:fork` (README.md, "Going back"). None of them runs a
// tool or a command again: they only change which messages are the conversation. Later turns
// leave the context but stay in the session file, where a `rewind` record says what was dropped,
// so a resumed session continues from the same place.
import type { Attachment, Message } from '../services/conversation/types';
import type { AppStore } from '../state/store';
import { editorFromText } from '../state/slices/ui';
import type { SessionLogger } from './session-log';

type Status = (level: 'info' | 'warn' | 'error', text: string) => void;

export interface GoingBackDeps {
  store: AppStore;
  log: SessionLogger;
  status: Status;
  isBusy(): boolean;
  /** Sends `text` as a new message (the job queue), with the files it had. */
  send(text: string, attachments?: Attachment[]): void;
}

export interface GoingBack {
  retry(): void;
  /** Back to before the user message `id`: its text returns to the input. */
  rewindTo(id: string): void;
  fork(): void;
}

const BUSY = 'still answering: press Esc to cancel first';

function lastUserIndex(messages: readonly Message[]): number {
  return messages.findLastIndex((message) => message.role === 'user');
}

export function createGoingBack(deps: GoingBackDeps): GoingBack {
  const { store, log, status } = deps;

  /** Drops the user message at `index` and everything after it; returns how many messages left. */
  const cut = (index: number): number => {
    const messages = store.getState().messages;
    const target = messages[index]!;
    log.rewind(target.id);
    store.getState().loadHistory(messages.slice(0, index));
    return messages.length - index;
  };

  return {
    retry() {
      if (deps.isBusy()) return status('warn', BUSY);
      const messages = store.getState().messages;
      const index = lastUserIndex(messages);
      if (index < 0) return status('info', 'nothing to retry yet: send a message first');
      const question = messages[index] as Extract<Message, { role: 'user' }>;
      const dropped = cut(index) - 1;
      status('info', `asking again${dropped > 0 ? ` (the last answer, ${dropped} message${dropped === 1 ? '' : 's'}, left the context and stays in the session file)` : ''}`);
      // The same bytes as the first time: the files are not read again.
      deps.send(question.content, question.attachments);
    },
    rewindTo(id) {
      if (deps.isBusy()) return status('warn', BUSY);
      const messages = store.getState().messages;
      const index = messages.findIndex((message) => message.id === id && message.role === 'user');
      if (index < 0) return status('error', 'that message is no longer in the conversation');
      const text = (messages[index] as Extract<Message, { role: 'user' }>).content;
      const dropped = cut(index);
      // Literal: sent again it is a message, even when it starts with `:` or `!`.
      const state = store.getState();
      state.setEditor({ ...editorFromText(text), literal: true, killed: state.editor.killed });
      status('info', `went back: ${dropped} message${dropped === 1 ? '' : 's'} left the context (still in the session file); your message is in the input to edit and send`);
    },
    fork() {
      if (deps.isBusy()) return status('warn', BUSY);
      if (store.getState().messages.length === 0) return status('info', 'nothing to fork yet: the conversation is empty');
      const from = log.id();
      const opened = log.open({});
      if (!opened.log) return status('warn', 'history is off (history.enabled: false): there is no session to fork');
      log.switchTo(opened);
      const messages = store.getState().messages;
      for (const message of messages) log.append(message);
      log.flush();
      status('info', `forked: this conversation goes on in session ${opened.log.id}${from ? `; ${from} stays as it was (:resume ${from})` : ''}`);
    },
  };
}
