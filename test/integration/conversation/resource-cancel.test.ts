import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../../helpers/lifecycle';
import { textReply } from '../../helpers/scripted-broker';
import { createSession, type Session } from '../../../src/runtime/session';
import { formatKeymap } from '../../../src/ui/keys/keymap';
import type { AppConfig } from '../../../src/services/config/load';
import { createAppStore, type AppStore } from '../../../src/state/store';
import type { ChatItem } from '../../../src/state/types';
import { testConfig } from './harness';
import { untilStore as until } from '../../helpers/store-until';

// A message naming a resource of a server that is still connecting waits for the server before it
// is queued. Esc in that wait takes it back like a queued message: it is never sent later.
const { broker, track } = useBrokerAndTerminals();
const require = createRequire(import.meta.url);
const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const MENTION = 'summarise @slow:demo://resource/static/document/architecture.md';
/** How long the server takes to start answering. */
const SLOW_START_S = 3;


const statusTexts = (items: ChatItem[]) => items.flatMap((item) => (item.kind === 'status' ? [item.text] : []));

async function startWithSlowServer(): Promise<{ store: AppStore; session: Session; config: AppConfig }> {
  const config = await testConfig(broker.url, (loaded) => {
    loaded.mcp.servers = { slow: { command: 'sh', args: ['-c', `sleep ${SLOW_START_S}; exec "${process.execPath}" "${EVERYTHING}" stdio`] } };
  });
  const store = createAppStore();
  const session = track(createSession({ config, store, quit: () => {}, keyHelp: formatKeymap }));
  await until(store, (state) => state.servers.slow?.state === 'connecting' || undefined);
  return { store, session, config };
}

describe('Esc while a message waits for its resources', () => {
  it('takes the message back into the input; it is not sent once the server is up', async () => {
    const { store, session } = await startWithSlowServer();
    const before = broker.requests.length;
    session.submit(MENTION);
    await until(store, (state) => statusTexts(state.items).some((text) => text.startsWith('waiting for slow to connect')) || undefined);
    expect(session.cancel()).toBe(true);
    expect(store.getState().draft).toBe(MENTION);
    expect(statusTexts(store.getState().items).join('\n')).toContain('cancelled: 1 queued message is back in the input');
    // Once the server is ready, nothing went out for it; a second Esc finds nothing to cancel.
    await until(store, (state) => state.servers.slow?.state === 'ready' || undefined, 20_000);
    await session.idle();
    expect(broker.requests.length).toBe(before);
    expect(session.cancel()).toBe(false);
    // Sent again, it reads the resource and goes.
    broker.enqueue(textReply('A summary.'));
    store.getState().setDraft('');
    session.submit(MENTION);
    await until(store, (state) => state.items.some((item) => item.kind === 'assistant' && item.text === 'A summary.') || undefined);
    expect(JSON.stringify(broker.requests.at(-1)!.body!.messages!.at(-1))).toContain('[resource: slow:demo://resource/static/document/architecture.md]');
  });

  it('with a message running, it comes back after that one, in the order both were sent', async () => {
    const { store, session } = await startWithSlowServer();
    const before = broker.requests.length;
    // The first message runs: it waits for the starting server before its request (no request is made).
    session.submit('the running question');
    session.submit(MENTION);
    await until(store, (state) => statusTexts(state.items).some((text) => text.startsWith('waiting for slow to connect')) || undefined);
    expect(session.cancel()).toBe(true);
    await session.idle();
    expect(store.getState().draft).toBe(`the running question\n\n${MENTION}`);
    await until(store, (state) => state.servers.slow?.state === 'ready' || undefined, 20_000);
    await session.idle();
    expect(broker.requests.length).toBe(before);
  });
});
