// `npm run bench`: builds the app, then drives the built binary in a real pseudo-terminal against
// the scripted loopback broker and prints median, min and max over several runs, with two
// baselines measured in the same run (`node -e ""` and a minimal Ink app), the targets met or not,
// and the micro-benchmarks. Benchmarks measure; they never pass or fail.
//
//   npm run bench                          everything
//   npm run bench -- --only startup,tools  some scenarios (startup, stream, tools, mcp, tool-budget, resume, huge-result, estimate, floor, micro)
//   npm run bench -- --runs 9 --slow-runs 5
//   npm run bench -- --write               also put the results into BENCHMARKS.md
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { startScriptedBroker } from '../test/helpers/scripted-broker';
import { accumulatorScenarios } from './accumulator';
import { contextScenarios } from './context';
import { CLI, ROOT, type BenchContext } from './lib/app';
import { machineBusy, machineInfo } from './lib/proc';
import { markdownTable, Results, RESULT_COLUMNS, textTable } from './lib/results';
import type { Scenario } from './scenario';
import { estimateScenario } from './scenarios/estimate';
import { floorScenario } from './scenarios/floor';
import { hugeResultScenario } from './scenarios/huge-result';
import { mcpStartScenario } from './scenarios/mcp-start';
import { resumeScenario } from './scenarios/resume';
import { startupScenario } from './scenarios/startup';
import { streamScenario } from './scenarios/stream';
import { toolsScenario } from './scenarios/tools';
import { toolBudgetScenario } from './scenarios/tool-budget';
import { checkTargets, type TargetResult } from './targets';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    runs: { type: 'string', default: '5' },
    'slow-runs': { type: 'string', default: '3' },
    // Before each run, wait up to this many seconds for other processes to leave the cores alone.
    'quiet-wait': { type: 'string', default: '60' },
    write: { type: 'boolean', default: false },
  },
});

const SCENARIOS: Record<string, (ctx: BenchContext) => Promise<void>> = {
  startup: startupScenario,
  stream: streamScenario,
  tools: toolsScenario,
  mcp: mcpStartScenario,
  'tool-budget': toolBudgetScenario,
  resume: resumeScenario,
  'huge-result': hugeResultScenario,
  estimate: estimateScenario,
  floor: floorScenario,
};
const only = values.only?.split(',').map((name) => name.trim());
const unknown = only?.filter((name) => name !== 'micro' && !(name in SCENARIOS)) ?? [];
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown scenario(s) ${unknown.join(', ')}; choose from ${[...Object.keys(SCENARIOS), 'micro'].join(', ')}\n`);
  process.exit(2);
}
const wanted = (name: string) => !only || only.includes(name);
const positive = (text: string, flag: string) => {
  const number = Number(text);
  if (!Number.isInteger(number) || number < 1) {
    process.stderr.write(`bench: --${flag}: expected a positive whole number, got ${JSON.stringify(text)}\n`);
    process.exit(2);
  }
  return number;
};

if (!existsSync(CLI)) {
  process.stderr.write(`bench: ${path.relative(ROOT, CLI)} is missing; run \`npm run build\` (npm run bench does)\n`);
  process.exit(2);
}
if (!existsSync('/proc/self/stat')) process.stderr.write('bench: /proc is not available; CPU and memory columns stay empty\n');

const results = new Results();
const broker = await startScriptedBroker();
const ctx: BenchContext = {
  broker,
  results,
  runs: positive(values.runs, 'runs'),
  slowRuns: positive(values['slow-runs'], 'slow-runs'),
  cols: 120,
  rows: 40,
  log: (message) => process.stderr.write(`bench: ${message}\n`),
  settle: async () => {
    const deadline = performance.now() + Number(values['quiet-wait']) * 1000;
    for (;;) {
      const busy = await machineBusy(400);
      if (busy === undefined || busy < 0.1) return;
      if (performance.now() > deadline) {
        busyRuns++;
        ctx.log(`still ${Math.round(busy * 100)}% of the cores busy with other work; measuring anyway`);
        return;
      }
    }
  },
};
let busyRuns = 0;

