/**
 * Streaming a 2,000-token markdown answer, at full speed and at 200 tokens/s, in an empty session
 * and in resumed ones with 2,000 and 20,000 earlier messages (scale: a long session must stream as
 * an empty one does); and keystroke-to-echo latency in the input while an answer streams.
 */
import type { ReceivedRequest } from '../../test/helpers/scripted-broker';
import { ANSWER_TEXT, answerReply, answerTokens, brokerConfig, LAST_WORDS, scratchHome, writeSession } from '../fixtures';
import { inputBoxVisible, keys, MB, screenHas, spawnApp, type BenchContext } from '../lib/app';
import { percentile } from '../lib/results';
import { sleep, type BenchTerminal, type ScreenPredicate } from '../lib/terminal';

export const EARLIER_MESSAGES = 2000;
/** The long session of the scale target (issue 23): as many messages as the resume scenario's. */
export const MANY_EARLIER_MESSAGES = 20_000;
/** The messages after its compaction (what the model gets besides the summary). */
const COMPACTION_KEEPS = 20;
/** `earlier`: messages of the resumed session (0: an empty one); `true` means EARLIER_MESSAGES. */
export const streamLabel = (speed: 'full' | 200, earlier: boolean | number) => {
  const count = earlier === true ? EARLIER_MESSAGES : earlier === false ? 0 : earlier;
  return `stream ${speed === 'full' ? 'full speed' : '200 tok/s'}, ${count > 0 ? `${count.toLocaleString('en')} earlier` : 'empty session'}`;
};
export const ECHO = `keystroke echo, 200 tok/s, ${EARLIER_MESSAGES.toLocaleString('en')} earlier`;

const tokens = answerTokens();
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

interface StreamRun {
  term: BenchTerminal;
  dispose: () => Promise<void>;
}

/** Starts the app (resuming a long session when asked) and waits until it has settled. */
async function startApp(ctx: BenchContext, earlier: number): Promise<StreamRun> {
  const home = scratchHome(brokerConfig(ctx.broker.url));
  // The 20,000-message session was compacted before its last turns, as a session that long is.
  const args = earlier > 0 ? ['--resume', writeSession(home.stateDir, earlier, earlier >= MANY_EARLIER_MESSAGES ? { compactedBefore: COMPACTION_KEEPS } : {})] : [];
  const term = spawnApp(ctx, home, args);
  // The last earlier message's closing words (see fixtures.earlierMessage).
  const ready: ScreenPredicate = earlier > 0 ? (lines) => inputBoxVisible(lines) && screenHas(`part ${earlier - 1}.`)(lines) : inputBoxVisible;
  try {
    await term.waitFor(ready, 20_000, 'the app to be ready');
    await term.quiet(300);
    // The answer's CPU is measured from here: start-up work still running would count as streaming.
    await term.cpuIdle();
  } catch (error) {
    await term.close();
    home.dispose();
    throw error;
  }
  return {
    term,
    dispose: async () => {
      await term.close(keys.ctrlD);
      home.dispose();
    },
  };
}

/** Sends a short question and returns when Enter was pressed. */
async function ask(term: BenchTerminal): Promise<number> {
  for (const char of 'go') {
    term.write(char);
    await sleep(25);
  }
  await sleep(25);
  return term.write(keys.enter);
}

async function requestAfter(ctx: BenchContext, index: number): Promise<ReceivedRequest> {
  await ctx.broker.waitForRequests(index + 1, 10_000);
  return ctx.broker.requests[index]!;
}

/** Waits (briefly) for the broker to have finished writing the response. */
async function respondedAt(request: ReceivedRequest): Promise<number | undefined> {
  for (let tries = 0; request.respondedAt === undefined && tries < 100; tries++) await sleep(10);
  return request.respondedAt;
}

