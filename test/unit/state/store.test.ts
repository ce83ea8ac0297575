import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/services/conversation/types';
import type { ServerSnapshot } from '../../../src/services/mcp/types';
import { selectIsBusy, selectServerCounts, selectServerList, sidebarShown } from '../../../src/state/selectors';
import { createAppStore } from '../../../src/state/store';

const server = (alias: string, state: ServerSnapshot['state']): ServerSnapshot => ({ alias, target: `http://${alias}`, state, tools: [], stderr: [] });

describe('store factory', () => {
  it('gives every caller a fresh store', () => {
    const a = createAppStore();
    const b = createAppStore();
    a.getState().addStatus('info', 'only in a');
    expect(a.getState().items).toHaveLength(1);
    expect(b.getState().items).toHaveLength(0);
  });
});

describe('chat slice', () => {
  it('streams deltas into one assistant item, bumping its version, and closes it on done', () => {
    const store = createAppStore({ modelName: 'local' });
    const apply = store.getState().applyConversationEvent;
    apply({ type: 'request-start', depth: 0, model: 'local' });
    expect(selectIsBusy(store.getState())).toBe(true);
    apply({ type: 'reasoning-delta', text: 'think' });
    apply({ type: 'text-delta', text: 'Hel' });
    apply({ type: 'text-delta', text: 'lo' });
    const [item] = store.getState().items;
    expect(item).toMatchObject({ kind: 'assistant', text: 'Hello', reasoning: 'think', streaming: true, version: 2 });
    apply({ type: 'done', finishReason: 'stop' });
    expect(store.getState().items[0]).toMatchObject({ streaming: false });
    expect(store.getState().brokerState).toBe('idle');
  });

  it('a status line shown while an answer streams goes below it without cutting the answer in two', () => {
    const store = createAppStore();
    const apply = store.getState().applyConversationEvent;
    apply({ type: 'text-delta', text: 'This ' });
    store.getState().addStatus('info', 'queued: runs when the current answer ends (1 waiting)');
    apply({ type: 'status', level: 'info', message: 'a server notice' });
    apply({ type: 'text-delta', text: 'answer goes on' });
    apply({ type: 'done', finishReason: 'stop' });
    expect(store.getState().items.map((item) => item.kind)).toEqual(['assistant', 'status', 'status']);
    expect(store.getState().items[0]).toMatchObject({ text: 'This answer goes on', streaming: false });
  });

  it('marks an answer that did not finish cleanly', () => {
    const store = createAppStore();
    const apply = store.getState().applyConversationEvent;
    apply({ type: 'text-delta', text: 'partial' });
    apply({ type: 'done', finishReason: 'incomplete' });
    expect(store.getState().items[0]).toMatchObject({ text: 'partial', endNote: 'incomplete' });
  });

  it('marks the partial answer even when an error line closed it first', () => {
    const store = createAppStore();
    const apply = store.getState().applyConversationEvent;
    apply({ type: 'text-delta', text: 'partial' });
    apply({ type: 'error', message: 'connection to the model broke during the answer' });
    apply({ type: 'done', finishReason: 'incomplete' });
    const [answer, error] = store.getState().items;
    expect(answer).toMatchObject({ kind: 'assistant', text: 'partial', streaming: false, endNote: 'incomplete' });
    expect(error).toMatchObject({ kind: 'status', level: 'error' });
  });

  it('a turn cancelled while a proposed command runs leaves the finished answer without a note', () => {
    const store = createAppStore();
    const apply = store.getState().applyConversationEvent;
    const at = new Date(0).toISOString();
    apply({ type: 'message', message: { id: 'u1', role: 'user', content: 'list files', at } });
    apply({ type: 'text-delta', text: 'CMD: ls -la' });
    apply({ type: 'message', message: { id: 'a1', role: 'assistant', content: 'CMD: ls -la', finishReason: 'stop', at } });
    apply({ type: 'command-proposed', command: { id: 'x1', command: 'ls -la' } });
    apply({ type: 'done', finishReason: 'cancelled' });
    const answer = store.getState().items.find((item) => item.kind === 'assistant');
    expect(answer).toMatchObject({ text: 'CMD: ls -la', streaming: false });
    expect(answer).not.toHaveProperty('endNote');

    // Cancelled in the middle of the answer itself: the note is there.
    apply({ type: 'message', message: { id: 'u2', role: 'user', content: 'again', at } });
    apply({ type: 'text-delta', text: 'half' });
    apply({ type: 'message', message: { id: 'a2', role: 'assistant', content: 'half', finishReason: 'cancelled', at } });
    apply({ type: 'done', finishReason: 'cancelled' });
    expect(store.getState().items.filter((item) => item.kind === 'assistant').at(-1)).toMatchObject({ text: 'half', endNote: 'cancelled' });
  });

  it('a turn cancelled while the model was to answer the tool results says so in the transcript', () => {
    const store = createAppStore();
    const apply = store.getState().applyConversationEvent;
    const at = new Date(0).toISOString();
    apply({ type: 'message', message: { id: 'u1', role: 'user', content: 'compute', at } });
    apply({ type: 'message', message: { id: 'a1', role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'builtin__calculator', arguments: '{}' }], finishReason: 'tool_calls', at } });
    apply({ type: 'tool-call', call: { id: 'c1', wireName: 'builtin__calculator', rawArguments: '{}' } });
    apply({ type: 'tool-result', id: 'c1', name: 'builtin__calculator', content: '4', isError: false, outcome: 'ok' });
    apply({ type: 'request-start', depth: 1, model: 'local' });
    apply({ type: 'done', finishReason: 'cancelled' });
    expect(store.getState().items.at(-1)).toMatchObject({ kind: 'status', text: 'cancelled before the model answered the tool results' });

    // A cancelled tool says it itself: no second line.
    apply({ type: 'tool-call', call: { id: 'c2', wireName: 'builtin__calculator', rawArguments: '{}' } });
    apply({ type: 'tool-result', id: 'c2', name: 'builtin__calculator', content: '[aish] tool call cancelled by the user', isError: true, outcome: 'cancelled' });
    apply({ type: 'done', finishReason: 'cancelled' });
    expect(store.getState().items.at(-1)).toMatchObject({ kind: 'tool', state: 'cancelled' });
  });

  it('follows a tool call from frame to result, and a denied one stays denied', () => {
    const store = createAppStore();
    const apply = store.getState().applyConversationEvent;
    apply({ type: 'tool-call', call: { id: 'c1', wireName: 'builtin__calculator', rawArguments: '{"expression":"1+1"}' } });
    apply({ type: 'tool-decision', id: 'c1', decision: { action: 'allow', by: 'user', scope: 'once' } });
    apply({ type: 'tool-started', id: 'c1' });
    apply({ type: 'tool-progress', id: 'c1', progress: { progress: 1, total: 2 } });
    apply({ type: 'tool-result', id: 'c1', name: 'builtin__calculator', content: '2', isError: false, outcome: 'ok' });
    expect(store.getState().items[0]).toMatchObject({ kind: 'tool', state: 'done', result: '2', progress: { progress: 1, total: 2 } });

    apply({ type: 'tool-call', call: { id: 'c2', wireName: 'x__y', rawArguments: '{}' } });
    apply({ type: 'tool-decision', id: 'c2', decision: { action: 'deny', by: 'user', reason: 'no' } });
    apply({ type: 'tool-result', id: 'c2', name: 'x__y', content: '[aish] tool call denied by the user: no', isError: true, outcome: 'denied' });
    expect(store.getState().items[1]).toMatchObject({ state: 'denied' });
  });

  it('collects CMD output and the exit code', () => {
    const store = createAppStore();
    const apply = store.getState().applyConversationEvent;
    apply({ type: 'command-proposed', command: { id: 'k1', command: 'ls' } });
    apply({ type: 'command-started', id: 'k1', command: 'ls -la' });
    apply({ type: 'command-output', id: 'k1', chunk: 'a\n' });
    apply({ type: 'command-output', id: 'k1', chunk: 'b\n' });
    apply({ type: 'command-exit', id: 'k1', exitCode: 0, timedOut: false, truncated: false });
    expect(store.getState().items[0]).toMatchObject({ kind: 'command', command: 'ls -la', output: 'a\nb\n', exitCode: 0, state: 'done' });
  });

  it('keeps history messages in order and rebuilds the transcript from a resumed history', () => {
    const store = createAppStore();
    const at = new Date(0).toISOString();
    const messages: Message[] = [
      { id: 'u1', role: 'user', content: 'hi', at },
      { id: 'a1', role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'builtin__calculator', arguments: '{}' }], at },
      { id: 'r1', role: 'tool', toolCallId: 't1', name: 'builtin__calculator', content: '4', isError: false, at },
      { id: 'a2', role: 'assistant', content: 'It is 4.', at },
    ];
    for (const message of messages) store.getState().applyConversationEvent({ type: 'message', message });
    expect(store.getState().messages.map((m) => m.id)).toEqual(['u1', 'a1', 'r1', 'a2']);
    const resumed = createAppStore();
    resumed.getState().loadHistory(messages);
    expect(resumed.getState().items.map((item) => item.kind)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(resumed.getState().items[2]).toMatchObject({ state: 'done', result: '4' });
  });

  it('a resumed call whose arguments the user edited shows the arguments that ran; a non-object from the file is not taken', () => {
    const at = new Date(0).toISOString();
    const messages: Message[] = [
      { id: 'u1', role: 'user', content: 'hi', at },
      {
        id: 'a1',
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'e', name: 'files__read', arguments: '{"path":"/etc/passwd"}' },
          { id: 'x', name: 'files__read', arguments: '{"path":"/a"}' },
        ],
        at,
      },
      { id: 'r1', role: 'tool', toolCallId: 'e', name: 'files__read', content: '[aish] the user edited the arguments before the call ran (path: "/etc/passwd" → "/tmp/notes").\nok', isError: false, editedArguments: { path: '/tmp/notes' }, at },
      { id: 'r2', role: 'tool', toolCallId: 'x', name: 'files__read', content: 'ok', isError: false, editedArguments: ['/b'] as unknown as Record<string, unknown>, at },
    ];
    const store = createAppStore();
    store.getState().loadHistory(messages);
    const tools = store.getState().items.filter((item) => item.kind === 'tool');
    expect(tools[0]).toMatchObject({ state: 'done', call: { rawArguments: '{"path":"/tmp/notes"}', arguments: { path: '/tmp/notes' } } });
    expect(tools[1]).toMatchObject({ call: { rawArguments: '{"path":"/a"}' } });
  });

  it('a resumed call that was denied, skipped or cancelled shows as such, not as failed', () => {
    const at = new Date(0).toISOString();
    const call = (id: string) => ({ id, name: 'builtin__calculator', arguments: '{}' });
    const messages: Message[] = [
      { id: 'u1', role: 'user', content: 'hi', at },
      { id: 'a1', role: 'assistant', content: '', toolCalls: [call('d'), call('s'), call('c'), call('e'), call('x')], at },
      { id: 'r1', role: 'tool', toolCallId: 'd', name: 'builtin__calculator', content: '[aish] tool call denied by the user', isError: true, outcome: 'denied', at },
      { id: 'r2', role: 'tool', toolCallId: 's', name: 'builtin__calculator', content: '[aish] unknown tool', isError: true, outcome: 'skipped', at },
      { id: 'r3', role: 'tool', toolCallId: 'c', name: 'builtin__calculator', content: '[aish] tool call cancelled by the user', isError: true, outcome: 'cancelled', at },
      { id: 'r4', role: 'tool', toolCallId: 'e', name: 'builtin__calculator', content: 'boom', isError: true, at },
      // A value we never write (a hand-edited file) is not believed.
      { id: 'r5', role: 'tool', toolCallId: 'x', name: 'builtin__calculator', content: 'ok', isError: false, outcome: 'bogus' as 'denied', at },
    ];
    const store = createAppStore();
    store.getState().loadHistory(messages);
    expect(store.getState().items.filter((item) => item.kind === 'tool').map((item) => (item.kind === 'tool' ? item.state : ''))).toEqual(['denied', 'skipped', 'cancelled', 'error', 'done']);
  });
});

