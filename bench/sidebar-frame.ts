/**
 * In-process micro-benchmark of the sidebar at scale (README.md, "Tool budget"): the real App at
 * 120x40 with 20 ready servers of 50 tools each (1,000 tools, costs shown), the sidebar focused
 * and one server (or all of them) expanded; then ↓ pressed 60 times. Per key: wall time until the
 * screen writer has the new frame (p50, p95, max) and CPU time; bytes the writer sent.
 *
 *   node --import tsx bench/sidebar-frame.ts
 */
import { EventEmitter } from 'node:events';
import type { McpToolInfo, ServerSnapshot } from '../src/services/mcp/index';
import { manyTools } from '../test/helpers/many-tools.mjs';

process.env.NODE_ENV = 'production';
process.env.CI = 'false';
const { createElement } = await import('react');
const { render } = await import('ink');
const { App } = await import('../src/ui/App');
const { AppProviders } = await import('../src/ui/StoreContext');
const { KeyInput } = await import('../src/terminal/keyboard/keyInput');
const { InputHistory } = await import('../src/runtime/inputHistory');
const { createAppStore } = await import('../src/state/store');
const { ScreenWriter } = await import('../src/terminal/screen');
const { TranscriptLayer } = await import('../src/transcript/layer');
const { TranscriptCache } = await import('../src/transcript/transcript');
const { installFastInkOutput } = await import('../src/terminal/inkOutput');
const { loadConfig } = await import('../src/services/config/load');
const { createToolBudget } = await import('../src/runtime/tool-budget');
const { memorySwitchStore } = await import('../src/services/tools/switches');

const COLUMNS = 120;
const ROWS = 40;
const SERVERS = 20;
const PER_SERVER = 50;

class Terminal extends EventEmitter {
  columns = COLUMNS;
  rows = ROWS;
  isTTY = true;
  bytes = 0;
  lastWriteAt = 0;
  write(data: string): boolean {
    this.bytes += Buffer.byteLength(data);
    this.lastWriteAt = performance.now();
    return true;
  }
}

class Sink extends EventEmitter {
  columns = COLUMNS;
  rows = ROWS;
  isTTY = true;
  constructor(private readonly writer: InstanceType<typeof ScreenWriter>) {
    super();
  }
  write(data: string): boolean {
    if (data.includes('\n')) this.writer.render(data);
    return true;
  }
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;
const settle = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

const snapshots: ServerSnapshot[] = Array.from({ length: SERVERS }, (_, index) => ({
  alias: `srv${String(index).padStart(2, '0')}`,
  target: 'bench',
  transport: 'stdio' as const,
  state: 'ready' as const,
  tools: manyTools(PER_SERVER, index * PER_SERVER) as McpToolInfo[],
  stderr: [],
}));

async function scenario(expandAll: boolean, presses: number): Promise<string[]> {
  const terminal = new Terminal();
  const writer = new ScreenWriter(terminal);
  const sink = new Sink(writer);
  const store = createAppStore({ modelName: 'bench', sidebarVisible: true });
  for (const snapshot of snapshots) store.getState().applyMcpEvent({ type: 'server', snapshot });
  const config = await loadConfig({ env: { HOME: '/nonexistent-bench-home' }, cwd: '/' });
  const model = { ...config.models[config.defaultModel]!, contextWindow: 8192 };
  const budget = createToolBudget(config, '/', { store: memorySwitchStore() });
  store.getState().setToolBudget(budget.view(snapshots, model));
  const keys = new KeyInput({ on: () => undefined });
  const controller = { submit() {}, cancel: () => false, quit() {} };
  const layer = new TranscriptLayer(store, () => writer.render(), new TranscriptCache());
  writer.setRegion(layer);
  const env = { keys, history: new InputHistory(undefined), transcriptLayer: layer };
  const instance = render(createElement(AppProviders, { store, controller, env, children: createElement(App) }), {
    stdout: sink as unknown as NodeJS.WriteStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  await settle();
  store.getState().setFocus('sidebar');
  store.getState().updateSidebarUi({ expanded: expandAll ? snapshots.map((server) => server.alias) : [snapshots[0]!.alias] });
  await settle();
  const keyMs: number[] = [];
  const cpuStart = process.cpuUsage();
  const bytesStart = terminal.bytes;
  for (let press = 0; press < presses; press++) {
    const start = performance.now();
    // Down through the list, then back up (one expanded server's list is 70 rows long).
    keys.feed(Math.floor(press / 60) % 2 === 0 ? '\x1b[B' : '\x1b[A');
    await settle();
    keyMs.push(terminal.lastWriteAt - start);
  }
  const cpu = process.cpuUsage(cpuStart);
  const bytes = terminal.bytes - bytesStart;
  instance.unmount();
  layer.dispose();
  return [
    expandAll ? `all ${SERVERS} expanded` : 'one expanded',
    String(presses),
    percentile(keyMs, 0.5).toFixed(2),
    percentile(keyMs, 0.95).toFixed(2),
    Math.max(...keyMs).toFixed(2),
    ((cpu.user + cpu.system) / 1000 / presses).toFixed(2),
    (bytes / presses).toFixed(0),
  ];
}

installFastInkOutput();
await scenario(false, 10);
const rows: string[][] = [];
const PRESSES = Number(process.env.PRESSES ?? 60);
for (const expandAll of [false, true]) rows.push(await scenario(expandAll, PRESSES));
if (process.env.TWICE) for (const expandAll of [false, true]) rows.push(await scenario(expandAll, PRESSES));
const columns = ['sidebar', 'presses', 'p50 ms', 'p95 ms', 'max ms', 'CPU ms/key', 'bytes/key'];
const widths = columns.map((column, index) => Math.max(column.length, ...rows.map((row) => row[index]!.length)));
const line = (cells: string[]) => cells.map((cell, index) => (index < 1 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!))).join('  ');
console.log(`sidebar ↓ at ${COLUMNS}x${ROWS}: ${SERVERS} servers, ${SERVERS * PER_SERVER} tools`);
console.log(line(columns));
for (const row of rows) console.log(line(row));
