import { describe, expect, it } from 'vitest';
import { runMetaCommand, type CommandHost } from '../../../src/runtime/commands';
import type { McpManagerService, ServerSnapshot } from '../../../src/services/mcp/types';
import { createAppStore } from '../../../src/state/store';

// `:mcp log <alias>`: the server's kept log messages as status lines, newest last.

function host(servers: ServerSnapshot[]): CommandHost {
  const store = createAppStore();
  return { store, mcp: { servers: () => servers } as unknown as McpManagerService } as unknown as CommandHost;
}

const lastStatus = (h: CommandHost) => {
  const item = h.store.getState().items.at(-1);
  return item?.kind === 'status' ? item : undefined;
};

describe(':mcp log', () => {
  it("prints the server's log, newest last, with level and logger", async () => {
    const h = host([{ alias: 'srv', target: 'x', state: 'ready', tools: [], stderr: [], log: [{ at: 0, level: 'warning', text: 'disk low' }, { at: 1, level: 'error', logger: 'db', text: 'disk full' }] }]);
    await runMetaCommand(':mcp log srv', h);
    const lines = lastStatus(h)!.text.split('\n');
    expect(lines[0]).toBe('mcp srv: last 2 of 2 log messages');
    expect(lines[1]).toMatch(/ warning disk low$/);
    expect(lines[2]).toMatch(/ error \[db\] disk full$/);
  });

  it('says when there is nothing, and names an unknown server', async () => {
    const h = host([{ alias: 'srv', target: 'x', state: 'ready', tools: [], stderr: [] }]);
    await runMetaCommand(':mcp log srv', h);
    expect(lastStatus(h)!.text).toContain('mcp srv: no log messages');
    await runMetaCommand(':mcp log nope', h);
    expect(lastStatus(h)).toMatchObject({ level: 'error', text: 'no MCP server named "nope"' });
  });
});
