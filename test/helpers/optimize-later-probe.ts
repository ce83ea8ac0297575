// Child process for test/unit/cli/optimize-later.test.ts: optionally loads the module that sets
// when V8 optimizes, then does `rounds` rounds of small work, run with --trace-opt or
// --trace-wasm-compilation-times so the output says what V8 chose to optimize:
//   js    one small JavaScript function called `rounds` times
//   yoga  a layout of 40 rows computed `rounds` times by Yoga (Ink's WebAssembly layout engine)
if (process.argv.includes('--with-module')) await import('../../src/cli/optimize-later');

const [kind, roundsArgument] = process.argv.slice(2);
const rounds = Number(roundsArgument);

function burstOfWork(i: number): number {
  let hash = 0;
  const text = `line ${i} of the answer`;
  for (let c = 0; c < text.length; c++) hash = (hash * 31 + text.charCodeAt(c)) | 0;
  return hash;
}

async function layouts(): Promise<number> {
  const { default: Yoga } = await import('yoga-layout');
  const root = Yoga.Node.create();
  root.setFlexDirection(Yoga.FLEX_DIRECTION_COLUMN);
  for (let i = 0; i < 40; i++) {
    const row = Yoga.Node.create();
    row.setHeight(1);
    row.setFlexGrow(i % 2);
    root.insertChild(row, i);
  }
  for (let i = 0; i < rounds; i++) {
    root.setWidth(80 + (i % 40));
    root.calculateLayout(undefined, undefined, Yoga.DIRECTION_LTR);
  }
  // V8 compiles optimized WebAssembly on a helper thread: give it time to finish and say so.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return root.getComputedHeight();
}

let total = 0;
if (kind === 'yoga') total = await layouts();
else for (let i = 0; i < rounds; i++) total ^= burstOfWork(i);
process.stdout.write(`total ${total}\n`);

export {};
