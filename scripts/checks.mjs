// `npm test`'s middle step: the type-check and the MCP conformance suite, side by side.
//
// tsc keeps one core busy for most of a minute; the conformance scenarios spend much of their time
// waiting on the runner's timers and spawning processes. One after the other they leave a core
// idle; together they take about as long as the slower of the two. The conformance lines appear as
// the scenarios end; tsc prints only errors, kept whole and printed when it ends, so the two never
// mix within a line. Exits non-zero when either fails, like `tsc && node scripts/conformance.mjs`
// did, but always lets both finish.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const tsc = path.join(path.dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');

function run(label, args, { live }) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, args, { cwd: root, env: process.env, stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'] });
    let output = '';
    const done = (code, signal, extra = '') => {
      const text = `${output}${extra}`;
      if (text) process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
      const how = code === 0 ? 'passed' : `failed (exit ${signal ?? code})`;
      console.log(`${label}: ${how} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      resolve(code);
    };
    child.stdout?.on('data', (data) => (output += data));
    child.stderr?.on('data', (data) => (output += data));
    child.on('error', (error) => done(1, undefined, `${error.message}\n`));
    child.on('close', (code, signal) => done(code ?? 1, signal));
  });
}

const codes = await Promise.all([
  run('type-check (tsc -p tsconfig.json --noEmit)', [tsc, '-p', 'tsconfig.json', '--noEmit'], { live: false }),
  run('conformance (scripts/conformance.mjs)', [path.join(root, 'scripts', 'conformance.mjs')], { live: true }),
]);
process.exit(codes.some((code) => code !== 0) ? 1 : 0);
