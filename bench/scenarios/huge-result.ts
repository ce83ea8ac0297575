/**
 * Scale: a 50 MB tool result. A stdio MCP server (test/helpers/results-mcp-server.mjs, its `lines`
 * tool) answers one call with about 50 MB of text; the scripted model calls it once (auto-approved
 * by a config rule), then answers. The app's peak RSS (VmHWM) at the end is compared with the same
 * flow whose result is ten lines, taking turns in the same run: the difference is what the huge
 * result cost at its worst moment. In the TUI and headless (`-p`). The default stdio line limit
 * (limits.stdioMaxLineBytes, 8 MB) would stop the server instead; the bench raises it to 64 MB.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { isToolResultTurn, lastMessage, textReply, toolCallReply } from '../../test/helpers/scripted-broker';
import { brokerConfig, scratchHome, type ScratchHome } from '../fixtures';
import { startHugeResultServer } from '../../test/helpers/huge-result-mcp-server';
import { CLI, inputBoxVisible, keys, MB, ROOT, screenHas, spawnApp, type BenchContext } from '../lib/app';
import { format } from '../lib/results';
import { sampleProcess } from '../lib/proc';
import { sleep } from '../lib/terminal';

/** Each line of the `lines` tool is 54 characters and a newline. */
const LINE_BYTES = 55;
export const HUGE_LINES = Math.ceil((50 * MB) / LINE_BYTES);
export const SMALL_LINES = 10;
export const HUGE_TUI = `huge tool result, ${format((HUGE_LINES * LINE_BYTES) / MB, 'MB')} MB (TUI)`;
export const HUGE_HEADLESS = `huge tool result, ${format((HUGE_LINES * LINE_BYTES) / MB, 'MB')} MB (headless -p)`;
export const HUGE_HTTP = `huge tool result, ${format((HUGE_LINES * LINE_BYTES) / MB, 'MB')} MB over HTTP (headless -p)`;
/** The metric names: the same flow with a small and with the huge result. */
export const PEAK_SMALL = `peak RSS, ${SMALL_LINES}-line result`;
export const PEAK_HUGE = 'peak RSS, 50 MB result';
const FINAL = 'read the whole result';
const RESULTS_SERVER = path.join(ROOT, 'test', 'helpers', 'results-mcp-server.mjs');
const TOOL = 'results__lines';

function route(ctx: BenchContext, count: number): void {
  ctx.broker.route((request) => {
    if (isToolResultTurn(request)) {
      // The model must have got the result itself, not a note that the call failed.
      const content = String(lastMessage(request)?.content ?? '');
      return textReply(content.startsWith('line 000001') ? `${FINAL}, ${count} lines` : `the call failed: ${content.slice(0, 200)}`);
    }
    return toolCallReply([{ name: TOOL, id: 'call_huge', arguments: { count } }]);
  });
}

const config = (url: string) => brokerConfig(url, { builtin: false, mcp: { servers: { results: { command: process.execPath, args: [RESULTS_SERVER] } }, autoApprove: { [TOOL]: true } }, limits: { stdioMaxLineBytes: 64 * MB } });

async function tuiOnce(ctx: BenchContext, count: number): Promise<void> {
  await ctx.settle();
  route(ctx, count);
  const home = scratchHome(config(ctx.broker.url));
  const term = spawnApp(ctx, home);
  try {
    await term.waitFor((lines) => inputBoxVisible(lines) && screenHas('mcp 1/1')(lines), 15_000, 'the results server');
    await term.quiet(300);
    const before = term.sample();
    term.write('g');
    await sleep(25);
    term.write('o');
    await sleep(25);
    const sent = term.write(keys.enter);
    const done = await term.waitFor(screenHas(`${FINAL}, ${count} lines`), 120_000, 'the final answer');
    await term.quiet(500);
    const after = term.sample();
    const metric = count === SMALL_LINES ? PEAK_SMALL : PEAK_HUGE;
    ctx.results.add(HUGE_TUI, metric, 'MB', after && after.peakRssBytes / MB);
    if (before && after) ctx.results.add(HUGE_TUI, `${metric}: growth during the turn`, 'MB', (after.peakRssBytes - before.peakRssBytes) / MB);
    if (before && after) ctx.results.add(HUGE_TUI, `${metric}: RSS after the turn`, 'MB', after.rssBytes / MB);
    if (count !== SMALL_LINES) ctx.results.add(HUGE_TUI, 'Enter to final answer, 50 MB result', 'ms', done.at - sent);
  } finally {
    await term.close(keys.ctrlD);
    home.dispose();
  }
}

