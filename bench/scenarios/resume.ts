/**
 * Scale: resuming a long session. A saved session of 20,000 earlier messages (written with the
 * app's own session log, as the stream scenario's 2,000) resumed with `--resume`: spawn until the
 * input box and the last earlier message are on screen, CPU time and RSS at that moment. The
 * empty session's start-up is measured in the same run, taking turns.
 */
import { brokerConfig, scratchHome, writeSession } from '../fixtures';
import { inputBoxVisible, keys, MB, screenHas, spawnApp, type BenchContext } from '../lib/app';

export const RESUMED_MESSAGES = 20_000;
export const RESUME = `resume ${RESUMED_MESSAGES.toLocaleString('en')} messages`;
export const RESUME_EMPTY = 'resume: empty session (same runs)';

async function once(ctx: BenchContext, count: number): Promise<void> {
  await ctx.settle();
  const home = scratchHome(brokerConfig(ctx.broker.url));
  const label = count > 0 ? RESUME : RESUME_EMPTY;
  // The last earlier message's closing words (see fixtures.earlierMessage).
  const args = count > 0 ? ['--resume', writeSession(home.stateDir, count)] : [];
  const term = spawnApp(ctx, home, args);
  try {
    const ready = await term.waitFor((lines) => inputBoxVisible(lines) && (count === 0 || screenHas(`part ${count - 1}.`)(lines)), 30_000, 'the resumed session');
    ctx.results.add(label, 'spawn to input box', 'ms', ready.at - term.startedAt);
    ctx.results.add(label, 'CPU at input box', 's', ready.sample?.cpuSeconds);
    ctx.results.add(label, 'RSS at input box', 'MB', ready.sample && ready.sample.rssBytes / MB);
  } finally {
    await term.close(keys.ctrlD);
    home.dispose();
  }
}

export async function resumeScenario(ctx: BenchContext): Promise<void> {
  for (let run = 1; run <= ctx.runs; run++) {
    ctx.log(`resume run ${run}/${ctx.runs}`);
    await once(ctx, 0);
    await once(ctx, RESUMED_MESSAGES);
  }
}
