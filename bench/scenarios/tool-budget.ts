/**
 * Tool budget at scale (README.md, "Tool budget"): 20 stdio servers of 50 generated tools each
 * (test/helpers/many-tools-server.mjs), 1,000 tools in all.
 *
 * - In the app: spawn to first frame (compare "MCP start: no servers"), all 20 ready, RSS growth
 *   from the first frame to all ready (the MCP client and 1,000 tools) and 2 s later, and how fast the sidebar
 *   answers ↓ on a server with 50 tools (key written -> the cursor row redrawn); one of the
 *   servers alone, spawn to ready (the "slowest single one" of the all-ready target); and the
 *   floor under that target: bare SDK clients starting one and all 20 servers (bench/floor-mcp.mjs).
 * - In process: building a request's tools array once cached (the index and the offer, with tool
 *   search on), the first build, one search, and the heap that index, offer and search index take.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../src/services/config/load';
import type { McpToolInfo, ServerSnapshot } from '../../src/services/mcp/index';
import { buildToolIndex } from '../../src/services/tools/names';
import { searchTools } from '../../src/services/tools/search';
import { memorySwitchStore } from '../../src/services/tools/switches';
import { createToolBudget } from '../../src/runtime/tool-budget';
import { manyTools } from '../../test/helpers/many-tools.mjs';
import { brokerConfig, scratchHome } from '../fixtures';
import { inputBoxVisible, keys, MB, ROOT, screenHas, spawnApp, type BenchContext } from '../lib/app';
import { median, percentile } from '../lib/results';
import { sleep } from '../lib/terminal';

const execFileAsync = promisify(execFile);

export const SERVERS = 20;
export const PER_SERVER = 50;
export const TOOL_BUDGET_APP = `tool budget: ${SERVERS} servers, ${SERVERS * PER_SERVER} tools (TUI)`;
export const TOOL_BUDGET_CORE = `tool budget: ${SERVERS * PER_SERVER} tools (in process)`;
export const RSS_GROWTH_LATER = 'RSS growth, first frame to 2 s after all ready';
export const READY_ONE = 'spawn to all servers ready, one of the servers alone';
/** Bare SDK clients starting the same servers (bench/floor-mcp.mjs): what 20 node processes cost this machine. */
export const TOOL_BUDGET_FLOOR = `tool budget: bare MCP clients, the same servers (floor)`;
const FLOOR_MCP = path.join(ROOT, 'bench', 'floor-mcp.mjs');

const alias = (index: number) => `srv${String(index).padStart(2, '0')}`;

function servers(perServer: number, count = SERVERS): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (let index = 0; index < count; index++) {
    result[alias(index)] = { command: process.execPath, args: [path.join(ROOT, 'test', 'helpers', 'many-tools-server.mjs'), '--count', String(perServer), '--offset', String(index * PER_SERVER)] };
  }
  return result;
}

/** The first characters of the tool the cursor is on after `step` presses of ↓ (the sidebar cuts long names). */
const toolAt = (step: number) => manyTools(PER_SERVER, 0)[step - 1]!.name.slice(0, 10);

async function baselineOnce(ctx: BenchContext): Promise<void> {
  await ctx.settle();
  const home = scratchHome(brokerConfig(ctx.broker.url, { builtin: false, mcp: { servers: {} } }));
  const term = spawnApp(ctx, home);
  try {
    const first = await term.waitFor(inputBoxVisible, 10_000, 'the input box');
    ctx.results.add(TOOL_BUDGET_APP, 'spawn to first frame, no servers', 'ms', first.at - term.startedAt);
  } finally {
    await term.close(keys.ctrlD);
    home.dispose();
  }
}

