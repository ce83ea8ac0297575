import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../../helpers/lifecycle';
import { errorReply, hangReply, textReply, toolCallReply } from '../../helpers/scripted-broker';
import { createSession, type Session } from '../../../src/runtime/session';
import { formatKeymap } from '../../../src/ui/keys/keymap';
import type { AppConfig } from '../../../src/services/config/load';
import { loadSession, sessionsDir } from '../../../src/services/history/index';
import { createAppStore } from '../../../src/state/store';
import type { ChatItem } from '../../../src/state/types';
import { everythingServer, testConfig } from './harness';
import { untilStore as until } from '../../helpers/store-until';

// The controller behind the TUI, driven the way the panels drive it: submit(), the store's
// approval and command queues, cancel(). Real broker client, real MCP manager, real files.
const { broker, track } = useBrokerAndTerminals();


async function start(config: AppConfig, args?: { continueLast: boolean; resume?: string }) {
  const store = createAppStore();
  let quitCalled = false;
  const session: Session = track(createSession({ config, store, quit: () => (quitCalled = true), keyHelp: formatKeymap, ...(args ? { args } : {}) }));
  await until(store, (state) => state.servers.builtin?.state === 'ready' || undefined);
  return { store, session, quitCalled: () => quitCalled };
}

const statusTexts = (items: ChatItem[]) => items.flatMap((item) => (item.kind === 'status' ? [item.text] : []));

