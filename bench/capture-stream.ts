/**
 * One streamed answer (the stream scenario's 2,000 tokens; `slow` for 200 tokens/s), printing the
 * bytes the app wrote and its CPU from typing the question until the screen is quiet. With
 * BENCH_CAPTURE=/tmp/out the bytes themselves go to /tmp/out.<pid>, to see where they go;
 * BENCH_CLI=.dist-before/cli.js measures another build; BENCH_MAX_FPS=15 sets `ui.maxFps`. A quick
 * look, not a benchmark:
 *   node --import tsx bench/capture-stream.ts [slow]
 */
import { startScriptedBroker } from '../test/helpers/scripted-broker';
import { answerReply, answerTokens, brokerConfig, LAST_WORDS, scratchHome } from './fixtures';
import { inputBoxVisible, keys, screenHas, spawnApp, type BenchContext } from './lib/app';
import { sleep } from './lib/terminal';
const speed = process.argv[2] === 'slow' ? 200 : undefined;
const broker = await startScriptedBroker();
broker.route(() => answerReply(answerTokens(), speed));
const ctx = { cols: 120, rows: 40, broker } as unknown as BenchContext;
const home = scratchHome(brokerConfig(broker.url, process.env.BENCH_MAX_FPS ? { ui: { maxFps: Number(process.env.BENCH_MAX_FPS) } } : {}));
const term = spawnApp(ctx, home, []);
await term.waitFor(inputBoxVisible, 20000, 'ready');
await term.quiet(300);
const bytesBefore = term.bytes;
const before = term.sample();
for (const char of 'go') {
  term.write(char);
  await sleep(25);
}
await sleep(25);
term.write(keys.enter);
await term.waitFor(screenHas(LAST_WORDS), 60000, 'last');
await term.quiet(400);
const after = term.sample();
console.log(JSON.stringify({ pid: term.pid, bytes: term.bytes - bytesBefore, cpu: after!.cpuSeconds - before!.cpuSeconds, before: bytesBefore }));
await term.close(keys.ctrlD);
home.dispose();
await broker.close();
process.exit(0);
