// Run by test/unit/cli/collect-after-load.test.ts in a child process (the module sets V8 flags):
// servers settle in a small store, and the probe reports the forced full collections that follow
// and the old generation's size before and after. `<case>` is one of:
//   burst      - a start-up burst left the old generation half empty; the servers settle
//   uncollected - the same burst, its garbage not collected yet when the servers settle
//   late       - the burst before the watching starts: the old generation did not grow since, but
//                is half empty
//   typing     - the same, with the store changing every 30 ms for 300 ms after they settle
//   connecting - the same burst, but one server is still connecting
//   calm       - no burst: the old generation has little empty space when the servers settle
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { createStore } from 'zustand/vanilla';
import { collectGarbage, compactWhenServersSettle, emptyOldGenerationBytes } from '../../src/cli/collect-after-load';

const which = process.argv[2] ?? 'burst';
const QUIET_MS = 100;

interface ProbeState {
  order: string[];
  servers: Record<string, { state: string }>;
  input: string;
}

const oldSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space')!.space_size;

// What twenty servers starting leave behind: objects that lived long enough to reach the old
// generation (all of them are held until the burst ends), of which half are kept, so that no page
// is empty enough for V8 to compact it on its own.
const kept: object[][] = [];
const store = createStore<ProbeState>(() => ({ order: ['a', 'b'], servers: { a: { state: 'connecting' }, b: { state: 'connecting' } }, input: '' }));
// The app starts watching at its first frame, before the servers' burst.
let stop = which === 'late' ? () => {} : compactWhenServersSettle(store, QUIET_MS);
if (which !== 'calm') {
  const held: object[][] = [];
  for (let round = 0; round < 16; round++) {
    const made: object[] = [];
    for (let index = 0; index < 20_000; index++) made.push({ index, text: `tool ${index} of round ${round}`, pair: [index, round] });
    held.push(made);
    await new Promise((resolve) => setImmediate(resolve));
  }
  for (const made of held.splice(0)) kept.push(made.filter((_, index) => index % 2 === 0));
  if (which !== 'uncollected') {
    // V8's own full collection during the burst, which frees the rest but keeps the pages they
    // were on (whether V8 compacts there is its own choice; here it is told not to, so the case is
    // sure).
    setFlagsFromString('--no-compact');
    collectGarbage();
    setFlagsFromString('--compact');
    // Sweeping finishes beside the main thread; only then do the statistics show the free space.
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

let settledAt = 0;
const forced: number[] = [];
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    const detail = (entry as { detail?: { kind?: number; flags?: number } }).detail;
    if (detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR && (detail.flags ?? 0) & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED) forced.push(Math.round(entry.startTime - settledAt));
  }
});
observer.observe({ entryTypes: ['gc'] });

const emptyBefore = emptyOldGenerationBytes();
const oldBefore = oldSpace();
if (which === 'late') stop = compactWhenServersSettle(store, QUIET_MS);
await new Promise((resolve) => setTimeout(resolve, 20));
settledAt = performance.now();
store.setState({ servers: { a: { state: 'ready' }, b: { state: which === 'connecting' ? 'connecting' : 'error' } } });
if (which === 'typing') {
  for (let key = 0; key < 10; key++) {
    await new Promise((resolve) => setTimeout(resolve, 30));
    store.setState({ input: `${store.getState().input}x` });
  }
}
const typingEnded = Math.round(performance.now() - settledAt);
await new Promise((resolve) => setTimeout(resolve, 600));
// Emptied pages are given back beside the main thread, a moment after the collection.
observer.disconnect();
stop();
console.log(JSON.stringify({ which, emptyBefore, emptyAfter: emptyOldGenerationBytes(), oldBefore, oldAfter: oldSpace(), forced, typingEnded, kept: kept.length }));
