// Take-back of unanswered messages (TUI): a message that got no answer (cancelled before the first
// byte, failed, or left without its answer by a crash in a resumed session) and the messages Esc
// took out of the queue go back into the input, so none is ever sent a second time behind the next
// one. The session log marks the unanswered ones withdrawn (session-log.ts); the queue hands over
// what it dropped (job-queue.ts).
import type { Message } from '../services/conversation/types';
import type { OpenedHistory } from '../services/history/index';
import type { AppStore } from '../state/store';
import { editorFromText } from '../state/slices/ui';
import type { Job } from './turns';

type Status = (level: 'info' | 'warn' | 'error', text: string) => void;

export interface Unanswered {
  id: string;
  text: string;
  reason: 'cancelled' | 'error';
}

export interface TakeBackQueue {
  /** Esc took these waiting jobs out of the queue: they come back once the running one has ended. */
  hold(jobs: readonly Job[]): void;
  /**
   * The running job ended: what Esc took comes back, with the running message when it got no
   * answer (`unanswered`).
   */
  release(unanswered?: Unanswered): void;
  holding(): boolean;
}

export function createTakeBack(store: AppStore, status: Status): TakeBackQueue {
  const held: Job[] = [];
  const typed = (job: Job) => (job.kind === 'chat' ? job.text : job.kind === 'shell' ? `!${job.command}` : `:compact${job.focus ? ` ${job.focus}` : ''}`);
  return {
    hold(jobs) {
      held.push(...jobs);
    },
    release(unanswered) {
      const jobs = held.splice(0);
      const queuedCommand = !unanswered && jobs.length === 1 && jobs[0]!.kind === 'shell';
      takeBack({ ...(unanswered ? { unanswered } : {}), queued: jobs.map(typed), queuedCommand }, store, status);
    },
    holding: () => held.length > 0,
  };
}

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

/** What Esc took back: the running message when it got no answer, and the messages queued behind it. */
export interface TakenBack {
  unanswered?: Unanswered;
  /** Queued texts as typed (`!command` for a queued shell command). */
  queued: readonly string[];
  /** The only thing taken back is one queued `!command` (set by the caller, who knows the jobs): it goes back as a command, not as a message. */
  queuedCommand?: boolean;
}

/**
 * A message that got no answer at all (cancelled before the first byte, or failed) leaves the
 * conversation and the transcript; it and any messages queued behind it go back into the input
 * when the input is empty, in the order they were typed (else ↑ recalls them from the input
 * history). The session marks the unanswered one withdrawn in the log.
 */
export function takeBack(taken: TakenBack, store: AppStore, status: Status): void {
  const state = store.getState();
  const { unanswered, queued } = taken;
  if (unanswered) state.withdrawUserMessage(unanswered.id);
  const texts = [...(unanswered ? [unanswered.text] : []), ...queued];
  if (texts.length === 0) return;
  const what = unanswered ? (unanswered.reason === 'cancelled' ? 'cancelled before the answer began' : 'no answer') : 'cancelled';
  const level = unanswered?.reason === 'error' ? 'warn' : 'info';
  const messages = unanswered ? (queued.length > 0 ? `your message and ${countOf(queued.length, 'queued one')}` : 'your message') : countOf(queued.length, 'queued message');
  if (state.draft.trim().length === 0) {
    if (taken.queuedCommand) state.setEditor({ ...editorFromText(queued[0]!), killed: state.editor.killed });
    else restoreToInput(store, texts.join('\n\n'));
    const plural = texts.length > 1 ? 'are' : 'is';
    status(level, `${what}: ${messages} ${plural} back in the input (Enter sends ${texts.length > 1 ? 'them as one message' : 'it again'})`);
  } else {
    status(level, `${what}: ${messages} ${texts.length > 1 ? 'were' : 'was'} taken back (↑ recalls ${texts.length > 1 ? 'them' : 'it'})`);
  }
}

function countOf(count: number, noun: string): string {
  return count === 1 ? `1 ${noun}` : `${count} ${noun}s`;
}
