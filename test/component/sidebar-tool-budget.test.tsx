import { afterEach, describe, expect, it } from 'vitest';
import type { ServerSnapshot } from '../../src/services/mcp/types';
import type { ToolBudgetView } from '../../src/state/types';
import { renderApp, type Harness } from './render';

// README.md, "Tool budget": the sidebar shows each tool's cost and switch, each server's total,
// and what the request sends; Space (or t) switches the selected tool or server.

const tool = (name: string) => ({ name, inputSchema: {} });
const servers: ServerSnapshot[] = [
  { alias: 'fs', target: 'node fs.js', state: 'ready', transport: 'stdio', tools: [tool('read_file'), tool('write_file'), tool('move_file')], stderr: [] },
  { alias: 'git', target: 'node git.js', state: 'ready', transport: 'stdio', tools: [tool('status')], stderr: [] },
];
const budget: ToolBudgetView = {
  tools: {
    fs: { read_file: { tokens: 120, enabled: true, switched: false }, write_file: { tokens: 1500, enabled: false, switched: true }, move_file: { tokens: 90, enabled: false, switched: false } },
    git: { status: { tokens: 60, enabled: false, switched: true } },
  },
  servers: { fs: { tokens: 120, on: 1, off: 2, switched: false }, git: { tokens: 0, on: 0, off: 1, switched: true } },
  searching: true,
  enabledTokens: 12_300,
  budgetTokens: 800,
  sentTokens: 310,
  switchCount: 2,
};

let h: Harness;
afterEach(() => h?.unmount());

describe('sidebar: tool costs and switches', () => {
  it('shows costs per tool and server, off (config) and off* (switched here), and what is sent', async () => {
    h = renderApp({ columns: 120, rows: 20 });
    for (const snapshot of servers) h.store.getState().applyMcpEvent({ type: 'server', snapshot });
    h.store.getState().setToolBudget(budget);
    await h.settle();
    await h.type('\t');
    await h.type('\r'); // expand fs
    const screen = h.screen();
    expect(screen).toMatch(/● fs\s+stdio 1\/3 120/);
    expect(screen).toMatch(/● git\s+stdio off\* 1/);
    expect(screen).toMatch(/read_file\s+120 │/);
    expect(screen).toMatch(/write_file\s+off\* 1\.5k │/);
    expect(screen).toMatch(/move_file\s+off 90 │/);
    expect(screen).toContain('* switched here (:mcp');
    expect(screen).toContain('tools 12k → search 310');
  });

  it('Space on a tool switches that tool, t on a server the whole server; a typed-ahead burst does nothing', async () => {
    h = renderApp({ columns: 120, rows: 20 });
    for (const snapshot of servers) h.store.getState().applyMcpEvent({ type: 'server', snapshot });
    h.store.getState().setToolBudget(budget);
    await h.settle();
    await h.type('\t');
    await h.type('\r'); // expand fs
    await h.type('\x1b[B'); // read_file
    await h.type(' ');
    await h.type('\x1b[A'); // back on fs
    await h.type('t');
    await h.type('tt'); // one read of two keys: typed ahead, not deliberate
    expect(h.controller.actions).toEqual(['toggle fs__read_file', 'toggle fs']);
  });
});
