import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bridgeMcpEvents } from '../../../src/runtime/mcp-bridge';
import { elicitInStore } from '../../../src/runtime/elicitation';
import { createAppStore, type AppStore } from '../../../src/state/store';
import type { ElicitationAnswer, ElicitationRequest } from '../../../src/services/mcp/types';
import { testManager, type TestManager } from '../../helpers/mcp';

// A server asking in the middle of a tool call, through the store the TUI draws its frames from
// (README.md, "What servers may ask"): the call waits for the user however long the timeout,
// `notifications/elicitation/complete` closes or answers what it belongs to, and a URL-required
// error (-32042) leads to one retry of the call.

const ASKING = path.resolve(import.meta.dirname, '..', '..', 'helpers', 'asking-mcp-server.mjs');

let test: TestManager | undefined;
let unbridge: (() => void) | undefined;

afterEach(async () => {
  unbridge?.();
  await test?.dispose();
  test = undefined;
});

async function start(toolTimeoutMs = 30_000): Promise<{ store: AppStore; opened: string[]; statuses: () => string[] }> {
  const store = createAppStore();
  const opened: string[] = [];
  const status = (_level: string, text: string) => store.getState().addStatus('info', text);
  test = testManager({ toolTimeoutMs, elicit: elicitInStore({ store, status, openUrl: async (url) => void opened.push(url) }) });
  unbridge = bridgeMcpEvents(test.manager, store);
  const snapshot = await test.manager.connect('asking', { command: process.execPath, args: [ASKING] });
  expect(snapshot.state).toBe('ready');
  const statuses = () => store.getState().items.flatMap((item) => (item.kind === 'status' ? [item.text] : []));
  return { store, opened, statuses };
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Waits until the head frame is one matching `match`, then answers it. */
async function answerHead(store: AppStore, match: (request: ElicitationRequest) => boolean, answer: ElicitationAnswer) {
  await until(() => store.getState().elicitations[0] !== undefined && match(store.getState().elicitations[0]!.request));
  store.getState().answerElicitation(answer, store.getState().elicitations[0]!.id);
}

describe('a server asking in the middle of a tool call', () => {
  it('does not time the call out while the form waits for the user', async () => {
    const { store } = await start(400);
    const call = test!.manager.callTool('asking', 'ask', {});
    await until(() => store.getState().elicitations.length === 1);
    // The user takes several times the call's timeout to fill the form.
    const waited = Date.now();
    await until(() => Date.now() - waited > 1_500);
    store.getState().answerElicitation({ action: 'accept', content: { name: 'Ada' } }, store.getState().elicitations[0]!.id);
    const outcome = await call;
    expect(outcome.kind).toBe('ok');
    expect(outcome.content).toContain('answer: accept {"name":"Ada"}');
  });

  it('still times out a call that stays silent while nobody is asked', async () => {
    await start(400);
    const outcome = await test!.manager.callTool('asking', 'silent', {});
    expect(outcome.kind).toBe('timeout');
    expect(outcome.content).toMatch(/timed out after 400ms|timed out after 0\.4s/);
  });

  it('closes a URL frame the server reports complete, and says so', async () => {
    const { store, statuses } = await start();
    const call = test!.manager.callTool('asking', 'open-page', { completeAfterMs: 300 });
    await until(() => store.getState().elicitations.length === 1);
    expect(store.getState().elicitations[0]!.request).toMatchObject({ mode: 'url', elicitationId: 'page-1' });
    const outcome = await call;
    expect(store.getState().elicitations).toEqual([]);
    expect(outcome.content).toContain('page: cancel');
    expect(statuses().join('\n')).toMatch(/mcp asking: the server says the interaction at the URL is complete/);
  });

  it('ignores a completion for a page it never showed', async () => {
    const { store, statuses } = await start();
    const outcome = await test!.manager.callTool('asking', 'stray-complete', {});
    expect(outcome.content).toContain('reported');
    await until(() => test!.events.some((event) => event.type === 'elicitation-complete'));
    expect(statuses().join('\n')).not.toMatch(/complete/);
    expect(store.getState().elicitations).toEqual([]);
  });
});

describe('a URL-required error (-32042)', () => {
  it('runs the call once more when the user says so after opening the page', async () => {
    const { store, opened } = await start();
    const call = test!.manager.callTool('asking', 'needs-page', {});
    await answerHead(store, (request) => request.mode === 'url' && request.url === 'https://example.com/consent' && !request.retry, { action: 'accept' });
    await answerHead(store, (request) => request.mode === 'url' && request.retry?.tool === 'needs-page', { action: 'accept' });
    const outcome = await call;
    expect(opened).toEqual(['https://example.com/consent']);
    expect(outcome.kind).toBe('ok');
    expect(outcome.content).toContain('done after the page');
    expect((await test!.manager.callTool('asking', 'calls', {})).content).toContain('"needs-page":2');
  });

  it('runs it once more on its own when the server reports the page done', async () => {
    const { store, statuses } = await start();
    const call = test!.manager.callTool('asking', 'needs-page', { completeAfterMs: 800 });
    await answerHead(store, (request) => request.mode === 'url' && !request.retry, { action: 'accept' });
    await until(() => {
      const head = store.getState().elicitations[0]?.request;
      return head?.mode === 'url' && head.retry !== undefined;
    });
    const outcome = await call;
    expect(outcome.content).toContain('done after the page');
    expect(store.getState().elicitations).toEqual([]);
    expect(statuses().join('\n')).toMatch(/the call runs once more/);
  });

  it('leaves the call failed when the user does not want it run again, and tells the model', async () => {
    const { store } = await start();
    const call = test!.manager.callTool('asking', 'needs-page', {});
    await answerHead(store, (request) => request.mode === 'url' && !request.retry, { action: 'accept' });
    await answerHead(store, (request) => request.mode === 'url' && request.retry !== undefined, { action: 'decline' });
    const outcome = await call;
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toMatch(/https:\/\/example\.com\/consent: the user opened it.*call the tool again/);
    expect((await test!.manager.callTool('asking', 'calls', {})).content).toContain('"needs-page":1');
  });

  it('asks nothing more when the user declined to open the page', async () => {
    const { store } = await start();
    const call = test!.manager.callTool('asking', 'needs-page', {});
    await answerHead(store, (request) => request.mode === 'url' && !request.retry, { action: 'decline' });
    const outcome = await call;
    expect(outcome.content).toMatch(/declined to open it/);
    expect(store.getState().elicitations).toEqual([]);
  });
});
