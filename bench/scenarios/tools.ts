/**
 * A 20-step tool loop against the built-in server: the model calls `builtin__calculator` 20 times,
 * one call per answer, then answers. The client's overhead per call is the time between the
 * broker handing over the last byte of a tool-call answer and the next request arriving: parsing
 * the stream, deciding (an auto-approve rule), running the built-in tool in process, logging,
 * building and sending the next request. The broker's own time is excluded by construction.
 */
import { spawn } from 'node:child_process';
import { isToolResultTurn, textReply, toolCallReply, type ReceivedRequest } from '../../test/helpers/scripted-broker';
import { brokerConfig, scratchHome } from '../fixtures';
import { CLI, inputBoxVisible, keys, screenHas, spawnApp, type BenchContext } from '../lib/app';
import { median } from '../lib/results';
import { sleep } from '../lib/terminal';

export const STEPS = 20;
export const TOOLS_TUI = `tool loop, ${STEPS} calls (TUI)`;
export const TOOLS_HEADLESS = `tool loop, ${STEPS} calls (headless -p)`;
const FINAL = 'tool loop finished';

function toolResults(request: ReceivedRequest): number {
  return (request.body?.messages ?? []).filter((message) => message.role === 'tool').length;
}

export function routeLoop(ctx: BenchContext): void {
  ctx.broker.route((request) => {
    const done = toolResults(request);
    if (done >= STEPS) return textReply(`${FINAL} after ${done} calls`);
    if (done > 0 && !isToolResultTurn(request)) return undefined;
    return toolCallReply([{ name: 'builtin__calculator', id: `call_${done + 1}`, arguments: { expression: `${done}*7+1` } }]);
  });
}

const config = (url: string) => brokerConfig(url, { mcp: { autoApprove: { builtin__calculator: true }, maxToolDepth: STEPS + 5 } });

/** Gaps between each tool-call answer's last byte and the next request, for requests from `first` on. */
export async function gaps(ctx: BenchContext, first: number): Promise<number[]> {
  await ctx.broker.waitForRequests(first + STEPS + 1, 10_000);
  const requests = ctx.broker.requests.slice(first, first + STEPS + 1);
  for (let tries = 0; requests.some((request) => request.respondedAt === undefined) && tries < 100; tries++) await sleep(10);
  const result: number[] = [];
  for (let index = 0; index < STEPS; index++) {
    const answered = requests[index]!.respondedAt;
    if (answered === undefined) throw new Error(`request ${first + index} never finished`);
    result.push(requests[index + 1]!.receivedAt - answered);
  }
  return result;
}

function record(ctx: BenchContext, label: string, values: number[], cpuSeconds: number | undefined): void {
  ctx.results.add(label, 'overhead per call (mean)', 'ms', values.reduce((sum, value) => sum + value, 0) / values.length);
  ctx.results.add(label, 'overhead per call (median)', 'ms', median(values));
  ctx.results.add(label, 'overhead per call (max)', 'ms', Math.max(...values));
  if (cpuSeconds !== undefined) ctx.results.add(label, 'CPU per call', 'ms', (cpuSeconds * 1000) / STEPS);
}

async function tuiOnce(ctx: BenchContext): Promise<void> {
  await ctx.settle();
  const home = scratchHome(config(ctx.broker.url));
  const term = spawnApp(ctx, home);
  try {
    // The built-in server must be up before the first request offers its tools.
    await term.waitFor((lines) => inputBoxVisible(lines) && screenHas('mcp 1/1')(lines), 10_000, 'the built-in server');
    await term.quiet(300);
    const first = ctx.broker.requests.length;
    const before = term.sample();
    term.write('g');
    await sleep(25);
    term.write('o');
    await sleep(25);
    term.write(keys.enter);
    await term.waitFor(screenHas(FINAL), 30_000, 'the final answer');
    const after = term.sample();
    record(ctx, TOOLS_TUI, await gaps(ctx, first), before && after ? after.cpuSeconds - before.cpuSeconds : undefined);
  } finally {
    await term.close(keys.ctrlD);
    home.dispose();
  }
}

async function headlessOnce(ctx: BenchContext): Promise<void> {
  await ctx.settle();
  const home = scratchHome(config(ctx.broker.url));
  try {
    const first = ctx.broker.requests.length;
    const child = spawn(process.execPath, [CLI, '-p', 'go', '--output-format', 'stream-json', '--auto-approve', 'builtin__calculator', '--max-tool-depth', String(STEPS + 5)], {
      env: home.env,
      cwd: home.home,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (data: Buffer) => (output += data.toString()));
    child.stderr.on('data', (data: Buffer) => (output += data.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    // stream-json splits the answer into deltas; the run must end with `done` after the last call.
    if (code !== 0 || !output.includes(`"id":"call_${STEPS}"`) || !output.includes('"type":"done","finish_reason":"stop"')) throw new Error(`headless run exited with ${code}: ${output.slice(-500)}`);
    record(ctx, TOOLS_HEADLESS, await gaps(ctx, first), undefined);
  } finally {
    home.dispose();
  }
}

export async function toolsScenario(ctx: BenchContext): Promise<void> {
  routeLoop(ctx);
  try {
    for (let run = 1; run <= ctx.runs; run++) {
      ctx.log(`tool loop run ${run}/${ctx.runs}`);
      await tuiOnce(ctx);
      await headlessOnce(ctx);
    }
  } finally {
    ctx.broker.route(undefined);
  }
}
