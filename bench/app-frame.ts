/**
 * In-process micro-benchmark of whole-app frames: the real App (transcript, sidebar, input,
 * status bar) drawn into the app's ScreenWriter, at 120x40, while a 2,000-token answer streams
 * N tokens per update (empty session and 2,000 earlier messages), then keystrokes in the input.
 * Three ways of drawing, to show what each step of the rendering work bought:
 *
 * - `ink`: the transcript through Ink, Ink composing every frame itself (as before);
 * - `ink + row cache`: the same with terminal/inkOutput.ts (rows reused from the last frame);
 * - `layer`: as the app runs in a terminal: the transcript drawn beside Ink by the transcript
 *   layer, so a streamed update is no React render and no Ink frame.
 *
 *   node --import tsx bench/app-frame.ts
 *
 * Columns: ms per streamed update (p50, p95, wall time until the screen writer has the update),
 * CPU for the whole stream, bytes the writer sent, and ms per keystroke (p50, p95).
 */
import { EventEmitter } from 'node:events';
import type { Message } from '../src/services/conversation/types';
import { answerTokens } from './fixtures';

// As in the bundled app: React's production build. Ink decides at import time whether it runs in
// CI and would then hold every frame back.
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
const { loadHighlighter } = await import('../src/transcript/highlight');
const { TranscriptCache } = await import('../src/transcript/transcript');
const { installFastInkOutput } = await import('../src/terminal/inkOutput');

const COLUMNS = 120;
const ROWS = 40;

type Mode = 'ink' | 'ink + row cache' | 'layer';

/** The terminal: counts bytes and notes when the last write happened. */
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

/** Ink's stdout: every frame goes to the screen writer, as in the app. */
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

function earlier(count: number): Message[] {
  const at = new Date(0).toISOString();
  const messages: Message[] = [];
  for (let index = 0; index < count; index++) {
    messages.push(
      index % 2 === 0
        ? { id: `u${index}`, role: 'user', content: `Question ${index}: how does part ${index} work?`, at }
        : { id: `a${index}`, role: 'assistant', content: `### Answer ${index}\n\nPart ${index} reads its **input**:\n\n- validate the \`input\`\n- keep what was seen\n\n\`\`\`sh\nrun --part ${index}\n\`\`\``, finishReason: 'stop', at },
    );
  }
  return messages;
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;
/** Lets React render and the layer repaint (both are queued behind the update). */
const settle = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));

async function scenario(mode: Mode, history: number, perFrame: number): Promise<string[]> {
  const terminal = new Terminal();
  const writer = new ScreenWriter(terminal);
  const sink = new Sink(writer);
  const store = createAppStore({ modelName: 'bench', sidebarVisible: true });
  store.getState().applyMcpEvent({ type: 'server', snapshot: { alias: 'builtin', target: 'built-in', state: 'ready', tools: [], stderr: [] } });
  if (history > 0) store.getState().loadHistory(earlier(history));
  const keys = new KeyInput({ on: () => undefined });
  const controller = { submit() {}, cancel: () => false, quit() {} };
  const layer = mode === 'layer' ? new TranscriptLayer(store, () => writer.render(), new TranscriptCache()) : undefined;
  writer.setRegion(layer);
  const env = { keys, history: new InputHistory(undefined), ...(layer ? { transcriptLayer: layer } : {}) };
  const instance = render(createElement(AppProviders, { store, controller, env, children: createElement(App) }), {
    stdout: sink as unknown as NodeJS.WriteStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  await settle();
  store.getState().addUserItem('question', 'go');
  store.getState().applyConversationEvents([{ type: 'request-start', depth: 0, model: 'bench' }, { type: 'text-delta', text: ' ' }]);
  await settle();
  const tokens = answerTokens();
  const updateMs: number[] = [];
  const cpuStart = process.cpuUsage();
  const bytesStart = terminal.bytes;
  for (let index = 0; index < tokens.length; index += perFrame) {
    const start = performance.now();
    store.getState().applyConversationEvents([{ type: 'text-delta', text: tokens.slice(index, index + perFrame).join('') }]);
    await settle();
    updateMs.push(terminal.lastWriteAt - start);
  }
  const cpu = process.cpuUsage(cpuStart);
  const bytes = terminal.bytes - bytesStart;
  const keyMs: number[] = [];
  for (const char of 'hello world, this is typing') {
    const start = performance.now();
    keys.feed(char);
    await settle();
    keyMs.push(terminal.lastWriteAt - start);
  }
  instance.unmount();
  layer?.dispose();
  return [
    mode,
    `${perFrame} tok/update, ${history.toLocaleString('en')} earlier`,
    String(updateMs.length),
    percentile(updateMs, 0.5).toFixed(2),
    percentile(updateMs, 0.95).toFixed(2),
    ((cpu.user + cpu.system) / 1000).toFixed(0),
    (bytes / 1024).toFixed(0),
    percentile(keyMs, 0.5).toFixed(2),
    percentile(keyMs, 0.95).toFixed(2),
  ];
}

await loadHighlighter();
const rows: string[][] = [];
for (const mode of ['ink', 'ink + row cache', 'layer'] as const) {
  // The row cache, once installed, stays: the plain `ink` rows run first.
  if (mode === 'ink + row cache') installFastInkOutput();
  await scenario(mode, 0, 30);
  for (const perFrame of [7, 70]) for (const history of [0, 2000]) rows.push(await scenario(mode, history, perFrame));
}
const columns = ['drawing', 'stream', 'updates', 'p50 ms', 'p95 ms', 'CPU ms', 'KiB', 'key p50', 'key p95'];
const widths = columns.map((column, index) => Math.max(column.length, ...rows.map((row) => row[index]!.length)));
const line = (cells: string[]) => cells.map((cell, index) => (index < 2 ? cell.padEnd(widths[index]!) : cell.padStart(widths[index]!))).join('  ');
console.log(`whole-app frames at ${COLUMNS}x${ROWS}: a 2,000-token answer, then keystrokes`);
console.log(line(columns));
for (const row of rows) console.log(line(row));
