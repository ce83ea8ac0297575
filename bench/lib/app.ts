import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ScriptedBroker } from '../../test/helpers/scripted-broker';
import type { ScratchHome } from '../fixtures';
import type { Results } from './results';
import { BenchTerminal, type ScreenPredicate } from './terminal';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/**
 * The built binary, as installed (`npm run build` makes it). `BENCH_CLI=<path>` measures another
 * build instead (a copy of an earlier dist/, for before/after runs taking turns on one machine).
 */
export const CLI = process.env.BENCH_CLI ? path.resolve(process.env.BENCH_CLI) : path.join(ROOT, 'dist', 'cli.js');

export interface BenchContext {
  broker: ScriptedBroker;
  results: Results;
  /** Runs per scenario; `slowRuns` for the ones that take seconds each (200 tokens/s). */
  runs: number;
  slowRuns: number;
  cols: number;
  rows: number;
  log: (message: string) => void;
  /** Waits (a while) until other processes leave the cores alone; called before every measured run. */
  settle: () => Promise<void>;
}

export const keys = { enter: '\r', ctrlD: '\x04' };

/** The app's input box is on screen: its prompt with the placeholder. */
export const inputBoxVisible: ScreenPredicate = (lines) => lines.some((line) => line.includes('›') && line.includes('Ask anything'));

export const screenHas =
  (text: string): ScreenPredicate =>
  (lines) =>
    lines.some((line) => line.includes(text));

/** `BENCH_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof"`: extra node options for the app (profiles of a scenario). */
const NODE_ARGS = process.env.BENCH_NODE_ARGS?.split(' ').filter((arg) => arg !== '') ?? [];

/** Starts the built app in a pseudo-terminal of the bench's size, in the scratch home. */
export function spawnApp(ctx: BenchContext, home: ScratchHome, args: string[] = []): BenchTerminal {
  return new BenchTerminal(process.execPath, [...NODE_ARGS, CLI, ...args], { cols: ctx.cols, rows: ctx.rows, env: home.env, cwd: home.home });
}

export const MB = 1024 * 1024;
