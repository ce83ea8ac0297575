/**
 * In-process micro-benchmark of whole-app frames: the real App (transcript, sidebar, input,
 * status bar) rendered by Ink in debug mode into the app's ScreenWriter, as in the terminal.
 * Measures the CPU time of one frame while an answer streams (N tokens per frame, empty session
 * and 2,000 earlier messages) and of one keystroke in the input while a long answer is on screen.
 *
 *   node --import tsx bench/app-frame.ts
 */
import { EventEmitter } from 'node:events';
import type { Message } from '../src/services/conversation/types';
import { answerTokens } from './fixtures';

process.env.NODE_ENV = 'production';
process.env.CI = 'false';
const { createElement } = await import('react');
const { render } = await import('ink');
const { App } = await import('../src/app/App');
const { AppProviders } = await import('../src/app/StoreContext');
const { KeyInput } = await import('../src/app/input/keyInput');
const { InputHistory } = await import('../src/app/inputHistory');
const { createAppStore } = await import('../src/state/store');
const { ScreenWriter } = await import('../src/app/screen');
const { loadHighlighter } = await import('../src/components/chat/highlight');
const { installFastInkOutput, inkOutputStats } = await import('../src/app/inkOutput');

const COLUMNS = 120;
const ROWS = 40;

class Terminal extends EventEmitter {
  columns = COLUMNS;
  rows = ROWS;
  isTTY = true;
  bytes = 0;
  write(data: string): boolean {
    this.bytes += Buffer.byteLength(data);
    return true;
  }
}

/** Ink's stdout: frames go to the ScreenWriter; the time of the last frame is kept. */
class Sink extends EventEmitter {
  columns = COLUMNS;
  rows = ROWS;
  isTTY = true;
  frames = 0;
  inkDoneAt = 0;
  writerMs = 0;
  constructor(private readonly writer: InstanceType<typeof ScreenWriter>) {
    super();
  }
  write(data: string): boolean {
    if (!data.includes('\n')) return true;
    this.inkDoneAt = performance.now();
    this.writer.render(data);
    this.writerMs += performance.now() - this.inkDoneAt;
    this.frames++;
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
const tick = () => new Promise((resolve) => setImmediate(resolve));

async function scenario(label: string, history: number, perFrame: number, fast: boolean): Promise<string> {
  const terminal = new Terminal();
  const writer = new ScreenWriter(terminal);
  const sink = new Sink(writer);
  const store = createAppStore({ modelName: 'bench', sidebarVisible: true });
  store.getState().applyMcpEvent({ type: 'server', snapshot: { alias: 'builtin', target: 'built-in', state: 'ready', tools: [], stderr: [] } });
  if (history > 0) store.getState().loadHistory(earlier(history));
  const keys = new KeyInput({ on: () => undefined });
  const controller = { submit() {}, cancel: () => false, quit() {} };
  const instance = render(createElement(AppProviders, { store, controller, env: { keys, history: new InputHistory(undefined) }, children: createElement(App) }), {
    stdout: sink as unknown as NodeJS.WriteStream,
    debug: true,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  await tick();
  store.getState().addUserItem('question', 'go');
  store.getState().applyConversationEvents([{ type: 'request-start', depth: 0, model: 'bench' }]);
  await tick();
  const tokens = answerTokens();
  const frameMs: number[] = [];
  const cpuStart = process.cpuUsage();
  const bytesStart = terminal.bytes;
  sink.writerMs = 0;
  for (let index = 0; index < tokens.length; index += perFrame) {
    const start = performance.now();
    store.getState().applyConversationEvents([{ type: 'text-delta', text: tokens.slice(index, index + perFrame).join('') }]);
    await tick();
    frameMs.push(sink.inkDoneAt - start);
  }
  const cpu = process.cpuUsage(cpuStart);
  if (process.env.STATS) console.log(label, 'rows composed per frame', (inkOutputStats.composed / frameMs.length).toFixed(1));
  inkOutputStats.composed = 0;
  const streamWriter = sink.writerMs;
  // Keystrokes with the answer on screen.
  const keyMs: number[] = [];
  for (const char of 'hello world, this is typing') {
    const start = performance.now();
    keys.feed(char);
    await tick();
    keyMs.push(sink.inkDoneAt - start);
  }
  instance.unmount();
  const frames = frameMs.length;
  return [
    label.padEnd(38),
    String(frames).padStart(6),
    percentile(frameMs, 0.5).toFixed(2).padStart(8),
    percentile(frameMs, 0.95).toFixed(2).padStart(8),
    (streamWriter / frames).toFixed(2).padStart(8),
    ((cpu.user + cpu.system) / 1000).toFixed(0).padStart(8),
    ((terminal.bytes - bytesStart) / 1024).toFixed(0).padStart(8),
    percentile(keyMs, 0.5).toFixed(2).padStart(8),
    percentile(keyMs, 0.95).toFixed(2).padStart(8),
  ].join(' ');
}

await loadHighlighter();
const fast = process.argv.includes('--fast');
if (fast) installFastInkOutput();
console.log(`whole-app frames at ${COLUMNS}x${ROWS}${fast ? ' (fast output)' : ''}; ms are wall time of React + Ink per frame, writer ms the ScreenWriter's share`);
console.log(`${'scenario'.padEnd(38)} ${'frames'.padStart(6)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)} ${'writer'.padStart(8)} ${'CPU ms'.padStart(8)} ${'KiB'.padStart(8)} ${'key p50'.padStart(8)} ${'key p95'.padStart(8)}`);
await scenario('warm-up', 0, 30, fast);
for (const perFrame of [7, 70]) {
  for (const history of [0, 2000]) console.log(await scenario(`${perFrame} tok/frame, ${history} earlier`, history, perFrame, fast));
}
