// Keeps V8's optimizing compilers for code that stays hot. The app's work comes in short bursts: a
// start-up, an answer streamed over a few seconds, a tool call.
//
// - JavaScript: with V8's default budget TurboFan compiles dozens of functions in each burst (the
//   markdown layout, the screen writer, the SSE reader), and compiling them cost more CPU than the
//   optimized code saved before the burst was over: an answer of 2,000 tokens at full speed took
//   0.51 s of CPU with the default budget and 0.26 s with sixteen times the budget, the same as with
//   TurboFan switched off. A function that keeps running, such as a long computation, is still
//   optimized: after sixteen times as much of its bytecode has run. The budget is read whenever a
//   function's feedback is set up, so setting it before the app's own modules load covers them all.
// - WebAssembly (Yoga, Ink's layout engine; also llhttp, the HTTP parser under node's fetch): V8
//   recompiled Yoga's hot functions with TurboFan a second or so after start-up, and that compile
//   took about 20 MB of memory at once, which set the peak of the whole run (108 MB while an answer
//   streamed; 87 MB with Yoga left in Liftoff, V8's baseline compiler, at the same CPU). Liftoff
//   compiles each function when first called, after this module has run. A large fetch download
//   is 10-30 % slower in the parser's baseline code; a streamed answer's small bodies are not.
//
// Measured with `npm run bench` (BENCHMARKS.md, "CPU: TurboFan waits"). Someone who tunes either
// themselves (node's flags; NODE_OPTIONS takes only --jitless of these) keeps their setting.
import { setFlagsFromString } from 'node:v8';

/** V8 11's default budget (66 KiB of bytecode) times sixteen. */
export const INTERRUPT_BUDGET = 16 * 67_584;

const TIERING_FLAG = /--interrupt[-_]budget|--(no[-_])?(opt|turbofan)\b|--jitless/;
const WASM_TIERING_FLAG = /--(no[-_])?(liftoff|wasm[-_]tier[-_]up|wasm[-_]dynamic[-_]tiering)\b|--liftoff[-_]only|--wasm[-_]tiering[-_]budget|--jitless/;

const givenByUser = (pattern: RegExp, execArgv: readonly string[], nodeOptions: string | undefined) =>
  execArgv.some((arg) => pattern.test(arg)) || pattern.test(nodeOptions ?? '');

/** The user chose when JavaScript is optimized. */
export function tunedByUser(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return givenByUser(TIERING_FLAG, execArgv, nodeOptions);
}

/** The user chose how WebAssembly is compiled. */
export function wasmTunedByUser(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return givenByUser(WASM_TIERING_FLAG, execArgv, nodeOptions);
}

if (!tunedByUser(process.execArgv, process.env.NODE_OPTIONS)) setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
if (!wasmTunedByUser(process.execArgv, process.env.NODE_OPTIONS)) setFlagsFromString('--liftoff-only');
