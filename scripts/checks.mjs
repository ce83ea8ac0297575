// `npm test`'s middle step: the type-check and the MCP conformance suite, side by side.
//
// tsc keeps one core busy for most of a minute; the conformance scenarios spend much of their time
// waiting on the runner's timers and spawning processes. One after the other they leave a core
// idle; together they take about as long as the slower of the two. Each one's output is printed
// whole when it ends (tsc's first if both fail), so the two never interleave. Exits non-zero when
// either fails, like `tsc && node scripts/conformance.mjs` did, but always lets both finish.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tsc = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');

function run(label, args) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, args, { cwd: root, env: process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (data) => (output += data));
    child.stderr.on('data', (data) => (output += data));
    child.on('error', (error) => resolve({ label, code: 1, output: `${output}${error.message}\n`, seconds: 0 }));
    child.on('close', (code, signal) => resolve({ label, code: code ?? 1, signal, output, seconds: (Date.now() - started) / 1000 }));
  });
}

const results = await Promise.all([
  run('type-check (tsc -p tsconfig.json --noEmit)', [tsc, '-p', 'tsconfig.json', '--noEmit']),
  run('conformance (scripts/conformance.mjs)', [path.join(root, 'scripts', 'conformance.mjs')]),
]);

for (const result of results) {
  if (result.output) process.stdout.write(result.output.endsWith('\n') ? result.output : `${result.output}\n`);
  const how = result.code === 0 ? 'passed' : `failed (exit ${result.signal ?? result.code})`;
  console.log(`${result.label}: ${how} in ${result.seconds.toFixed(1)} s`);
}
process.exit(results.some((result) => result.code !== 0) ? 1 : 0);
