import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { testManager, type TestManager } from '../helpers/mcp';
import { FIXTURES } from './helpers/app';

// docs/ARCHITECTURE.md, Security invariants 7 and 9, against a real hostile stdio server
// (fixtures/shifty-mcp-server.mjs): one absurd tool costs only itself, duplicate names are refused,
// new tools are named, the overall call limit cancels on the server, stray stdout is kept bounded.

const SHIFTY = path.join(FIXTURES, 'shifty-mcp-server.mjs');

let test: TestManager | undefined;
afterEach(async () => {
  await test?.dispose();
  test = undefined;
});

const shifty = (env: Record<string, string>, extra: Record<string, unknown> = {}) => ({ command: process.execPath, args: [SHIFTY], env, ...extra });
const logOf = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>) : []);

describe('a hostile tool list (real stdio server)', () => {
  it('drops each absurd tool (10,000 levels deep, 5 MB description, endless $ref, malformed) with a note; the others stay', async () => {
    test = testManager();
    const snapshot = await test.manager.connect('shifty', shifty({ SHIFTY_ABSURD: 'deep,huge,cycle,malformed' }));
    expect(snapshot.state).toBe('ready');
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(['echo', 'grow', 'drip']);
    const notes = test.statuses().join('\n');
    expect(notes).toContain('mcp shifty: deep dropped: its definition is nested deeper than 64 levels (limits.toolDefinitionDepth)');
    expect(notes).toContain('mcp shifty: huge dropped: its definition is larger than 256 KB (limits.toolDefinitionBytes)');
    expect(notes).toMatch(/mcp shifty: cycle dropped: its input schema refers to itself without end/);
    expect(notes).toMatch(/mcp shifty: tool #\d+ \(no name\) dropped: it is not a valid tool definition/);
    // The server still works.
    expect((await test.manager.callTool('shifty', 'echo', { text: 'hi' })).content).toContain('echo got {"text":"hi"}');
  }, 30_000);

  it('refuses both definitions of a duplicated name (also in another Unicode form) and names them', async () => {
    test = testManager();
    const snapshot = await test.manager.connect('shifty', shifty({ SHIFTY_NAMES: 'dup,dup,caf\u00e9,cafe\u0301,solo' }));
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(['echo', 'grow', 'drip', 'solo']);
    expect(test.statuses()).toContain('mcp shifty: the server lists shifty__dup, shifty__caf<U+00E9> more than once; none of the definitions under those names are used');
  }, 30_000);

  it('names the tools a list_changed added', async () => {
    test = testManager();
    await test.manager.connect('shifty', shifty({}));
    await test.manager.callTool('shifty', 'grow', { name: 'exfiltrate' });
    const deadline = Date.now() + 10_000;
    while (!test.statuses().some((line) => line.includes('tool list changed')) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(test.statuses()).toContain('mcp shifty: tool list changed (4 tools; added: exfiltrate)');
  }, 30_000);

  it('tells the server when the overall limit ends a call that keeps sending progress', async () => {
    test = testManager();
    const log = path.join(test.stateDir, 'calls.jsonl');
    // Progress every 20 ms restarts the 100 ms limit; the overall limit (10x: 1 s) ends the call.
    await test.manager.connect('shifty', shifty({ SHIFTY_LOG: log }, { timeoutMs: 100 }));
    const outcome = await test.manager.callTool('shifty', 'drip', {});
    expect(outcome.kind).toBe('timeout');
    expect(outcome.content).toMatch(/progress notifications extended the 100ms limit, up to 10x: 1s/);
    const deadline = Date.now() + 5_000;
    while (!logOf(log).some((entry) => 'cancelled' in entry) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(logOf(log).find((entry) => 'cancelled' in entry)).toMatchObject({ reason: expect.stringContaining('in all') });
  }, 30_000);

  it('keeps stray stdout lines bounded, cut and raw in the snapshot (escaped only when shown)', async () => {
    test = testManager();
    await test.manager.connect('shifty', shifty({ SHIFTY_STRAY: '80' }));
    await test.manager.callTool('shifty', 'echo', { text: 'x' });
    const deadline = Date.now() + 5_000;
    let stray: string[] = [];
    while (Date.now() < deadline) {
      stray = test.manager.servers().find((server) => server.alias === 'shifty')?.strayStdout ?? [];
      if (stray.some((line) => line.includes('during echo #80'))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(stray).toHaveLength(50);
    expect(stray.at(-1)).toBe('stray during echo #80 \u001b[31mred\u001b[0m \u202Eevil');
    // The protocol lines themselves are never counted as stray.
    expect(stray.some((line) => line.includes('jsonrpc'))).toBe(false);
  }, 30_000);
});

describe('a cancelled call over streamable HTTP (real loopback server that keeps streaming)', () => {
  it('stops reading the answer stream at once: the server sees the stream closed, little was written after the cancel', async () => {
    const { startStreamingServer } = await import('./fixtures/streaming-http-server');
    const server = await startStreamingServer();
    test = testManager();
    try {
      expect((await test.manager.connect('streaming', { url: server.url, transport: 'http' })).state).toBe('ready');
      const controller = new AbortController();
      let progress = 0;
      const outcome = await test.manager.callTool('streaming', 'stream', {}, {
        signal: controller.signal,
        // Cancel once the stream is well under way.
        onProgress: () => {
          if ((progress += 1) === 20) controller.abort();
        },
      });
      expect(outcome.kind).toBe('cancelled');
      // The client closed the stream; the server did not have to stop.
      const closed = await Promise.race([server.closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5_000))]);
      expect(closed).toBe(true);
      expect(server.cancelled).toBe(true);
      // What was on its way when the cancel went out (socket buffers), not a stream read on and on.
      expect(server.written.afterCancel).toBeLessThan(4 * 1024 * 1024);
    } finally {
      await test.dispose();
      test = undefined;
      await server.stop();
    }
  }, 30_000);
});
