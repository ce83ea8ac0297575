// Child process for test/unit/cli/young-generation.test.ts: optionally loads the module that holds
// the young generation's size, then allocates like a burst of streamed chunks of which some live on,
// and prints the new space's size in bytes.
import { getHeapSpaceStatistics } from 'node:v8';

if (process.argv.includes('--with-module')) await import('../../src/cli/young-generation');

const alive: Array<{ text: string; parts: number[] }> = [];
for (let i = 0; i < 300_000; i++) {
  alive.push({ text: `chunk ${i}`, parts: [i, i + 1] });
  if (alive.length > 50_000) alive.splice(0, 10_000);
}
const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
process.stdout.write(`${JSON.stringify({ newSpaceBytes: newSpace?.space_size, kept: alive.length })}\n`);
