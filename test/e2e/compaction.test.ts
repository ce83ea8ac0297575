import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { textReply } from '../helpers/scripted-broker';
import { makeScratchHome, ROOT, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// The compaction once the servers have settled (cli/collect-after-load.ts compactWhenServersSettle,
// started by cli/tui.tsx), in the built app: twenty stdio servers of fifty tools grow the old
// generation by about 25 MB from the first frame (BENCHMARKS.md), past the 16 MB that asks for one
// compacting collection. A preload counts the forced major collections.

const { broker, track } = useBrokerAndTerminals({ fallback: () => textReply('ok') });
const GC_LOG = path.join(ROOT, 'test', 'fixtures', 'gc-log.cjs');
const MANY_TOOLS = path.join(ROOT, 'test', 'helpers', 'many-tools-server.mjs');

function twentyServers(): Record<string, unknown> {
  const servers: Record<string, unknown> = {};
  for (let index = 0; index < 20; index++) servers[`s${index}`] = { command: process.execPath, args: [MANY_TOOLS, '--count', '50', '--offset', String(index * 50)] };
  return servers;
}

function start(servers: Record<string, unknown>): { session: TerminalSession; forced: () => string[] } {
  const home = makeScratchHome('aish-compaction-');
  writeHomeConfig(home, { models: { scripted: { baseUrl: broker.url, model: 'scripted' } }, defaultModel: 'scripted', builtin: false, mcp: { servers, connectTimeoutMs: 60_000 } });
  const log = path.join(home, 'gc.log');
  const session = track(new TerminalSession({ home, cols: 120, rows: 40, env: { NODE_OPTIONS: `--require=${GC_LOG}`, AISH_TEST_GC_LOG: log } }));
  return { session, forced: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []) };
}

describe('the servers\' start-up memory', () => {
  it('is compacted once, after all twenty servers are ready and the app has been quiet for a second', async () => {
    const { session, forced } = start(twentyServers());
    await session.waitFor('mcp 20/20', 60_000);
    const deadline = Date.now() + 8_000;
    while (forced().length === 0 && Date.now() < deadline) await sleep(100);
    expect(forced()).toHaveLength(1);
    // Once: nothing more while the app stays idle.
    await sleep(1_500);
    expect(forced()).toHaveLength(1);
  }, 90_000);

  it('is left alone while a server is still connecting', async () => {
    // A server that never answers `initialize` keeps the start-up from having settled.
    const servers = { ...twentyServers(), silent: { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] } };
    const { session, forced } = start(servers);
    await session.waitFor(/mcp 20\/21/, 60_000);
    await sleep(3_000);
    expect(await session.screen()).toMatch(/mcp 20\/21/);
    expect(forced()).toEqual([]);
  }, 90_000);
});