/** Runs `-p go` in `home` and returns its peak RSS; `expected` must be in its output. */
async function headlessPeak(home: ScratchHome, expected: string): Promise<number> {
  const child = spawn(process.execPath, [CLI, '-p', 'go'], { env: home.env, cwd: home.home, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr.on('data', (data: Buffer) => (output += data.toString()));
  let exited = false;
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => ((exited = true), resolve(code))));
  // VmHWM only grows: the last reading before the process is gone is its peak (to within 20 ms).
  let peak = 0;
  while (!exited) {
    const sample = child.pid === undefined ? undefined : sampleProcess(child.pid);
    if (sample) peak = Math.max(peak, sample.peakRssBytes);
    await sleep(20);
  }
  const code = await exit;
  if (code !== 0 || !output.includes(expected)) throw new Error(`headless run exited with ${code}: ${output.slice(-500)}`);
  return peak;
}

async function headlessOnce(ctx: BenchContext, count: number): Promise<void> {
  await ctx.settle();
  route(ctx, count);
  const home = scratchHome(config(ctx.broker.url));
  try {
    const peak = await headlessPeak(home, `${FINAL}, ${count} lines`);
    ctx.results.add(HUGE_HEADLESS, count === SMALL_LINES ? PEAK_SMALL : PEAK_HUGE, 'MB', peak / MB);
  } finally {
    home.dispose();
  }
}

/** The same over streamable HTTP (test/helpers/huge-result-mcp-server.ts, a JSON answer), whose default message limit is 64 MB. */
async function headlessHttpOnce(ctx: BenchContext, count: number): Promise<void> {
  await ctx.settle();
  const server = await startHugeResultServer({ bytes: count * LINE_BYTES });
  ctx.broker.route((request) => {
    if (!isToolResultTurn(request)) return toolCallReply([{ name: 'big__huge', id: 'call_huge', arguments: {} }]);
    const content = String(lastMessage(request)?.content ?? '');
    return textReply(content.startsWith('the quick brown fox') ? `${FINAL}, over HTTP` : `the call failed: ${content.slice(0, 200)}`);
  });
  const home = scratchHome(brokerConfig(ctx.broker.url, { builtin: false, mcp: { servers: { big: { url: server.url } }, autoApprove: { big__huge: true } } }));
  try {
    const peak = await headlessPeak(home, `${FINAL}, over HTTP`);
    ctx.results.add(HUGE_HTTP, count === SMALL_LINES ? PEAK_SMALL : PEAK_HUGE, 'MB', peak / MB);
  } finally {
    home.dispose();
    await server.close();
  }
}

export async function hugeResultScenario(ctx: BenchContext): Promise<void> {
  try {
    for (let run = 1; run <= ctx.slowRuns; run++) {
      ctx.log(`huge tool result run ${run}/${ctx.slowRuns}`);
      await tuiOnce(ctx, SMALL_LINES);
      await tuiOnce(ctx, HUGE_LINES);
      await headlessOnce(ctx, SMALL_LINES);
      await headlessOnce(ctx, HUGE_LINES);
      await headlessHttpOnce(ctx, SMALL_LINES);
      await headlessHttpOnce(ctx, HUGE_LINES);
    }
  } finally {
    ctx.broker.route(undefined);
  }
}
