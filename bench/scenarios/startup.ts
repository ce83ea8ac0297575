/**
 * Start-up: spawn -> the input box on screen, with CPU time and RSS of the process at that moment;
 * the same for a minimal Ink app (first paint) and `node -e ""` (exit), and `aish-tui --version`.
 * The minimal Ink app is measured twice: from node_modules as it is, and bundled with the same
 * esbuild plugin as aish-tui (scripts/first-frame-plugin.mjs), which is the least Ink 6 itself costs.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brokerConfig, scratchHome, type ScratchHome } from '../fixtures';
import { CLI, inputBoxVisible, keys, MB, ROOT, screenHas, spawnApp, type BenchContext } from '../lib/app';
import { build } from 'esbuild';
import { firstFramePlugin } from '../../scripts/first-frame-plugin.mjs';
import { BenchTerminal } from '../lib/terminal';

export const NODE_BASELINE = 'node -e ""';
export const INK_BASELINE = 'minimal Ink app';
export const INK_BUNDLED = 'minimal Ink app, bundled';
export const VERSION = 'aish-tui --version';
export const STARTUP = 'aish-tui start-up';
/** The same, the first time in a new home (nothing remembered yet). */
export const FIRST_START = 'aish-tui first start (new home)';
/** A returning start without its remembered first frame: the app's own first frame (src/boot/remembered-screen.ts). */
export const UNPAINTED_START = 'aish-tui start-up, no frame remembered';

const GNU_TIME = '/usr/bin/time';

/**
 * Wall time from spawn to exit, and CPU time and peak RSS from the kernel's accounting of the
 * finished child (GNU time reads them from wait4). Without GNU time only the wall time is known.
 */
async function timeToExit(command: string, args: string[], env: Record<string, string>): Promise<{ ms: number; cpuSeconds?: number; peakRssBytes?: number }> {
  const useTime = existsSync(GNU_TIME);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aish-bench-time-'));
  const report = path.join(dir, 'time.txt');
  try {
    const start = performance.now();
    const child = useTime ? spawn(GNU_TIME, ['-f', '%U %S %M', '-o', report, command, ...args], { env, stdio: 'ignore' }) : spawn(command, args, { env, stdio: 'ignore' });
    const code = await new Promise<number | null>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', resolve);
    });
    const ms = performance.now() - start;
    if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
    if (!useTime) return { ms };
    const [user, system, maxKib] = readFileSync(report, 'utf8').trim().split(/\s+/).map(Number);
    return { ms, cpuSeconds: user! + system!, peakRssBytes: maxKib! * 1024 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The minimal Ink app bundled as dist/ is: one ESM file and chunks, production React, aish-tui's plugin. */
async function bundleMinimalInk(): Promise<{ file: string; dir: string }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aish-bench-ink-'));
  await build({
    absWorkingDir: ROOT,
    entryPoints: { 'minimal-ink': path.join(ROOT, 'bench', 'minimal-ink.mjs') },
    outdir: dir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
    plugins: [firstFramePlugin(ROOT)],
    define: { 'process.env.NODE_ENV': '"production"' },
    external: ['react-devtools-core'],
    banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module';\nconst require = __benchCreateRequire(import.meta.url);" },
  });
  return { file: path.join(dir, 'minimal-ink.js'), dir };
}

type Ready = Awaited<ReturnType<BenchTerminal['waitFor']>>;

/** Starts the app in `home` and records spawn to the input box, with CPU and RSS then, under `name`. */
async function startToInputBox(ctx: BenchContext, home: ScratchHome, name: string, what: string, more?: (app: BenchTerminal, ready: Ready) => Promise<void>): Promise<void> {
  const app = spawnApp(ctx, home);
  try {
    const ready = await app.waitFor(inputBoxVisible, 10_000, what);
    ctx.results.add(name, 'spawn to input box', 'ms', ready.at - app.startedAt);
    ctx.results.add(name, 'CPU at input box', 's', ready.sample?.cpuSeconds);
    ctx.results.add(name, 'RSS at input box', 'MB', ready.sample && ready.sample.rssBytes / MB);
    await more?.(app, ready);
  } finally {
    await app.close(keys.ctrlD);
  }
}

