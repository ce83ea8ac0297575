/**
 * MCP start: servers that each take 300 ms to answer `initialize` (bench/slow-mcp-server.mjs over
 * stdio). Five of them should be ready about as soon as one is (they connect in parallel), and the
 * first frame must not wait for any of them.
 */
import path from 'node:path';
import { brokerConfig, scratchHome } from '../fixtures';
import { inputBoxVisible, keys, ROOT, screenHas, spawnApp, type BenchContext } from '../lib/app';

export const INIT_DELAY_MS = 300;
export const mcpLabel = (servers: number) => (servers === 0 ? 'MCP start: no servers' : `MCP start: ${servers} slow server${servers === 1 ? '' : 's'}`);

async function once(ctx: BenchContext, count: number): Promise<void> {
  const label = mcpLabel(count);
  await ctx.settle();
  const servers: Record<string, unknown> = {};
  for (let index = 1; index <= count; index++) servers[`slow${index}`] = { command: process.execPath, args: [path.join(ROOT, 'bench', 'slow-mcp-server.mjs'), String(INIT_DELAY_MS)] };
  const home = scratchHome(brokerConfig(ctx.broker.url, { builtin: false, mcp: { servers } }));
  const term = spawnApp(ctx, home);
  try {
    const firstFrame = await term.waitFor(inputBoxVisible, 10_000, 'the input box');
    ctx.results.add(label, 'spawn to first frame', 'ms', firstFrame.at - term.startedAt);
    if (count > 0) {
      const ready = await term.waitFor(screenHas(`mcp ${count}/${count}`), 15_000, `${count} servers ready`);
      ctx.results.add(label, 'spawn to all servers ready', 'ms', ready.at - term.startedAt);
      ctx.results.add(label, 'first frame to all ready', 'ms', ready.at - firstFrame.at);
    }
  } finally {
    await term.close(keys.ctrlD);
    home.dispose();
  }
}

export async function mcpStartScenario(ctx: BenchContext): Promise<void> {
  for (let run = 1; run <= ctx.runs; run++) {
    ctx.log(`MCP start run ${run}/${ctx.runs}`);
    await once(ctx, 0);
    await once(ctx, 1);
    await once(ctx, 5);
  }
}