describe('tools slice', () => {
  it('queues approvals and resolves them in order', async () => {
    const store = createAppStore();
    const call = (id: string) => ({ call: { id, wireName: 'a__b', rawArguments: '{}' }, position: 1, count: 2 });
    const first = store.getState().requestApproval(call('1'));
    const second = store.getState().requestApproval(call('2'));
    expect(store.getState().approvals).toHaveLength(2);
    store.getState().answerApproval({ action: 'allow', scope: 'once' });
    expect(await first).toEqual({ action: 'allow', scope: 'once' });
    expect(store.getState().approvals[0]?.request.call.id).toBe('2');
    store.getState().cancelPending();
    expect(await second).toEqual({ action: 'deny', reason: 'cancelled' });
  });
});

describe('mcp slice and selectors', () => {
  it('tracks servers in order and counts the ready ones', () => {
    const store = createAppStore();
    const apply = store.getState().applyMcpEvent;
    apply({ type: 'server', snapshot: server('a', 'connecting') });
    apply({ type: 'server', snapshot: server('b', 'ready') });
    expect(selectServerCounts(store.getState())).toBe('1/2');
    const before = selectServerList(store.getState());
    expect(selectServerList(store.getState())).toBe(before);
    apply({ type: 'server', snapshot: server('a', 'ready') });
    expect(selectServerCounts(store.getState())).toBe('2/2');
    expect(selectServerList(store.getState()).map((s) => s.alias)).toEqual(['a', 'b']);
    apply({ type: 'removed', alias: 'a' });
    expect(selectServerList(store.getState()).map((s) => s.alias)).toEqual(['b']);
  });

  it('keeps a server\'s resources, and leaves the state alone when a server without any still has none', () => {
    const store = createAppStore();
    let updates = 0;
    store.subscribe(() => updates++);
    store.getState().setResources('a', []);
    store.getState().setResources('a', undefined);
    expect(updates).toBe(0);
    const doc = { uri: 'file:///doc', name: 'doc' };
    store.getState().setResources('a', [doc]);
    expect(store.getState().resources).toEqual({ a: [doc] });
    expect(updates).toBe(1);
    store.getState().setResources('b', []);
    expect(updates).toBe(1);
    // A list that became empty is an update: the sidebar drops it.
    store.getState().setResources('a', []);
    expect(store.getState().resources).toEqual({});
    expect(updates).toBe(2);
  });
});

describe('ui slice', () => {
  it('hides the sidebar on narrow terminals unless pinned, and cycles focus around it', () => {
    const store = createAppStore();
    expect(sidebarShown(store.getState(), 120)).toBe(true);
    expect(sidebarShown(store.getState(), 80)).toBe(false);
    store.getState().toggleSidebar(false);
    expect(sidebarShown(store.getState(), 80)).toBe(true);
    store.getState().cycleFocus(1);
    expect(store.getState().focus).toBe('sidebar');
    store.getState().toggleSidebar(true);
    expect(store.getState().focus).toBe('input');
    store.getState().cycleFocus(1);
    expect(store.getState().focus).toBe('chat');
  });
});
