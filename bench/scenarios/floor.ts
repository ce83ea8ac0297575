/**
 * The floor under two of issue 23's targets, measured beside them: `bench/floor-client.mjs`, a
 * bare client doing only the network part of the app's work against the same broker, with the
 * global fetch (what the app uses, through ky) and with node:http.
 *
 * - 200 tokens/s: the same 2,000-token answer read and every event JSON-parsed, nothing drawn,
 *   nothing accumulated; CPU and CPU of one core over first to last token (the app's measure).
 * - tool loop: the same 20-call loop, the next request sent as soon as a tool-call answer's
 *   [DONE] arrives; the gap the broker measures, as in the tools scenario.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { answerReply, answerTokens } from '../fixtures';
import { ROOT, type BenchContext } from '../lib/app';
import { gaps, routeLoop, STEPS } from './tools';

export const FLOOR_STREAM = 'floor: 2,000 tokens at 200 tok/s read, nothing else';
export const FLOOR_LOOP = `floor: ${STEPS}-call loop, bare client`;
const TRANSPORTS = ['fetch', 'http'] as const;
const CLIENT = path.join(ROOT, 'bench', 'floor-client.mjs');
const transportName = (transport: (typeof TRANSPORTS)[number]) => (transport === 'http' ? 'node:http' : 'fetch');

async function runClient(ctx: BenchContext, args: string[]): Promise<string> {
  const child = spawn(process.execPath, [CLIENT, `${ctx.broker.url}/chat/completions`, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr.on('data', (data: Buffer) => (output += data.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`floor client ${args.join(' ')} exited with ${code}: ${output.slice(-500)}`);
  return output;
}

export async function floorScenario(ctx: BenchContext): Promise<void> {
  ctx.broker.route(() => answerReply(answerTokens(), 200));
  try {
    for (let run = 1; run <= ctx.slowRuns; run++) {
      for (const transport of TRANSPORTS) {
        ctx.log(`floor: stream with ${transportName(transport)}, run ${run}/${ctx.slowRuns}`);
        await ctx.settle();
        const { cpuMs, firstMs, lastMs } = JSON.parse(await runClient(ctx, ['stream', transport])) as { cpuMs: number; firstMs: number; lastMs: number };
        ctx.results.add(FLOOR_STREAM, `CPU, ${transportName(transport)}`, 's', cpuMs / 1000);
        ctx.results.add(FLOOR_STREAM, `CPU of one core, ${transportName(transport)}`, '%', (cpuMs / (lastMs - firstMs)) * 100);
      }
    }
  } finally {
    ctx.broker.route(undefined);
  }
  routeLoop(ctx);
  try {
    for (let run = 1; run <= ctx.runs; run++) {
      for (const transport of TRANSPORTS) {
        ctx.log(`floor: tool loop with ${transportName(transport)}, run ${run}/${ctx.runs}`);
        await ctx.settle();
        const first = ctx.broker.requests.length;
        await runClient(ctx, ['loop', transport, String(STEPS)]);
        const values = await gaps(ctx, first);
        ctx.results.add(FLOOR_LOOP, `overhead per call (mean), ${transportName(transport)}`, 'ms', values.reduce((sum, value) => sum + value, 0) / values.length);
      }
    }
  } finally {
    ctx.broker.route(undefined);
  }
}
