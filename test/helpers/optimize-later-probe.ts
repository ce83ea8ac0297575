// Child process for test/unit/cli/optimize-later.test.ts: optionally loads the module that sets
// when V8 optimizes, then calls one small function `rounds` times. Run with --trace-opt, the output
// says whether TurboFan took that function.
if (process.argv.includes('--with-module')) await import('../../src/cli/optimize-later');

const rounds = Number(process.argv[2]);

export {};

function burstOfWork(i: number): number {
  let hash = 0;
  const text = `line ${i} of the answer`;
  for (let c = 0; c < text.length; c++) hash = (hash * 31 + text.charCodeAt(c)) | 0;
  return hash;
}

let total = 0;
for (let i = 0; i < rounds; i++) total ^= burstOfWork(i);
process.stdout.write(`total ${total}\n`);
