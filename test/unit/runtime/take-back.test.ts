import { describe, expect, it } from 'vitest';
import { createTakeBack, showOpenedHistory } from '../../../src/runtime/take-back';
import type { Message } from '../../../src/services/conversation/types';
import { createAppStore } from '../../../src/state/store';

// A real store: what the user sees is the input bar's editor and the status lines.
function setUp() {
  const store = createAppStore();
  const statuses: Array<[string, string]> = [];
  const status = (level: 'info' | 'warn' | 'error', text: string) => statuses.push([level, text]);
  return { store, statuses, takeBack: createTakeBack(store, status), status };
}

const at = new Date().toISOString();

describe('take-back of unanswered messages', () => {
  it('a message cancelled before its answer leaves the transcript and comes back as literal text, with what was queued behind it', () => {
    const { store, statuses, takeBack } = setUp();
    store.getState().addUserItem('u1', 'first');
    takeBack.hold([{ kind: 'chat', text: ':not a command' }, { kind: 'shell', command: 'ls' }]);
    expect(takeBack.holding()).toBe(true);
    takeBack.release({ id: 'u1', text: 'first', reason: 'cancelled' });
    const state = store.getState();
    expect(state.items.some((item) => item.kind === 'user')).toBe(false);
    expect(state.editor).toMatchObject({ text: 'first\n\n:not a command\n\n!ls', literal: true });
    expect(statuses).toEqual([['info', 'cancelled before the answer began: your message and 2 queued ones are back in the input (Enter sends them as one message)']]);
    expect(takeBack.holding()).toBe(false);
  });

  it('one queued !command alone comes back as a command (not literal); a failed message is a warning', () => {
    const one = setUp();
    one.takeBack.hold([{ kind: 'shell', command: 'make test' }]);
    one.takeBack.release();
    expect(one.store.getState().editor).toMatchObject({ text: '!make test', literal: false });

    const failed = setUp();
    failed.takeBack.release({ id: 'u9', text: 'why', reason: 'error' });
    expect(failed.store.getState().editor.text).toBe('why');
    expect(failed.statuses).toEqual([['warn', 'no answer: your message is back in the input (Enter sends it again)']]);
  });

  it('what the user is typing is never overwritten: the taken-back text goes to ↑ instead', () => {
    const { store, statuses, takeBack } = setUp();
    store.getState().setDraft('half typed');
    takeBack.hold([{ kind: 'chat', text: 'queued' }]);
    takeBack.release();
    expect(store.getState().editor.text).toBe('half typed');
    expect(statuses).toEqual([['info', 'cancelled: 1 queued message was taken back (↑ recalls it)']]);
  });

  it('a resumed session whose last question has no answer puts it back in the input and names it for withdrawal', () => {
    const { store, statuses, status } = setUp();
    const messages: Message[] = [
      { id: 'u1', role: 'user', content: 'q1', at },
      { id: 'a1', role: 'assistant', content: 'a1', at },
      { id: 'u2', role: 'user', content: 'q2', at },
    ];
    const withdrawn = showOpenedHistory({ log: undefined, messages, warnings: ['a warning'], resumedId: 'S1' }, store, status);
    expect(withdrawn).toEqual(['u2']);
    expect(store.getState().messages.map((message) => message.id)).toEqual(['u1', 'a1']);
    expect(store.getState().editor).toMatchObject({ text: 'q2', literal: true });
    expect(statuses.map(([level]) => level)).toEqual(['warn', 'info', 'warn']);
  });
});
