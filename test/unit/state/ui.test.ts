import { describe, expect, it } from 'vitest';
import { selectFrameWaiting, selectSomethingRuns } from '../../../src/state/selectors';
import { createAppStore } from '../../../src/state/store';

describe('ui slice: input, scrolling, sidebar browsing', () => {
  it('setDraft keeps the old name working and mirrors the editor', () => {
    const store = createAppStore();
    store.getState().setDraft('hello');
    expect(store.getState().draft).toBe('hello');
    expect(store.getState().editor).toMatchObject({ text: 'hello', cursor: 5 });
    store.getState().setEditor({ text: 'ab', cursor: 1, pastes: {}, literal: true, killed: '' });
    expect(store.getState().draft).toBe('ab');
  });

  it('clamps the scroll offset to the transcript when the length is known', () => {
    const store = createAppStore();
    store.getState().scrollBy(10, 4);
    expect(store.getState().scrollOffset).toBe(4);
    store.getState().scrollBy(-100);
    expect(store.getState().scrollOffset).toBe(0);
    store.getState().setScrollOffset(-3);
    expect(store.getState().scrollOffset).toBe(0);
  });

  it('cycles focus past a sidebar that is auto-hidden', () => {
    const store = createAppStore();
    store.getState().cycleFocus(1, false);
    expect(store.getState().focus).toBe('chat');
    store.getState().cycleFocus(-1, true);
    expect(store.getState().focus).toBe('sidebar');
  });

  it('keeps sidebar browsing state and toggles transcript display options', () => {
    const store = createAppStore();
    store.getState().updateSidebarUi({ selected: 's:a', expanded: ['a'] });
    store.getState().updateSidebarUi({ detail: { alias: 'a', tool: 't', scrollTop: 0 } });
    expect(store.getState().sidebarUi).toEqual({ selected: 's:a', expanded: ['a'], detail: { alias: 'a', tool: 't', scrollTop: 0 } });
    store.getState().toggleExpanded('x');
    store.getState().toggleExpanded('y');
    store.getState().toggleExpanded('x');
    expect(store.getState().expandedIds).toEqual(['y']);
    store.getState().toggleReasoning();
    expect(store.getState().reasoningCollapsed).toBe(true);
  });
});

describe('tools slice: an answer is bound to the call it was given for', () => {
  it('ignores an answer meant for a call that is no longer at the head', async () => {
    const store = createAppStore();
    const first = store.getState().requestApproval({ call: { id: 'one', wireName: 'a__b', rawArguments: '{}' }, position: 1, count: 1 });
    store.getState().answerApproval({ action: 'allow', scope: 'once' }, 'other');
    expect(store.getState().approvals).toHaveLength(1);
    expect(selectFrameWaiting(store.getState())).toBe(true);
    store.getState().answerApproval({ action: 'allow', scope: 'once' }, 'one');
    expect(await first).toEqual({ action: 'allow', scope: 'once' });
    expect(selectFrameWaiting(store.getState())).toBe(false);
  });

  it('the next frame in the queue starts its key delay when it reaches the head', () => {
    let now = 1000;
    const realNow = Date.now;
    Date.now = () => now;
    try {
      const store = createAppStore();
      void store.getState().requestCommand({ id: 'a', command: 'ls' });
      void store.getState().requestCommand({ id: 'b', command: 'pwd' });
      now = 5000;
      store.getState().answerCommand({ action: 'skip' }, 'a');
      expect(store.getState().commands[0]).toMatchObject({ command: { id: 'b' }, shownAt: 5000 });
      store.getState().answerCommand({ action: 'skip' }, 'a');
      expect(store.getState().commands).toHaveLength(1);
    } finally {
      Date.now = realNow;
    }
  });

  it('knows when something runs that Esc can cancel', () => {
    const store = createAppStore();
    expect(selectSomethingRuns(store.getState())).toBe(false);
    store.getState().applyConversationEvent({ type: 'command-proposed', command: { id: 'k', command: 'sleep 5' } });
    store.getState().applyConversationEvent({ type: 'command-started', id: 'k', command: 'sleep 5' });
    expect(selectSomethingRuns(store.getState())).toBe(true);
    store.getState().applyConversationEvent({ type: 'command-exit', id: 'k', exitCode: 0, timedOut: false, truncated: false });
    expect(selectSomethingRuns(store.getState())).toBe(false);
  });
});