async function streamOnce(ctx: BenchContext, speed: 'full' | 200, earlier: number): Promise<void> {
  const label = streamLabel(speed, earlier);
  const { results } = ctx;
  await ctx.settle();
  ctx.broker.route(() => answerReply(tokens, speed === 'full' ? undefined : speed));
  const app = await startApp(ctx, earlier);
  const { term } = app;
  try {
    const before = term.sample();
    const bytesBefore = term.bytes;
    const requestIndex = ctx.broker.requests.length;
    const firstShown = term.waitForOutput(ANSWER_TEXT, 20_000);
    const sent = await ask(term);
    const first = await firstShown;
    const last = await term.waitFor(screenHas(LAST_WORDS), 60_000, 'the last token');
    const request = await requestAfter(ctx, requestIndex);
    const serverDone = await respondedAt(request);
    await term.quiet(400);
    const after = term.sample();
    results.add(label, 'Enter to first token on screen', 'ms', first - sent);
    results.add(label, 'Enter to last token on screen', 'ms', last.at - sent);
    results.add(label, "last token after server's last byte", 'ms', serverDone === undefined ? undefined : last.at - serverDone);
    if (before && after) {
      const cpu = after.cpuSeconds - before.cpuSeconds;
      results.add(label, 'CPU', 's', cpu);
      if (speed !== 'full') results.add(label, 'CPU of one core while streaming', '%', (100 * cpu) / ((last.at - first) / 1000));
      results.add(label, 'peak RSS', 'MB', after.peakRssBytes / MB);
    }
    results.add(label, 'bytes to the terminal', 'KiB', (term.bytes - bytesBefore) / 1024);
  } finally {
    await app.dispose();
  }
}

/** Types one key at a time while the answer streams; each key is timed until the input shows it. */
async function echoOnce(ctx: BenchContext): Promise<void> {
  await ctx.settle();
  ctx.broker.route(() => answerReply(tokens, 200));
  const app = await startApp(ctx, EARLIER_MESSAGES);
  const { term } = app;
  try {
    const firstShown = term.waitForOutput(ANSWER_TEXT, 20_000);
    await ask(term);
    await firstShown;
    let streaming = true;
    const lastShown = term.waitFor(screenHas(LAST_WORDS), 60_000, 'the last token').finally(() => {
      streaming = false;
    });
    const latencies: number[] = [];
    let typed = '';
    while (streaming && typed.length < 90) {
      typed += LETTERS[typed.length % LETTERS.length];
      const expected = `› ${typed}`;
      const sent = term.write(typed.at(-1)!);
      const echoed = await term.waitFor((lines) => lines.some((line) => line.startsWith('│') && line.includes(expected)), 5000, `the input to show ${JSON.stringify(typed)}`);
      latencies.push(echoed.at - sent);
      // A person types a key every 50-150 ms; keep the keys apart so each is its own read.
      await sleep(40 + Math.random() * 60);
    }
    await lastShown;
    ctx.results.add(ECHO, 'keys typed', 'count', latencies.length);
    ctx.results.add(ECHO, 'echo p50', 'ms', percentile(latencies, 0.5));
    ctx.results.add(ECHO, 'echo p95', 'ms', percentile(latencies, 0.95));
    ctx.results.add(ECHO, 'echo max', 'ms', Math.max(...latencies));
  } finally {
    await app.dispose();
  }
}

export async function streamScenario(ctx: BenchContext): Promise<void> {
  for (let run = 1; run <= ctx.runs; run++) {
    ctx.log(`stream full speed run ${run}/${ctx.runs}`);
    await streamOnce(ctx, 'full', 0);
    await streamOnce(ctx, 'full', EARLIER_MESSAGES);
    await streamOnce(ctx, 'full', MANY_EARLIER_MESSAGES);
  }
  for (let run = 1; run <= ctx.slowRuns; run++) {
    ctx.log(`stream 200 tok/s run ${run}/${ctx.slowRuns}`);
    await streamOnce(ctx, 200, 0);
    await streamOnce(ctx, 200, EARLIER_MESSAGES);
    await streamOnce(ctx, 200, MANY_EARLIER_MESSAGES);
    await echoOnce(ctx);
  }
  ctx.broker.route(undefined);
}
