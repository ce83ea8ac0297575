import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../../src/runtime/session';
import { createAppStore, type AppStore } from '../../../src/state/store';
import type { ChatItem } from '../../../src/state/types';
import { startLegacySseServer, type LegacySseServer } from '../../helpers/legacy-sse-server';
import { until } from '../../helpers/mcp';
import { useBrokerAndTerminals } from '../../helpers/lifecycle';
import { testConfig } from '../conversation/harness';

// `:mcp connect <url> [alias] [--sse|--http] [--token-env VAR]` through the real session wiring,
// against a loopback server that speaks only legacy SSE and wants a Bearer token.

const TOKEN = 'pw-secret-token-0123456789';
const { broker, track } = useBrokerAndTerminals();
let server: LegacySseServer;

beforeAll(async () => {
  server = await startLegacySseServer({ token: TOKEN, postStatus: 400 });
});

afterAll(async () => {
  await server.close();
});

type Status = Extract<ChatItem, { kind: 'status' }>;
const statuses = (store: AppStore): Status[] => store.getState().items.filter((item): item is Status => item.kind === 'status');

async function start() {
  const config = await testConfig(broker.url, (config) => {
    config.builtin = false;
  });
  const store = createAppStore();
  const session = track(createSession({ config, store, quit: () => {}, env: { ...process.env, PW_TOKEN: TOKEN } }));
  return { store, session };
}

/** Runs one command and returns the status lines it added once `done` says it has finished. */
async function command(store: AppStore, submit: (line: string) => void, line: string, done: (lines: Status[]) => boolean): Promise<Array<[string, string]>> {
  const before = statuses(store).length;
  const added = () => statuses(store).slice(before);
  submit(line);
  await until(() => done(added()), 15_000);
  await sleep(200);
  return added().map((item) => [item.level, item.text]);
}

describe(':mcp connect flags', () => {
  it('--sse goes straight to the event stream; --token-env sends the token and never shows it', async () => {
    const { store, session } = await start();
    const first = server.requests.length;
    const lines = await command(store, (line) => session.submit(line), `:mcp connect ${server.sseUrl} pw --sse --token-env PW_TOKEN`, (added) => added.some((item) => item.text.startsWith('mcp pw:')));
    expect(lines).toEqual([
      ['info', `mcp: connecting ${server.sseUrl} as pw (legacy SSE, token from $PW_TOKEN)…`],
      // Tools first seen are named (README.md, "Safety"); no server-wide rule waits for them here.
      ['info', 'mcp pw: 2 new tools: browser_navigate, browser_snapshot'],
      ['info', 'mcp pw: ready, 2 tools'],
    ]);
    expect(store.getState().servers.pw).toMatchObject({ state: 'ready', transport: 'sse' });
    const mine = server.requests.slice(first);
    expect(mine[0]).toMatchObject({ method: 'GET', path: '/sse' });
    expect(mine.every((request) => request.authorization === `Bearer ${TOKEN}`)).toBe(true);
    expect(JSON.stringify(store.getState())).not.toContain(TOKEN);
  });

  it('without a flag falls back from the 400 to SSE; --http does not', async () => {
    const { store, session } = await start();
    const auto = await command(store, (line) => session.submit(line), `:mcp connect ${server.sseUrl} auto --token-env PW_TOKEN`, (added) => added.some((item) => item.text.startsWith('mcp auto:')));
    expect(auto.at(-1)).toEqual(['info', 'mcp auto: ready, 2 tools']);
    expect(store.getState().servers.auto).toMatchObject({ state: 'ready', transport: 'sse' });

    const first = server.requests.length;
    const forced = await command(store, (line) => session.submit(line), `:mcp connect --http ${server.sseUrl} strict --token-env=PW_TOKEN`, (added) => added.some((item) => item.text.startsWith('mcp strict:')));
    expect(forced).toEqual([
      ['info', `mcp: connecting ${server.sseUrl} as strict (streamable HTTP only, token from $PW_TOKEN)…`],
      ['error', expect.stringMatching(/^mcp strict: HTTP 400: Invalid request/)],
    ]);
    // The server/discover probe, then initialize (protocol.ts): both refused, and no SSE fallback.
    expect(server.requests.slice(first).map((request) => `${request.method} ${request.path}`)).toEqual(['POST /sse', 'POST /sse']);
  });

  it('says what is wrong with the flags before trying anything', async () => {
    const { store, session } = await start();
    const first = server.requests.length;
    const run = (line: string) => command(store, (text) => session.submit(text), line, (added) => added.length > 0);
    expect(await run(`:mcp connect ${server.sseUrl} x --token-env NOT_SET_ANYWHERE`)).toEqual([['error', '--token-env: $NOT_SET_ANYWHERE is not set']]);
    expect(await run(`:mcp connect ${server.sseUrl} x --sse --http`)).toEqual([['error', expect.stringContaining('--sse and --http exclude each other')]]);
    expect(await run(`:mcp connect ${server.sseUrl} x --websocket`)).toEqual([['error', expect.stringMatching(/--websocket.*usage: :mcp connect <url> \[alias\] \[--sse\|--http\] \[--token-env VAR\]/)]]);
    expect(await run(`:mcp connect ${server.sseUrl} x --token-env`)).toEqual([['error', expect.stringContaining('--token-env')]]);
    expect(await run(`:mcp connect ${server.sseUrl} x y`)).toEqual([['error', expect.stringContaining('unexpected argument "y"')]]);
    expect(server.requests.length).toBe(first);
  });
});
