// Lets V8's optimizing compiler (TurboFan) wait for functions that stay hot, not ones that are
// busy for a moment. The app's work comes in short bursts: a start-up, an answer streamed over a
// few seconds, a tool call. With V8's default budget TurboFan compiles dozens of functions in each
// burst (the markdown layout, the screen writer, the SSE reader), and compiling them cost more CPU
// than the optimized code saved before the burst was over: an answer of 2,000 tokens at full speed
// took 0.51 s of CPU with the default budget and 0.26 s with sixteen times the budget, the same as
// with TurboFan switched off (`npm run bench`, BENCHMARKS.md). A function that keeps running, such
// as a long computation, is still optimized: after sixteen times as much of its bytecode has run.
//
// The budget is read whenever a function's feedback is set up, so setting it before the app's own
// modules load covers all of them. Someone who tunes it themselves (NODE_OPTIONS, node's flags) keeps it.
import { setFlagsFromString } from 'node:v8';

/** V8 11's default budget (66 KiB of bytecode) times sixteen. */
export const INTERRUPT_BUDGET = 16 * 67_584;

const TIERING_FLAG = /--interrupt[-_]budget|--(no[-_])?(opt|turbofan)\b|--jitless/;

export function tunedByUser(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return execArgv.some((arg) => TIERING_FLAG.test(arg)) || TIERING_FLAG.test(nodeOptions ?? '');
}

if (!tunedByUser(process.execArgv, process.env.NODE_OPTIONS)) setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