describe('the TUI session', () => {
  it('a message with a tool call: approval frame, run, result, the model continues; all logged', async () => {
    const config = await testConfig(broker.url);
    const { store, session: s } = await start(config);
    broker.enqueue(toolCallReply([{ id: 'c1', name: 'builtin__calculator', arguments: { expression: '6*7' } }]), textReply('It is **42**.'));
    s.submit('what is 6*7?');
    const pending = await until(store, (state) => state.approvals[0]);
    expect(pending.request.call).toMatchObject({ alias: 'builtin', tool: 'calculator', arguments: { expression: '6*7' } });
    // The tool item is in the transcript (drawn by the approval frame while pending) before the frame.
    expect(store.getState().items.find((item) => item.kind === 'tool')).toMatchObject({ id: 'c1', state: 'pending' });
    store.getState().answerApproval({ action: 'allow', scope: 'tool' });
    await s.idle();
    const state = store.getState();
    expect(state.items.map((item) => item.kind)).toEqual(['user', 'tool', 'assistant']);
    expect(state.items[1]).toMatchObject({ kind: 'tool', state: 'done', result: '42' });
    expect(state.items[2]).toMatchObject({ kind: 'assistant', text: 'It is **42**.', streaming: false });
    expect(state.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(state.sessionRules).toEqual(['builtin__calculator']);
    expect(state.brokerState).toBe('idle');

    const dir = sessionsDir(config);
    const [file] = readdirSync(dir);
    const roles = readFileSync(path.join(dir, file!), 'utf8').trimEnd().split('\n').slice(1).map((line) => JSON.parse(line).message.role);
    expect(roles).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('deny with a reason from the frame reaches the model', async () => {
    const config = await testConfig(broker.url);
    const { store, session: s } = await start(config);
    const begin = broker.requests.length;
    broker.enqueue(toolCallReply([{ id: 'd1', name: 'builtin__roll_dice', arguments: { notation: '2d6' } }]), textReply('OK, no dice.'));
    s.submit('roll');
    await until(store, (state) => state.approvals[0]);
    store.getState().answerApproval({ action: 'deny', reason: 'no gambling' });
    await s.idle();
    expect(store.getState().items.find((item) => item.kind === 'tool')).toMatchObject({ state: 'denied' });
    expect(broker.requests[begin + 1]!.body!.messages!.at(-1)).toEqual({ role: 'tool', tool_call_id: 'd1', content: '[aish] tool call denied by the user: no gambling' });
  });

  it('a message cancelled before any answer is taken back: out of the conversation and the log, back in the input', async () => {
    const config = await testConfig(broker.url);
    const { store, session: s } = await start(config);
    broker.enqueue(textReply('first answer'));
    s.submit('first question');
    await s.idle();
    broker.enqueue(hangReply());
    const hung = broker.requests.length + 1;
    s.submit('never answered');
    await until(store, (state) => state.brokerState === 'waiting' || undefined);
    // The broker holds the request before the cancel: a cancel before it is written would leave
    // the hanging reply queued for the next test's request.
    await broker.waitForRequests(hung);
    expect(s.cancel()).toBe(true);
    await s.idle();
    const state = store.getState();
    expect(state.draft).toBe('never answered');
    expect(state.messages.map((message) => ('content' in message ? message.content : ''))).toEqual(['first question', 'first answer']);
    expect(state.items.some((item) => item.kind === 'user' && item.text === 'never answered')).toBe(false);
    expect(statusTexts(state.items).join('\n')).toContain('cancelled before the answer began: your message is back in the input');

    // Sent again (or something else): the model sees it once, not glued to the next message.
    const begin = broker.requests.length;
    broker.enqueue(textReply('second answer'));
    state.setDraft('');
    s.submit('never answered');
    await s.idle();
    expect(broker.requests[begin]!.body!.messages!.slice(-2)).toEqual([
      { role: 'assistant', content: 'first answer' },
      { role: 'user', content: 'never answered' },
    ]);
    // A resumed session has the same conversation.
    const id = readdirSync(sessionsDir(config))[0]!.replace(/\.jsonl$/, '');
    const loaded = loadSession(sessionsDir(config), id);
    expect(loaded.messages.map((message) => ('content' in message ? message.content : ''))).toEqual(['first question', 'first answer', 'never answered', 'second answer']);
    expect(loaded.warnings).toEqual([]);
  });

  it('Esc with messages queued behind the running one puts them back into the input, in order; none is sent', async () => {
    const config = await testConfig(broker.url);
    const { store, session: s } = await start(config);
    const begin = broker.requests.length;
    broker.enqueue(hangReply());
    s.submit('running question');
    await until(store, (state) => state.brokerState === 'waiting' || undefined);
    await broker.waitForRequests(begin + 1);
    s.submit('queued one');
    s.submit('!echo queued two');
    expect(s.cancel()).toBe(true);
    await s.idle();
    const state = store.getState();
    // The running message got no answer: it comes back first, the queued ones after it.
    expect(state.editor).toMatchObject({ text: 'running question\n\nqueued one\n\n!echo queued two', literal: true });
    expect(statusTexts(state.items).join('\n')).toContain('cancelled before the answer began: your message and 2 queued ones are back in the input (Enter sends them as one message)');
    expect(state.messages).toEqual([]);
    expect(state.items.some((item) => item.kind === 'command')).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(broker.requests.length - begin).toBe(1);
  });

  it('queued messages come back alone when the running one was answered in part; a queued !command comes back as a command', async () => {
    const config = await testConfig(broker.url);
    const { store, session: s } = await start(config);
    broker.enqueue(textReply('a b c d e f g h i j k l m n o p q r s t u v w x y z', { chunkSize: 2, tokensPerSecond: 10 }));
    s.submit('alphabet slowly');
    await until(store, (state) => state.items.find((item) => item.kind === 'assistant' && item.text.length > 0));
    s.submit('!echo later');
    expect(s.cancel()).toBe(true);
    await s.idle();
    const state = store.getState();
    expect(state.messages.at(-1)).toMatchObject({ role: 'assistant', finishReason: 'cancelled' });
    // Not literal: Enter runs it, as it would have run when typed.
    expect(state.editor.text).toBe('!echo later');
    expect(state.editor.literal).not.toBe(true);
    expect(statusTexts(state.items).join('\n')).toContain('cancelled: 1 queued message is back in the input (Enter sends it again)');
    expect(state.items.some((item) => item.kind === 'command')).toBe(false);

    // With something typed meanwhile, the draft is kept and ↑ recalls the queued ones.
    broker.enqueue(hangReply());
    state.setDraft('');
    const second = broker.requests.length + 1;
    s.submit('second running');
    await until(store, (next) => next.brokerState === 'waiting' || undefined);
    await broker.waitForRequests(second);
    s.submit('queued three');
    store.getState().setDraft('my draft');
    s.cancel();
    await s.idle();
    expect(store.getState().draft).toBe('my draft');
    expect(statusTexts(store.getState().items).join('\n')).toContain('your message and 1 queued one were taken back (↑ recalls them)');
  });

  it('a pasted message starting with ! or : comes back as literal text: Enter sends it as a message, never as a command', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.broker.maxRetries = 0;
    });
    const { store, session: s } = await start(config);
    broker.enqueue(errorReply(500, { error: { message: 'down' } }));
    s.submit('!rm -rf /tmp/never-run and why', { literal: true });
    await s.idle();
    expect(store.getState().editor).toMatchObject({ text: '!rm -rf /tmp/never-run and why', literal: true });
    // What the input bar does on Enter with a literal editor.
    const begin = broker.requests.length;
    broker.enqueue(textReply('answered'));
    s.submit(store.getState().editor.text, store.getState().editor.literal ? { literal: true } : undefined);
    await s.idle();
    expect(broker.requests[begin]!.body!.messages!.at(-1)).toEqual({ role: 'user', content: '!rm -rf /tmp/never-run and why' });
    expect(store.getState().items.some((item) => item.kind === 'command')).toBe(false);
  });

  it('a taken-back message stays unanswered in the log until something new is sent: quitting loses nothing', async () => {
    const config = await testConfig(broker.url);
    const first = await start(config);
    broker.enqueue(hangReply());
    const hung = broker.requests.length + 1;
    first.session.submit('slow model question');
    await until(first.store, (state) => state.brokerState === 'waiting' || undefined);
    await broker.waitForRequests(hung);
    first.session.cancel();
    await first.session.idle();
    expect(first.store.getState().draft).toBe('slow model question');
    await first.session.close();

    const { store } = await start(config, { continueLast: true });
    expect(store.getState().editor).toMatchObject({ text: 'slow model question', literal: true });
    expect(store.getState().messages).toEqual([]);
  });

  it('a message that failed before any answer is taken back too, and says so; a typed draft is kept', async () => {
    const config = await testConfig(broker.url);
    const { store, session: s } = await start({ ...config, broker: { ...config.broker, maxRetries: 0 } });
    broker.enqueue(errorReply(500, { error: { message: 'model crashed' } }));
    store.getState().setDraft('half typed');
    s.submit('will fail');
    await s.idle();
    const state = store.getState();
    expect(state.draft).toBe('half typed');
    expect(state.messages).toEqual([]);
    const statuses = statusTexts(state.items).join('\n');
    expect(statuses).toContain('no answer: your message was taken back (↑ recalls it)');
    expect(state.items.some((item) => item.kind === 'status' && item.level === 'error' && item.text.includes('model crashed'))).toBe(true);
  });

  it('cancel mid-stream keeps the partial answer, marks it, and leaves the session usable', async () => {
    const config = await testConfig(broker.url);
    const { store, session: s } = await start(config);
    expect(s.cancel()).toBe(false);
    broker.enqueue(textReply('a b c d e f g h i j k l m n o p q r s t u v w x y z', { chunkSize: 2, tokensPerSecond: 10 }));
    s.submit('alphabet slowly');
    await until(store, (state) => state.items.find((item) => item.kind === 'assistant' && item.text.length > 0));
    expect(s.cancel()).toBe(true);
    await s.idle();
    const answer = store.getState().items.find((item) => item.kind === 'assistant');
    expect(answer).toMatchObject({ streaming: false, endNote: 'cancelled' });
    expect(store.getState().messages.at(-1)).toMatchObject({ role: 'assistant', finishReason: 'cancelled' });
    broker.enqueue(textReply('next answer'));
    s.submit('go on');
    await s.idle();
    expect(store.getState().items.at(-1)).toMatchObject({ kind: 'assistant', text: 'next answer' });
    await s.close();

    // Resumed, the cancelled answer keeps its note.
    const resumed = await start(config, { continueLast: true });
    expect(resumed.store.getState().items.filter((item) => item.kind === 'assistant').map((item) => (item as { endNote?: string }).endNote)).toEqual(['cancelled', undefined]);
  });

  it('!command runs at once with the same capture; its output goes with the next message', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.shell.shell = '/bin/sh';
    });
    const { store, session: s } = await start(config);
    s.submit('!echo out; echo err >&2; exit 4');
    await s.idle();
    expect(store.getState().items.at(-1)).toMatchObject({ kind: 'command', state: 'done', exitCode: 4, output: 'out\nerr\n' });
    expect(store.getState().messages.at(-1)).toMatchObject({ role: 'exec', exitCode: 4 });
    const begin = broker.requests.length;
    broker.enqueue(textReply('exit code 4'));
    s.submit('what happened?');
    await s.idle();
    expect(broker.requests[begin]!.body!.messages!.at(-1)).toEqual({ role: 'user', content: '[exec: echo out; echo err >&2; exit 4]\nout\nerr\n[exit code 4]\n\nwhat happened?' });
  });

  it('a proposed CMD: line waits for the command frame; "run" runs the edited command', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.shell.shell = '/bin/sh';
    });
    const { store, session: s } = await start(config);
    broker.enqueue(textReply('Check the date:\nCMD: date +%Y'));
    s.submit('what year is it?');
    const proposed = await until(store, (state) => state.commands[0]);
    expect(proposed.command.command).toBe('date +%Y');
    store.getState().answerCommand({ action: 'run', command: 'echo 2026' });
    await s.idle();
    expect(store.getState().items.at(-1)).toMatchObject({ kind: 'command', command: 'echo 2026', state: 'done', output: '2026\n', exitCode: 0 });
  });

  it('meta commands: :help, :model, :mcp list/tools/tool, :sessions, unknown, :quit', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.mcp.servers = { everything: everythingServer() };
    });
    const { store, session: s, quitCalled } = await start(config);
    await until(store, (state) => state.servers.everything?.state === 'ready' || undefined);
    const last = () => statusTexts(store.getState().items).at(-1) ?? '';

    s.submit(':help');
    await until(store, () => last().includes(':mcp connect <url> [alias]') || undefined);
    expect(last()).toContain(':model [name]');
    expect(last()).toContain('Ctrl+C');
    // Long output is shown unfolded.
    expect(store.getState().expandedIds).toContain(store.getState().items.at(-1)!.id);

    // Without a name, a picker of the configured models (and what their servers offer).
    s.submit(':model');
    const picker = store.getState().picker!;
    expect(picker.items.slice(0, 3).map((item) => [item.label, item.detail])).toContainEqual(['* scripted', expect.stringMatching(/^scripted at 127\.0\.0\.1:\d+ \(no key\)( · context \d+ tokens \(.+\))?$/)]);
    expect(picker.items.map((item) => item.label)).toContain('local');
    store.getState().setPicker(undefined);
    s.submit(':model local');
    await until(store, (state) => state.modelName === 'local' || undefined);
    s.submit(':model nosuch');
    await until(store, () => last().includes('no model named "nosuch"') || undefined);

    s.submit(':mcp list');
    await until(store, () => /builtin\s+ready/.test(last()) || undefined);
    expect(last()).toMatch(/everything\s+ready/);
    s.submit(':mcp tools');
    await until(store, () => last().includes('everything__echo') || undefined);
    expect(last()).toContain('builtin__calculator');
    s.submit(':mcp tools builtin');
    await until(store, () => (last().includes('builtin__roll_dice') && !last().includes('everything__echo')) || undefined);
    s.submit(':mcp tool everything__get-sum');
    await until(store, () => last().includes('input schema:') || undefined);
    s.submit(':mcp disconnect everything');
    await until(store, (state) => state.servers.everything?.state === 'disconnected' || undefined);
    s.submit(':mcp reconnect everything');
    await until(store, (state) => state.servers.everything?.state === 'ready' || undefined);
    s.submit(':mcp frob');
    await until(store, () => last().includes('unknown :mcp subcommand "frob"') || undefined);
    s.submit(':sessions');
    await until(store, () => last().includes('no saved sessions') || undefined);
    s.submit(':nope');
    await until(store, () => last().includes('unknown command :nope') || undefined);
    s.submit(':quit');
    expect(quitCalled()).toBe(true);
  });

  it('a pasted leading ":" or "!" is sent as text (literal submit)', async () => {
    const config = await testConfig(broker.url);
    const { store, session: s } = await start(config);
    const begin = broker.requests.length;
    broker.enqueue(textReply('ok'));
    s.submit(':help is not a command here', { literal: true });
    await s.idle();
    expect(broker.requests[begin]!.body!.messages!.at(-1)).toEqual({ role: 'user', content: ':help is not a command here' });
    expect(store.getState().items[0]).toMatchObject({ kind: 'user', text: ':help is not a command here' });
  });

  it('--continue shows the last session and sends it as context; :clear starts a new one; :resume loads one', async () => {
    const config = await testConfig(broker.url);
    const first = await start(config);
    broker.enqueue(textReply('first answer'));
    first.session.submit('first question');
    await first.session.idle();
    const firstId = readdirSync(sessionsDir(config))[0]!.replace(/\.jsonl$/, '');
    await first.session.close();

    const { store, session: s } = await start(config, { continueLast: true });
    expect(store.getState().items.slice(0, 2)).toMatchObject([
      { kind: 'user', text: 'first question' },
      { kind: 'assistant', text: 'first answer' },
    ]);
    expect(statusTexts(store.getState().items).join('\n')).toContain(`resumed session ${firstId} (2 messages)`);
    const begin = broker.requests.length;
    broker.enqueue(textReply('second answer'));
    s.submit('second question');
    await s.idle();
    expect(broker.requests[begin]!.body!.messages!.map((message) => message.content)).toEqual([config.systemPrompt, 'first question', 'first answer', 'second question']);
    expect(readdirSync(sessionsDir(config))).toHaveLength(1);

    s.submit(':clear');
    expect(store.getState().items.map((item) => item.kind)).toEqual(['status']);
    broker.enqueue(textReply('fresh'));
    s.submit('new topic');
    await s.idle();
    expect(readdirSync(sessionsDir(config))).toHaveLength(2);

    s.submit(`:resume ${firstId}`);
    await until(store, (state) => state.items.find((item) => item.kind === 'user' && item.text === 'second question'));
    expect(store.getState().messages).toHaveLength(4);
  });

  it('a session killed mid-answer resumes with the question back in the input, said so, and sent once', async () => {
    const config = await testConfig(broker.url);
    const first = await start(config);
    broker.enqueue(textReply('answered'));
    first.session.submit('earlier question');
    await first.session.idle();
    broker.enqueue(textReply('never saved', { chunkSize: 2, tokensPerSecond: 5 }));
    first.session.submit('interrupted question');
    await until(first.store, (state) => state.items.find((item) => item.kind === 'assistant' && item.text === 'ne'));
    // What kill -9 leaves: the file as it is now (no close, no answer record).
    const dir = sessionsDir(config);
    const [file] = readdirSync(dir);
    const snapshot = readFileSync(path.join(dir, file!), 'utf8');
    first.session.cancel();
    await first.session.close();
    writeFileSync(path.join(dir, file!), snapshot);

    const { store, session: s } = await start(config, { continueLast: true });
    expect(store.getState().items.filter((item) => item.kind !== 'status')).toMatchObject([
      { kind: 'user', text: 'earlier question' },
      { kind: 'assistant', text: 'answered' },
    ]);
    expect(store.getState().draft).toBe('interrupted question');
    expect(statusTexts(store.getState().items).join('\n')).toContain('the last message got no answer (the app stopped before the answer was saved); it is back in the input');
    const begin = broker.requests.length;
    broker.enqueue(textReply('answered now'));
    s.submit(store.getState().draft);
    await s.idle();
    expect(broker.requests[begin]!.body!.messages!.slice(1)).toEqual([
      { role: 'user', content: 'earlier question' },
      { role: 'assistant', content: 'answered' },
      { role: 'user', content: 'interrupted question' },
    ]);
  });
});
