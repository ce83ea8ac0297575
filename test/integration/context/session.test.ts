import { afterEach, describe, expect, it } from 'vitest';
import { createSession, type Session } from '../../../src/runtime/session';
import { listSessions, loadSession, sessionsDir } from '../../../src/services/history/index';
import { selectContextUsed, selectContextWindow, selectContextWindowTokens } from '../../../src/state/selectors';
import { createAppStore, type AppStore } from '../../../src/state/store';
import type { AppConfig } from '../../../src/services/config/load';
import { isCompactionRequest, startContextServer, SUMMARY_MARK } from '../../helpers/context-servers';
import type { ScriptedBroker } from '../../helpers/scripted-broker';
import { configFor } from './harness';
import { untilStore as until } from '../../helpers/store-until';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});


async function start(config: AppConfig, args?: { continueLast: boolean }) {
  const store = createAppStore();
  const session: Session = createSession({ config, store, quit: () => {}, ...(args ? { args } : {}) });
  open.push(session);
  await until(store, (state) => state.servers.builtin?.state === 'ready' || undefined);
  return { store, session };
}

const statusTexts = (store: AppStore) => store.getState().items.flatMap((item) => (item.kind === 'status' ? [item.text] : []));

describe('the context budget in the TUI session', () => {
  let server: ScriptedBroker;

  it('the window reaches the store in the background; the meter counts; :context and :model say it; :compact is logged and resumed', async () => {
    server = await startContextServer('llama.cpp', 4096);
    open.push(server);
    const config = await configFor('llama.cpp', server.url);
    const { store, session } = await start(config);
    const window = await until(store, (state) => selectContextWindow(state));
    expect(window).toMatchObject({ tokens: 4096 });
    expect(selectContextWindowTokens(store.getState())).toBe(4096);

    for (const text of ['first question', 'second question', 'third question']) {
      session.submit(text);
      await session.idle();
    }
    const counted = store.getState().context!;
    expect(counted.reported).toBe(true);
    expect(selectContextUsed(store.getState())).toBe(counted.used);

    session.submit(':context');
    const context = statusTexts(store).at(-1)!;
    expect(context).toMatch(/^context of local-model: [\d.k]+ of 4k tokens \(\d+%\), counted by the server/);
    expect(context).toContain('window: 4096 tokens, from llama.cpp /props');
    // The window was asked of the server's own endpoint, never of the model list.
    expect(server.probes.map((probe) => probe.path)).toContain('/props');
    expect(server.requests.filter((request) => request.method === 'GET')).toEqual([]);
    // A 4k window is too small for every built-in tool: the model gets tool_search instead (README.md, "Tool budget").
    expect(context).toMatch(/tool definitions +[\d.k]+ +tool search/);
    expect(context).toMatch(/reserve for the answer +1.0k +the model sets no max_tokens/);
    session.submit(':model local-model');
    expect(statusTexts(store).at(-1)).toContain('context window: 4096 tokens, from llama.cpp /props (n_ctx of a slot)');

    session.submit(':compact the question numbers');
    await session.idle();
    const compaction = store.getState().items.find((item) => item.kind === 'compaction');
    expect(compaction).toMatchObject({ kind: 'compaction', trigger: 'user', focus: 'the question numbers', replaced: 2 });
    const request = server.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1)!;
    expect(isCompactionRequest(request)).toBe(true);
    expect(JSON.stringify(request.body?.messages)).toContain('the question numbers');
    // The meter shows the smaller context at once.
    expect(store.getState().context!.reported).toBe(false);
    expect(store.getState().context!.used).toBeLessThan(counted.used);

    // The file keeps every message and the record; --continue sends the summary and the kept turns.
    await session.close();
    const dir = sessionsDir(config);
    const file = loadSession(dir, listSessions(dir)[0]!.id);
    expect(file.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'compaction']);

    const resumed = await start(config, { continueLast: true });
    resumed.session.submit('fourth question');
    await resumed.session.idle();
    const next = server.requests.filter((r) => r.path.endsWith('/chat/completions')).at(-1)!;
    const sent = JSON.stringify(next.body?.messages);
    expect(sent).toContain(SUMMARY_MARK);
    expect(sent).toContain('third question');
    expect(sent).toContain('fourth question');
    expect(sent).not.toContain('first question');
    // The transcript still shows the whole history, the compaction among it.
    expect(resumed.store.getState().items.filter((item) => item.kind === 'user')).toHaveLength(4);
  });
});
