// Run by test/unit/cli/collect-after-load.test.ts in a child process (the module sets a V8 flag):
// `<messages>` loaded, counts the full collections in the next half second.
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { collectAfterLoad } from '../../src/cli/collect-after-load';

const messages = Number(process.argv[2]);
let major = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) if ((entry as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
});
observer.observe({ entryTypes: ['gc'] });
// A little of what loading leaves behind: kept objects and garbage.
const kept: object[] = [];
for (let index = 0; index < 50_000; index++) {
  const item = { index, text: `message ${index}` };
  if (index % 2 === 0) kept.push(item);
}
const scheduled = collectAfterLoad(messages, 50);
setTimeout(() => {
  observer.disconnect();
  console.log(JSON.stringify({ scheduled, major, kept: kept.length, globalGc: typeof (globalThis as { gc?: unknown }).gc }));
}, 500);
