import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../../helpers/lifecycle';
import { textReply, toolCallReply } from '../../helpers/scripted-broker';
import { createSession, type Session } from '../../../src/runtime/session';
import { createAppStore } from '../../../src/state/store';
import { everythingServer, testConfig } from './harness';
import { untilStore as until } from '../../helpers/store-until';

// What reaches the model later than a tool call's answer, through the TUI's session: a task moved
// to the background with :bg (server-everything's simulate-research-query), and a seed-style
// result pushed as progress after the call returned (test/helpers/async-ops-server.mjs).
const { broker, track } = useBrokerAndTerminals();
const ASYNC_OPS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'helpers', 'async-ops-server.mjs');


const userTexts = (body: unknown) => ((body as { messages: Array<{ role: string; content: unknown }> }).messages ?? []).filter((message) => message.role === 'user').map((message) => String(message.content));

describe('late results in the TUI session', () => {
  it(':bg lets the turn go on; the task result is shown and sent to the model when it completes', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.mcp.servers = { everything: everythingServer() };
    });
    const store = createAppStore();
    const session: Session = track(createSession({ config, store, quit: () => undefined }));
    await until(store, (state) => state.servers.everything?.state === 'ready');
    const begin = broker.requests.length;
    broker.enqueue(toolCallReply([{ id: 't1', name: 'everything__simulate-research-query', arguments: { topic: 'coral' } }]), textReply('I will wait for the report.'), textReply('The report is in.'));
    session.submit('research coral');
    await until(store, (state) => state.approvals[0]);
    store.getState().answerApproval({ action: 'allow', scope: 'once' });
    // The task runs: its status is under the call.
    await until(store, (state) => state.items.some((item) => item.kind === 'tool' && item.progress?.task === 'working'));
    session.submit(':bg');
    await until(store, (state) => state.items.some((item) => item.kind === 'assistant' && item.text === 'I will wait for the report.'));
    const toolTurn = (broker.requests[begin + 1]!.body as { messages: Array<{ role: string; content: string }> }).messages.find((message) => message.role === 'tool');
    expect(toolTurn?.content).toMatch(/^\[aish\] everything__simulate-research-query runs in the background as task \S+; its result will be given to you in a later message/);
    // The task completes: a message of its own carries the report to the model.
    await until(store, (state) => state.items.some((item) => item.kind === 'assistant' && item.text === 'The report is in.'));
    const last = userTexts(broker.requests[begin + 2]!.body).at(-1)!;
    expect(last).toMatch(/^\[aish\] background task \S+ of everything__simulate-research-query completed\. Its result:/);
    expect(last).toContain('# Research Report: coral');
    expect(store.getState().items.some((item) => item.kind === 'status' && /background task \S+ of everything__simulate-research-query completed/.test(item.text))).toBe(true);
  }, 60_000);

  it('a result pushed as progress after the call returned is shown, then sent with the next message', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.mcp.servers = { ahma: { command: process.execPath, args: [ASYNC_OPS] } };
    });
    const store = createAppStore();
    const session: Session = track(createSession({ config, store, quit: () => undefined }));
    await until(store, (state) => state.servers.ahma?.state === 'ready');
    const begin = broker.requests.length;
    broker.enqueue(toolCallReply([{ id: 'b1', name: 'ahma__build', arguments: { target: 'core' } }]), textReply('Build started.'), textReply('Noted: it succeeded.'));
    session.submit('build core');
    await until(store, (state) => state.approvals[0]);
    store.getState().answerApproval({ action: 'allow', scope: 'once' });
    await session.idle();
    await until(store, (state) => state.items.some((item) => item.kind === 'status' && item.text.includes('ahma__build (after returning): operation op_1 completed')));
    session.submit('how did it go?');
    await session.idle();
    const texts = userTexts(broker.requests[begin + 2]!.body);
    // Its own message in the history, in front of the user's (the request joins adjacent user turns).
    expect(texts.at(-1)).toBe('[aish] ahma__build reported after its call had returned (progress 1/1): operation op_1 completed: build of core succeeded (0 warnings)\n\nhow did it go?');
    expect(store.getState().messages.filter((message) => message.role === 'user').map((message) => message.content.slice(0, 30))).toEqual(['build core', '[aish] ahma__build reported af', 'how did it go?']);
  }, 60_000);
});