const started = new Date();
const loadBefore = os.loadavg()[0]!;
if (loadBefore > 0.5) ctx.log(`the machine is busy (load average ${loadBefore.toFixed(2)}): other processes compete for the cores and the numbers will be higher`);
try {
  for (const [name, scenario] of Object.entries(SCENARIOS)) {
    if (!wanted(name)) continue;
    try {
      await scenario(ctx);
    } catch (error) {
      results.errors.push({ scenario: name, message: (error as Error).message });
      ctx.log(`${name} failed: ${(error as Error).message}`);
    }
  }
} finally {
  await broker.close();
}

const micro: Array<Record<string, string>> = [];
if (wanted('micro')) {
  for (const scenario of [...accumulatorScenarios, ...contextScenarios] as Scenario[]) {
    ctx.log(`micro: ${scenario.name}`);
    try {
      micro.push({ scenario: scenario.name, ...(await scenario.run()) });
    } catch (error) {
      micro.push({ scenario: scenario.name, error: (error as Error).message });
    }
  }
}

const machine = machineInfo();
const targets = results.rows().length > 0 ? checkTargets(results) : [];
const targetRows = (list: TargetResult[]) => list.map((t) => [t.target, t.measured, t.met === undefined ? '-' : t.met ? 'met' : 'NOT MET']);
const microColumns = [...new Set(micro.flatMap((row) => Object.keys(row)))];
const microRows = micro.map((row) => microColumns.map((column) => row[column] ?? ''));
const header = [
  `date: ${started.toISOString()}`,
  `machine: ${machine.cpus} CPUs (nproc), ${machine.cpuModel}, ${machine.memory} RAM, ${machine.os}, node ${machine.node}`,
  `terminal: ${ctx.cols}x${ctx.rows}; runs: ${ctx.runs} (200 tokens/s: ${ctx.slowRuns}); load average before/after: ${loadBefore.toFixed(2)}/${os.loadavg()[0]!.toFixed(2)}; runs that had to share the cores: ${busyRuns}`,
];

console.log(header.join('\n'));
if (targets.length > 0) {
  console.log(`\n${textTable(['target (medians)', 'measured', 'result'], targetRows(targets))}`);
}
if (results.rows().length > 0) console.log(`\n${textTable(RESULT_COLUMNS, results.rows())}`);
if (micro.length > 0) console.log(`\n${textTable(microColumns, microRows)}`);
for (const error of results.errors) console.log(`\nscenario ${error.scenario} failed: ${error.message}`);

if (values.write) {
  const file = path.join(ROOT, 'BENCHMARKS.md');
  const begin = '<!-- bench:begin (written by npm run bench -- --write) -->';
  const end = '<!-- bench:end -->';
  const body = [
    begin,
    header.map((line) => `- ${line}`).join('\n'),
    targets.length > 0 ? `\n### Targets\n\n${markdownTable(['target (medians)', 'measured', 'result'], targetRows(targets))}` : '',
    results.rows().length > 0 ? `\n### Measurements\n\n${markdownTable(RESULT_COLUMNS, results.rows())}` : '',
    micro.length > 0 ? `\n### Micro-benchmarks (in process)\n\n${markdownTable(microColumns, microRows)}` : '',
    ...results.errors.map((error) => `\nScenario ${error.scenario} failed: ${error.message.split('\n')[0]}`),
    end,
  ]
    .filter((part) => part !== '')
    .join('\n');
  const current = existsSync(file) ? readFileSync(file, 'utf8') : `# Benchmarks\n\n${begin}\n${end}\n`;
  const from = current.indexOf(begin);
  const to = current.indexOf(end);
  const next = from >= 0 && to > from ? `${current.slice(0, from)}${body}${current.slice(to + end.length)}` : `${current.trimEnd()}\n\n${body}\n`;
  writeFileSync(file, next);
  ctx.log(`results written to ${path.relative(process.cwd(), file) || file}`);
}
