// Keeps V8's young generation at its starting size (two 1 MB semi-spaces) instead of letting it
// grow to two 16 MB ones. The app's garbage is short-lived and small: frames, stream chunks,
// JSON-RPC envelopes. A bigger young generation collects it less often, but the pages it grew
// into stay resident, so it only raised the peak memory of a streamed answer or of twenty servers
// connecting by 15-30 MB, with no CPU saved (`npm run bench`, BENCHMARKS.md).
//
// `--max-semi-space-size` is read only when the heap is created, that is from node's own command
// line, which an installed command does not control; the growth factor is read each time V8
// considers growing the space, so a factor of 1 set before anything else runs holds it where it
// is. Someone who sizes the young generation themselves (NODE_OPTIONS or node's flags) keeps it.
import { setFlagsFromString } from 'node:v8';

const YOUNG_GENERATION_FLAG = /--(max|min)[-_]semi[-_]space[-_]size|--semi[-_]space[-_]growth[-_]factor/;

export function sizedByUser(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return execArgv.some((arg) => YOUNG_GENERATION_FLAG.test(arg)) || YOUNG_GENERATION_FLAG.test(nodeOptions ?? '');
}

if (!sizedByUser(process.execArgv, process.env.NODE_OPTIONS)) setFlagsFromString('--semi-space-growth-factor=1');