/** RSS growth from the first frame to all servers ready, with `perServer` tools on each of the 20 servers. */
async function readyOnce(ctx: BenchContext, perServer: number, label: string): Promise<{ term: ReturnType<typeof spawnApp>; first: Awaited<ReturnType<ReturnType<typeof spawnApp>['waitFor']>>; dispose: () => Promise<void> }> {
  await ctx.settle();
  // A generous connect timeout: twenty node processes start at once, on a shared machine too.
  const home = scratchHome(brokerConfig(ctx.broker.url, { builtin: false, mcp: { servers: servers(perServer), connectTimeoutMs: 120_000 } }));
  const term = spawnApp(ctx, home);
  const dispose = async () => {
    await term.close(keys.ctrlD);
    home.dispose();
  };
  try {
    const first = await term.waitFor(inputBoxVisible, 10_000, 'the input box');
    await term.waitFor(screenHas(`mcp ${SERVERS}/${SERVERS}`), 150_000, `${SERVERS} servers ready`);
    await term.waitFor(screenHas('tools '), 10_000, 'the tool costs');
    await term.quiet(300);
    const settled = term.sample();
    if (first.sample && settled) ctx.results.add(TOOL_BUDGET_APP, label, 'MB', (settled.rssBytes - first.sample.rssBytes) / MB);
    return { term, first, dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/** The slowest single one of the servers (they are alike): one of them alone, spawn to ready. */
async function singleOnce(ctx: BenchContext): Promise<void> {
  await ctx.settle();
  const home = scratchHome(brokerConfig(ctx.broker.url, { builtin: false, mcp: { servers: servers(PER_SERVER, 1), connectTimeoutMs: 120_000 } }));
  const term = spawnApp(ctx, home);
  try {
    const ready = await term.waitFor(screenHas('mcp 1/1'), 60_000, 'the server ready');
    ctx.results.add(TOOL_BUDGET_APP, READY_ONE, 'ms', ready.at - term.startedAt);
  } finally {
    await term.close(keys.ctrlD);
    home.dispose();
  }
}

/** bench/floor-mcp.mjs starting `count` of the servers; its own start to the last tool list. */
async function floorOnce(ctx: BenchContext, count: number): Promise<void> {
  await ctx.settle();
  const { stdout } = await execFileAsync(process.execPath, [FLOOR_MCP, String(count)], { cwd: ROOT, timeout: 120_000 });
  const { readyMs } = JSON.parse(stdout.trim().split('\n').at(-1)!) as { readyMs: number };
  ctx.results.add(TOOL_BUDGET_FLOOR, count === 1 ? 'start to one server listed' : `start to ${count} servers listed`, 'ms', readyMs);
}

async function appOnce(ctx: BenchContext): Promise<void> {
  await baselineOnce(ctx);
  await singleOnce(ctx);
  await floorOnce(ctx, 1);
  await floorOnce(ctx, SERVERS);
  // The same 20 servers with one tool each: what connecting costs apart from the tools.
  await (await readyOnce(ctx, 1, 'RSS growth, first frame to all ready, 20 tools')).dispose();
  await ctx.settle();
  // A generous connect timeout: twenty node processes start at once, on a shared machine too.
  const home = scratchHome(brokerConfig(ctx.broker.url, { builtin: false, mcp: { servers: servers(PER_SERVER), connectTimeoutMs: 120_000 } }));
  const term = spawnApp(ctx, home);
  try {
    const first = await term.waitFor(inputBoxVisible, 10_000, 'the input box');
    ctx.results.add(TOOL_BUDGET_APP, 'spawn to first frame', 'ms', first.at - term.startedAt);
    const ready = await term.waitFor(screenHas(`mcp ${SERVERS}/${SERVERS}`), 150_000, `${SERVERS} servers ready`);
    ctx.results.add(TOOL_BUDGET_APP, 'spawn to all servers ready', 'ms', ready.at - term.startedAt);
    // The sidebar has drawn the costs once the footer says what is sent.
    const costed = await term.waitFor(screenHas('tools '), 10_000, 'the tool costs');
    await term.quiet(300);
    const settled = term.sample();
    if (first.sample && settled) ctx.results.add(TOOL_BUDGET_APP, 'RSS growth, first frame to all ready', 'MB', (settled.rssBytes - first.sample.rssBytes) / MB);
    // What stays once the start-up's burst is over: the app compacts the heap after the servers
    // settle and nothing has happened for a moment (src/cli/collect-after-load.ts); V8's memory
    // reducer would do the same about ten seconds later.
    await sleep(2000);
    const later = term.sample();
    if (first.sample && later) ctx.results.add(TOOL_BUDGET_APP, RSS_GROWTH_LATER, 'MB', (later.rssBytes - first.sample.rssBytes) / MB);
    void costed;
    // Each step waits for its own frame before the next key: `quiet` alone returns at once on a
    // screen that was already quiet, and the first ↓ then also paid for the focus and the expand.
    term.write('\t'); // focus the sidebar: the cursor is on the first server
    await term.waitFor((lines) => lines.some((line) => line.includes('›') && line.includes(alias(0))), 5000, 'the sidebar focused');
    await term.quiet(200);
    term.write(keys.enter); // expand the first server's 50 tools
    await term.waitFor((lines) => lines.some((line) => line.includes('▾') && line.includes(alias(0))), 5000, 'the first server expanded');
    await term.quiet(200);
    const answers: number[] = [];
    const cpuBefore = term.sample();
    for (let step = 1; step <= 20; step++) {
      const sent = performance.now();
      term.write('\x1b[B');
      const wanted = toolAt(step);
      const moved = await term.waitFor((lines) => lines.some((line) => line.includes('› ') && line.includes(wanted)), 2000, `the cursor on ${wanted}`);
      answers.push(Math.max(0, moved.at - sent));
      await term.quiet(30);
    }
    // CPU time of the app over the 20 keys (and the idle work between them): less at the mercy of other load than wall time.
    const cpuAfter = term.sample();
    if (cpuBefore && cpuAfter) ctx.results.add(TOOL_BUDGET_APP, 'CPU per sidebar ↓ (20 keys)', 'ms', ((cpuAfter.cpuSeconds - cpuBefore.cpuSeconds) * 1000) / 20);
    ctx.results.add(TOOL_BUDGET_APP, 'sidebar ↓ to redraw (median)', 'ms', median(answers));
    ctx.results.add(TOOL_BUDGET_APP, 'sidebar ↓ to redraw (p95)', 'ms', percentile(answers, 0.95));
    ctx.results.add(TOOL_BUDGET_APP, 'sidebar ↓ to redraw (max)', 'ms', Math.max(...answers));
  } finally {
    await term.close(keys.ctrlD);
    home.dispose();
  }
}

function snapshots(): ServerSnapshot[] {
  return Array.from({ length: SERVERS }, (_, index) => ({
    alias: alias(index),
    target: 'bench',
    state: 'ready' as const,
    tools: manyTools(PER_SERVER, index * PER_SERVER) as McpToolInfo[],
    stderr: [],
  }));
}

async function coreOnce(ctx: BenchContext): Promise<void> {
  const config = await loadConfig({ env: { HOME: '/nonexistent-bench-home' }, cwd: '/' });
  const model = { ...config.models[config.defaultModel]!, contextWindow: 8192 };
  global.gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const live = snapshots();
  const budget = createToolBudget(config, '/', { store: memorySwitchStore() });
  let started = performance.now();
  let index = buildToolIndex(live);
  let offer = budget.offer(index, [], model);
  ctx.results.add(TOOL_BUDGET_CORE, 'first build of index and tools array', 'ms', performance.now() - started);
  const rounds = 1000;
  started = performance.now();
  for (let round = 0; round < rounds; round++) {
    index = buildToolIndex(live);
    offer = budget.offer(index, [], model);
  }
  ctx.results.add(TOOL_BUDGET_CORE, 'tools array once cached', 'ms', (performance.now() - started) / rounds);
  started = performance.now();
  await searchTools(offer.searchable, 'open a new support ticket', 5);
  ctx.results.add(TOOL_BUDGET_CORE, 'first search (loads the library, builds its index)', 'ms', performance.now() - started);
  started = performance.now();
  await searchTools(offer.searchable, 'list all invoices of the billing system', 5);
  ctx.results.add(TOOL_BUDGET_CORE, 'one search', 'ms', performance.now() - started);
  budget.view(live, model);
  global.gc?.();
  ctx.results.add(TOOL_BUDGET_CORE, 'heap growth (index, offer, search index, view)', 'MB', (process.memoryUsage().heapUsed - heapBefore) / MB);
  ctx.results.add(TOOL_BUDGET_CORE, 'tokens of all definitions', 'count', offer.enabledTokens);
  ctx.results.add(TOOL_BUDGET_CORE, 'tokens sent with tool search', 'count', offer.sentTokens);
  await sleep(0);
}

export async function toolBudgetScenario(ctx: BenchContext): Promise<void> {
  for (let run = 1; run <= ctx.runs; run++) {
    ctx.log(`tool budget run ${run}/${ctx.runs}`);
    await coreOnce(ctx);
  }
  for (let run = 1; run <= ctx.slowRuns; run++) {
    ctx.log(`tool budget app run ${run}/${ctx.slowRuns}`);
    await appOnce(ctx);
  }
}
