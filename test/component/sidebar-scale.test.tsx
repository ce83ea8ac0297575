import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpToolInfo, ServerSnapshot } from '../../src/services/mcp/types';
import { manyTools } from '../helpers/many-tools.mjs';
import { renderApp, type Harness } from './render';

// Counts how often a tool's row is laid out: the badge is worked out once per tool row drawn.
const badgeCalls = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../src/ui/panels/toolBadges', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/ui/panels/toolBadges')>();
  return {
    ...real,
    toolBadge: (tool: McpToolInfo) => {
      badgeCalls.count++;
      return real.toolBadge(tool);
    },
  };
});

const SERVERS = 20;
const PER_SERVER = 50;
const servers: ServerSnapshot[] = Array.from({ length: SERVERS }, (_, index) => ({
  alias: `srv${String(index).padStart(2, '0')}`,
  target: 'node many-tools-server.mjs',
  transport: 'stdio',
  state: 'ready',
  tools: manyTools(PER_SERVER, index * PER_SERVER) as McpToolInfo[],
  stderr: [],
}));

let h: Harness;
afterEach(() => h?.unmount());

// Drawing 1,000 rows in the test renderer is slow on a shared machine: a long timeout; the assertions count, they never time.
describe('sidebar with 20 servers and 1,000 tools', () => {
  it('moving the cursor lays out no tool row again: the rows are kept until the servers or the costs change', async () => {
    h = renderApp({ columns: 120, rows: 40 });
    for (const snapshot of servers) h.store.getState().applyMcpEvent({ type: 'server', snapshot });
    await h.settle();
    await h.type('\t');
    h.store.getState().updateSidebarUi({ expanded: servers.map((server) => server.alias) });
    await h.settle();
    const laidOut = badgeCalls.count;
    expect(laidOut).toBeGreaterThanOrEqual(SERVERS * PER_SERVER);
    for (let press = 0; press < 8; press++) await h.type('\x1b[B');
    // The cursor moved down the first server's tools, redrawn as it went...
    const cursor = h.screen().split('\n').find((line) => line.includes('›') && line.includes(servers[0]!.tools[7]!.name.slice(0, 10)));
    expect(cursor).toBeDefined();
    // ...without laying out the 1,000 tool rows again on every key.
    expect(badgeCalls.count - laidOut).toBe(0);
    // A change of a server's tools lays its rows out again.
    h.store.getState().applyMcpEvent({ type: 'server', snapshot: { ...servers[1]!, tools: servers[1]!.tools.slice(0, 10) } });
    await h.settle();
    expect(badgeCalls.count).toBeGreaterThan(laidOut);
  }, 120_000);
});