async function firstPaint(ctx: BenchContext, script: string, env: Record<string, string>, cwd: string, name: string): Promise<void> {
  const ink = new BenchTerminal(process.execPath, [script], { cols: ctx.cols, rows: ctx.rows, env: { ...env, NODE_ENV: 'production' }, cwd });
  try {
    const painted = await ink.waitFor(screenHas('minimal Ink app ready'), 10_000, name);
    ctx.results.add(name, 'spawn to first paint', 'ms', painted.at - ink.startedAt);
    ctx.results.add(name, 'CPU at paint', 's', painted.sample?.cpuSeconds);
    ctx.results.add(name, 'RSS at paint', 'MB', painted.sample && painted.sample.rssBytes / MB);
  } finally {
    await ink.close('q');
  }
}

export async function startupScenario(ctx: BenchContext): Promise<void> {
  const bundledInk = await bundleMinimalInk();
  try {
    await startupRuns(ctx, bundledInk.file);
  } finally {
    rmSync(bundledInk.dir, { recursive: true, force: true });
  }
}

async function startupRuns(ctx: BenchContext, bundledInk: string): Promise<void> {
  const { results } = ctx;
  for (let run = 1; run <= ctx.runs; run++) {
    ctx.log(`start-up run ${run}/${ctx.runs}`);
    await ctx.settle();
    // The subjects take turns in every run, so a noisy moment hits all of them alike.
    const home = scratchHome(brokerConfig(ctx.broker.url));
    try {
      const node = await timeToExit(process.execPath, ['-e', ''], home.env);
      results.add(NODE_BASELINE, 'spawn to exit', 'ms', node.ms);
      results.add(NODE_BASELINE, 'CPU', 's', node.cpuSeconds);
      results.add(NODE_BASELINE, 'peak RSS', 'MB', node.peakRssBytes === undefined ? undefined : node.peakRssBytes / MB);

      const version = await timeToExit(process.execPath, [CLI, '--version'], home.env);
      results.add(VERSION, 'spawn to exit', 'ms', version.ms);
      results.add(VERSION, 'CPU', 's', version.cpuSeconds);
      results.add(VERSION, 'peak RSS', 'MB', version.peakRssBytes === undefined ? undefined : version.peakRssBytes / MB);

      await firstPaint(ctx, path.join(ROOT, 'bench', 'minimal-ink.mjs'), home.env, home.home, INK_BASELINE);
      await firstPaint(ctx, bundledInk, home.env, home.home, INK_BUNDLED);

      // A new home first (nothing remembered yet: the config is checked, the state files made),
      // then the start every later day has, in the same home: that one is "start-up".
      await startToInputBox(ctx, home, FIRST_START, 'the input box (new home)');
      await startToInputBox(ctx, home, STARTUP, 'the input box', async (app, ready) => {
        results.add(STARTUP, 'bytes of first frame', 'KiB', ready.bytes / 1024);
        // The input box is painted from the last start's first frame before the app's code loads
        // (src/boot/remembered-screen.ts): a key typed the moment it shows waits in the terminal
        // until the app reads it. This is when the user sees that key.
        app.write('z');
        const echoed = await app.waitFor((lines) => lines.some((line) => line.includes('› z')), 10_000, 'the typed key');
        results.add(STARTUP, 'spawn to a key typed at once shown', 'ms', echoed.at - app.startedAt);
      });
      // The same start with the remembered frame taken away: when the app draws its own.
      rmSync(path.join(home.stateDir, 'screens'), { recursive: true, force: true });
      await startToInputBox(ctx, home, UNPAINTED_START, 'the input box (no frame remembered)');
    } finally {
      home.dispose();
    }
  }
}
