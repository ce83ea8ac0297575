import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../../src/runtime/session';
import type { AppConfig } from '../../../src/services/config/load';
import { createAppStore, type AppStore } from '../../../src/state/store';
import type { ChatItem } from '../../../src/state/types';
import { freePort, until } from '../../helpers/mcp';
import { useBrokerAndTerminals } from '../../helpers/lifecycle';
import { textReply, toolCallReply } from '../../helpers/scripted-broker';
import { CLI, makeScratchHome, testEnv } from '../../helpers/terminal';
import { everythingServer, testConfig } from '../conversation/harness';

// What the user reads about MCP servers in the transcript: each thing said once, at the level it
// deserves, and nothing announced that will not be tried. The real session wiring (manager events
// into the store, the meta commands), real servers, a dead port.

const { broker, track } = useBrokerAndTerminals();
let deadUrl: string;

beforeAll(async () => {
  deadUrl = `http://127.0.0.1:${await freePort()}/mcp`;
});

type Status = Extract<ChatItem, { kind: 'status' }>;
const statuses = (store: AppStore): Status[] => store.getState().items.filter((item): item is Status => item.kind === 'status');
const saying = (store: AppStore, text: string) => statuses(store).filter((item) => item.text.includes(text));

/** Lets whatever else a finished step would print arrive (a second report comes within microtasks). */
const settle = () => sleep(300);

async function start(configure: (config: AppConfig) => void) {
  const config = await testConfig(broker.url, configure);
  const store = createAppStore();
  const session = track(createSession({ config, store, quit: () => {} }));
  await until(() => store.getState().servers.builtin?.state === 'ready', 15_000);
  return { store, session };
}

describe('MCP messages in the transcript', () => {
  it('reports a failed connect once: at start, :mcp reconnect, r in the sidebar, :mcp connect, the sidebar connect form', async () => {
    const { store, session: s } = await start((config) => {
      config.mcp.servers = { nowhere: { url: deadUrl } };
    });
    const state = () => store.getState().servers.nowhere?.state;
    await until(() => state() === 'error', 15_000);
    await settle();
    expect(saying(store, 'nowhere')).toEqual([expect.objectContaining({ level: 'error', text: 'mcp nowhere: cannot reach the server (ECONNREFUSED)' })]);

    s.submit(':mcp reconnect nowhere');
    await until(() => saying(store, 'nowhere').length >= 2, 15_000);
    await settle();
    expect(saying(store, 'nowhere')).toHaveLength(2);

    s.reconnectServer('nowhere');
    await until(() => saying(store, 'nowhere').length >= 3, 15_000);
    await settle();
    expect(saying(store, 'nowhere')).toHaveLength(3);

    s.submit(`:mcp connect ${deadUrl} gone`);
    await until(() => saying(store, 'mcp gone:').length >= 1, 15_000);
    await settle();
    expect(saying(store, 'gone').map((item) => [item.level, item.text])).toEqual([
      ['info', `mcp: connecting ${deadUrl} as gone…`],
      ['error', 'mcp gone: cannot reach the server (ECONNREFUSED)'],
    ]);

    s.connectServer(deadUrl, 'formed');
    await until(() => saying(store, 'formed').length >= 1, 15_000);
    await settle();
    expect(saying(store, 'formed').map((item) => item.text)).toEqual(['mcp formed: cannot reach the server (ECONNREFUSED)']);
  });

  it('validates :mcp connect before announcing it, and announces the alias that will be used', async () => {
    const { store, session: s } = await start((config) => {
      config.mcp.servers = { ev: everythingServer() };
    });
    await until(() => store.getState().servers.ev?.state === 'ready', 15_000);
    const before = statuses(store).length;
    const added = () => statuses(store).slice(before).map((item) => [item.level, item.text]);

    s.submit(':mcp connect notaurl');
    await until(() => added().length >= 1, 15_000);
    await settle();
    expect(added()).toEqual([['error', 'not an http(s) URL: "notaurl"']]);

    s.submit(`:mcp connect ${deadUrl} ev`);
    await until(() => added().length >= 2, 15_000);
    await settle();
    expect(added()[1]).toEqual(['error', 'alias "ev" is already in use (disconnect it first or pick another alias)']);
    expect(added()).toHaveLength(2);

    s.submit(`:mcp connect ${deadUrl} bad__alias`);
    await until(() => added().length >= 3, 15_000);
    await settle();
    expect(added()[2]![0]).toBe('error');
    expect(added()).toHaveLength(3);
    expect(added().some(([, text]) => text!.includes('connecting'))).toBe(false);

    // Without an alias the announcement names the one made from the address.
    const port = new URL(deadUrl).port;
    s.submit(`:mcp connect ${deadUrl}`);
    await until(() => added().length >= 5, 15_000);
    expect(added().slice(3)).toEqual([
      ['info', `mcp: connecting ${deadUrl} as 127-0-0-1-${port}…`],
      ['error', `mcp 127-0-0-1-${port}: cannot reach the server (ECONNREFUSED)`],
    ]);
  });

  it('shows :mcp tool lookups that find nothing as errors', async () => {
    const { store, session: s } = await start((config) => {
      config.mcp.servers = { ev: everythingServer() };
    });
    await until(() => store.getState().servers.ev?.state === 'ready', 15_000);
    const last = () => statuses(store).at(-1)!;

    s.submit(':mcp tool nosuch__x');
    await until(() => last().text === 'no MCP server named "nosuch"', 15_000);
    expect(last().level).toBe('error');
    s.submit(':mcp tool ev__nosuch');
    await until(() => last().text === 'server ev has no tool "nosuch"', 15_000);
    expect(last().level).toBe('error');
    s.submit(':mcp tool ev__echo');
    await until(() => last().text.startsWith('ev__echo'), 15_000);
    expect(last().level).toBe('info');
  });

  it('warns once that an image reached the model as a placeholder', async () => {
    const { store, session: s } = await start((config) => {
      config.mcp.servers = { ev: everythingServer() };
      config.mcp.autoApprove = { 'ev__get-tiny-image': true };
    });
    await until(() => store.getState().servers.ev?.state === 'ready', 15_000);
    broker.enqueue(toolCallReply([{ id: 'call_1', name: 'ev__get-tiny-image', arguments: {} }]));
    broker.enqueue(textReply('A tiny image.'));
    s.submit('show me the image');
    await s.idle();
    await settle();
    expect(saying(store, 'placeholder').map((item) => [item.level, item.text])).toEqual([['warn', 'ev__get-tiny-image returned image/png content; the model sees a placeholder']]);
  });
});

describe('MCP messages in a headless run', () => {
  it('prints a server that cannot be reached once on stderr', async () => {
    const home = makeScratchHome('aish-mcp-msg-');
    mkdirSync(path.join(home, '.config', 'aish'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'aish', 'config.json'), JSON.stringify({ mcp: { servers: { nowhere: { url: deadUrl } } } }));
    broker.enqueue(textReply('fine'));
    const stderr = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, [CLI, '--base-url', broker.url, '--model', 'scripted', '-p', 'hello'], { env: testEnv(home), cwd: home });
      let text = '';
      child.stderr.on('data', (data: Buffer) => (text += data.toString()));
      child.on('error', reject);
      child.on('close', () => resolve(text));
      child.stdin.end();
    });
    expect(stderr).not.toMatch(/unknown key|usage/);
    expect(stderr.split('\n').filter((line) => line.includes('nowhere'))).toEqual(['aish-tui: mcp nowhere: cannot reach the server (ECONNREFUSED)']);
  });
});
