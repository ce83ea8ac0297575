import { afterEach, describe, expect, it, vi } from 'vitest';

// Colour on, so the cursor row's inverse video is in the frame Ink draws.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});
import type { ServerSnapshot } from '../../src/services/mcp/types';
import { renderApp, type Harness } from './render';

const stderr = [...Array.from({ length: 18 }, (_, index) => `stderr line ${index + 1}: loading module \x1b[31mred\x1b[0m`), 'bell\x07 and \x1b]0;title\x07', 'Error: cannot find config file /etc/nothing.conf'];

const servers: ServerSnapshot[] = [
  { alias: 'tools', target: 'node tools.js', state: 'ready', transport: 'stdio', tools: [{ name: 'echo', inputSchema: {} }], stderr: ['started on stdio'] },
  { alias: 'nowhere', target: 'http://127.0.0.1:9/mcp', state: 'error', transport: 'streamable-http', error: 'cannot reach the server (ECONNREFUSED)', tools: [], stderr: [] },
  { alias: 'broken', target: 'node failing.js', state: 'error', transport: 'stdio', error: 'Connection closed (stderr: Error: cannot find config file /etc/nothing.conf)', tools: [], stderr },
];

let h: Harness;
afterEach(() => h?.unmount());

async function withServers(columns = 120, rows = 40) {
  h = renderApp({ columns, rows });
  for (const snapshot of servers) h.store.getState().applyMcpEvent({ type: 'server', snapshot });
  await h.settle();
}

/** The sidebar's text rows (inside its border). */
function sidebarRows(screen: string): string[] {
  return screen
    .split('\n')
    .map((line) => line.match(/│ (.*) │$/)?.[1])
    .filter((row): row is string => row !== undefined)
    .map((row) => row.trimEnd());
}

const cursorIsInverse = (raw: string, text: string) => new RegExp(`\\x1b\\[7m(\\x1b\\[[0-9;]*m)*›`).test(raw) && raw.includes(text);

describe('sidebar: reading it', () => {
  it('wraps an error reason at word boundaries', async () => {
    await withServers();
    const rows = sidebarRows(h.screen());
    expect(rows).toContain('    cannot reach the server');
    expect(rows).toContain('    (ECONNREFUSED)');
    expect(rows.some((row) => /\(E$/.test(row))).toBe(false);
  });

  it('keeps a column of space between the transcript and the sidebar', async () => {
    await withServers();
    h.store.getState().addStatus('info', 'x'.repeat(300));
    await h.settle();
    const lines = h.screen().split('\n');
    const wide = lines.filter((line) => line.includes('xxxx') && line.includes('│'));
    expect(wide.length).toBeGreaterThan(0);
    for (const line of wide) expect(line).toMatch(/x [┌│└]/);
  });
});

describe('sidebar: the cursor', () => {
  it('Tab selects the first server at once; the cursor and the expand marker are different marks', async () => {
    await withServers();
    await h.type('\t');
    expect(h.store.getState().focus).toBe('sidebar');
    expect(h.screen()).toMatch(/›▸● tools/);
    expect(cursorIsInverse(h.rawScreen(), 'tools')).toBe(true);
    await h.type('\r');
    // Expanded and selected: the cursor stays `›`, the marker turns to `▾`.
    expect(h.screen()).toMatch(/›▾● tools/);
    await h.type('\x1b[B');
    expect(h.screen()).toMatch(/ ▾● tools/);
    expect(h.screen()).toMatch(/›  └ echo/);
  });

  it('an unfocused sidebar draws no inverse row, and no cursor until one was chosen', async () => {
    await withServers();
    expect(h.rawScreen()).not.toMatch(/\x1b\[7m(\x1b\[[0-9;]*m)*›/);
    expect(h.screen()).not.toContain('›▸● tools');
    await h.type('\t');
    await h.type('\x1b[B');
    await h.type('\t');
    expect(h.store.getState().focus).toBe('chat');
    expect(h.screen()).toMatch(/› ✗ nowhere/);
    expect(h.rawScreen()).not.toMatch(/\x1b\[7m(\x1b\[[0-9;]*m)*›/);
  });
});

describe('sidebar: a server that is not ready', () => {
  it('Enter on an errored stdio server shows its error and its whole captured stderr, escaped and scrollable', async () => {
    await withServers(120, 24);
    await h.type('\t');
    await h.type('\x1b[B');
    await h.type('\x1b[B');
    expect(h.screen()).toMatch(/›\s+✗ broken/);
    expect(h.screen()).toContain('Enter shows all of it');
    await h.type('\r');
    let screen = h.screen();
    expect(screen).toContain('Server');
    expect(screen).toContain('✗ error · stdio');
    expect(screen).toContain('Connection closed (stderr: Error: cannot find config file');
    expect(screen).toContain('stderr, last 20 lines');
    expect(screen).toContain('stderr line 1: loading module red');
    expect(screen).not.toContain('no tools');
    expect(screen).toMatch(/lines 1–\d+ of \d+/);
    await h.type('\x1b[F');
    screen = h.screen();
    expect(screen).toContain('Error: cannot find config file /etc/nothing.conf');
    expect(screen).toContain('bell\\x07 and \\x1b]0;title\\x07');
    const raw = h.rawScreen();
    expect(raw).not.toContain('\x1b]0;title');
    expect(raw).not.toContain('\x07');
    await h.type('q');
    expect(h.screen()).not.toContain('stderr, last 20 lines');
    expect(h.store.getState().focus).toBe('sidebar');
  });

  it('Enter on an errored http server shows its error; i shows any server, ready ones too', async () => {
    await withServers();
    await h.type('\t');
    await h.type('\x1b[B');
    await h.type('\r');
    expect(h.screen()).toContain('✗ error · http');
    expect(h.screen()).toContain('http://127.0.0.1:9/mcp');
    await h.type('\x1b');
    await new Promise((resolve) => setTimeout(resolve, 60));
    await h.settle();
    await h.type('\x1b[A');
    await h.type('i');
    expect(h.screen()).toContain('● ready · stdio · 1 tool');
    expect(h.screen()).toContain('stderr, last 1 line');
    expect(h.screen()).toContain('started on stdio');
  });
});
