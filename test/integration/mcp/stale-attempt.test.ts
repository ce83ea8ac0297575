import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../../../src/services/config/schema';
import type { McpEvent } from '../../../src/services/mcp/index';
import { EVERYTHING, testManager, type TestManager, until } from '../../helpers/mcp';

// A connect attempt that is overtaken (the user disconnects or reconnects while it still waits for
// a server) is aborted: what it later learns (a failure, a closed process) never changes the
// server's state or puts a line in the status bar.

/** A process that never speaks MCP but, like a real server, exits when its stdin closes. */
const SILENT = 'process.stdin.resume(); process.stdin.on("end", () => process.exit(0));';
/** The first start stays silent; every later one is server-everything over stdio. */
const SILENT_ONCE = `
const [marker, everything] = process.argv.slice(1);
const fs = require('node:fs');
if (!fs.existsSync(marker)) {
  fs.writeFileSync(marker, '');
  ${SILENT}
} else {
  const child = require('node:child_process').spawn(process.execPath, [everything, 'stdio'], { stdio: 'inherit' });
  child.on('exit', (code) => process.exit(code ?? 1));
}`;

let test: TestManager | undefined;
let dir: string | undefined;
afterEach(async () => {
  await test?.dispose();
  test = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** Server snapshots and status lines of one server, from `from` on. */
function since(events: McpEvent[], from: number) {
  const later = events.slice(from);
  return {
    states: later.flatMap((event) => (event.type === 'server' ? [event.snapshot.state] : [])),
    errors: later.flatMap((event) => (event.type === 'status' && event.level === 'error' ? [event.message] : [])),
  };
}

describe('an overtaken connect attempt', () => {
  it('disconnecting while a server is still connecting leaves it disconnected, with no error', async () => {
    test = testManager({ connectTimeoutMs: 60_000 });
    dir = mkdtempSync(path.join(os.tmpdir(), 'aish-mcp-stale-'));
    const marker = path.join(dir, 'started');
    const first = test.manager.connect('slow', { command: process.execPath, args: ['-e', `require('node:fs').writeFileSync(process.argv[1], ''); ${SILENT}`, marker] });
    await until(() => existsSync(marker));
    const from = test.events.length;
    await test.manager.disconnect('slow');
    await first;
    expect(test.manager.servers()[0]?.state).toBe('disconnected');
    expect(since(test.events, from)).toEqual({ states: ['disconnected'], errors: [] });
  });

  it('reconnecting while the first attempt still waits: the new attempt decides, the old one is never heard from', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'aish-mcp-stale-'));
    test = testManager({ connectTimeoutMs: 60_000 });
    const marker = path.join(dir, 'started');
    const config: ServerConfig = { command: process.execPath, args: ['-e', SILENT_ONCE, marker, EVERYTHING] };
    const first = test.manager.connect('late', config);
    // The first process is running and waiting for nothing.
    await until(() => existsSync(marker));
    const from = test.events.length;
    const second = await test.manager.reconnect('late');
    expect(second.state).toBe('ready');
    // The first attempt's connect() is answered too, without waiting for its 60 s timeout.
    await first;
    const seen = since(test.events, from);
    expect(seen.errors).toEqual([]);
    expect(seen.states).not.toContain('error');
    expect(seen.states.at(-1)).toBe('ready');
    expect((await test.manager.callTool('late', 'echo', { message: 'hi' })).content).toContain('hi');
  });
});
