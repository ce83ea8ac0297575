/**
 * Micro-benchmark of the chat view: the cost of one streamed frame with no earlier messages and
 * with 2,000 of them. Measures and prints; asserts nothing.
 *
 *   node --import tsx bench/chat-view.ts
 *
 * Two measurements per scenario: the transcript window alone (layout of the streaming message and
 * the rows of the viewport) and the whole frame through Ink in debug mode, as the app renders it.
 * Also an answer that is one long code block of 100 and of 400 lines: with the streaming layout
 * keeping finished lines, the cost per frame stays the same as the block grows.
 */
import { EventEmitter } from 'node:events';
import type { ChatItem } from '../src/state/types';

// As in the bundled app: React's production build. Ink decides at import time whether it runs in
// CI and would then hold every frame back.
process.env.NODE_ENV = 'production';
process.env.CI = 'false';
const { createElement } = await import('react');
const { render } = await import('ink');
const { ChatView } = await import('../src/ui/panels/ChatView');
const { loadHighlighter } = await import('../src/transcript/highlight');
const { TranscriptCache, transcriptWindow } = await import('../src/transcript/transcript');
const { createTheme } = await import('../src/terminal/theme');
const { ScreenWriter } = await import('../src/terminal/screen');

const WIDTH = 100;
const HEIGHT = 40;
const theme = createTheme({});

/** About 2,000 tokens of markdown: headings, paragraphs, lists, code and a table. */
function markdownAnswer(): string {
  const parts: string[] = [];
  for (let section = 1; parts.join('').length < 8_000; section++) {
    parts.push(`## Section ${section}: what to know\n\n`);
    parts.push(`This paragraph explains **part ${section}** with some *emphasis*, a \`code span\` and a [link](https://example.com/${section}). It goes on for a while so that it wraps over several rows of the terminal.\n\n`);
    parts.push(`- first point about ${section}\n- second point, a little longer than the first one\n  1. nested detail\n  2. another detail\n\n`);
    parts.push('```ts\n' + `export function step${section}(input: number): number {\n  // double it and add the section\n  return input * 2 + ${section};\n}\n` + '```\n\n');
    if (section % 3 === 0) parts.push(`| key | value |\n|-----|------:|\n| a${section} | ${section * 7} |\n| b${section} | ${section * 11} |\n\n`);
  }
  return parts.join('');
}

/**
 * An answer that is mostly one long code block (a whole file): what the streaming layout must not
 * highlight again from the top on every frame. `variant` changes the names so that no run finds the
 * blocks of another in the highlight cache.
 */
function codeFileAnswer(lines: number, variant: number): string {
  const body = Array.from({ length: lines }, (_, index) => `  const value${index}v${variant} = compute(${index}, "label ${index}"); // step ${index}`);
  return `Here is the whole file:\n\n\`\`\`ts\nexport function build${variant}() {\n${body.join('\n')}\n}\n\`\`\`\n\nThat is all.`;
}

/** Splits text into ~4-character tokens (a model's tokens average about that in English prose). */
function tokens(text: string): string[] {
  return text.match(/\s*\S{1,4}|\s+/g) ?? [];
}

function history(count: number): ChatItem[] {
  const items: ChatItem[] = [];
  for (let index = 0; index < count; index++) {
    items.push(
      index % 2 === 0
        ? { kind: 'user', id: `u${index}`, version: 0, text: `Question number ${index}: how does this part work?` }
        : { kind: 'assistant', id: `a${index}`, version: 0, text: `An answer with **bold**, a list:\n\n- one\n- two\n\nand \`code\` (${index}).`, reasoning: '', streaming: false },
    );
  }
  return items;
}

/** Ink's stdout: every frame goes through the app's line-diffing writer, which counts the bytes. */
class FrameStdout extends EventEmitter {
  columns = WIDTH;
  rows = HEIGHT;
  isTTY = true;
  readonly writer = new ScreenWriter({ columns: WIDTH, rows: HEIGHT, write: () => true });
  write(data: string): boolean {
    this.writer.render(data);
    return true;
  }
}

interface Result {
  scenario: string;
  frames: number;
  median: number;
  p95: number;
  cpuMs: number;
  layouts: number;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;
}

function cpuMs(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

const options = { theme, reasoningCollapsed: false, expandedIds: new Set<string>() };

/** Streams the answer `perFrame` tokens at a time, laying out only the window per frame. */
function windowOnly(earlier: ChatItem[], answer: string[], perFrame: number, label: string): Result {
  const cache = new TranscriptCache();
  transcriptWindow(earlier, WIDTH, HEIGHT, 0, options, undefined, cache);
  const times: number[] = [];
  const start = process.cpuUsage();
  const layoutsBefore = cache.stats.layouts;
  let text = '';
  let version = 0;
  for (let index = 0; index < answer.length; index += perFrame) {
    text += answer.slice(index, index + perFrame).join('');
    const item: ChatItem = { kind: 'assistant', id: 'streaming', version: ++version, text, reasoning: '', streaming: true };
    const t0 = performance.now();
    transcriptWindow([...earlier, item], WIDTH, HEIGHT, 0, options, undefined, cache);
    times.push(performance.now() - t0);
  }
  return { scenario: label, frames: times.length, median: percentile(times, 0.5), p95: percentile(times, 0.95), cpuMs: cpuMs(start), layouts: cache.stats.layouts - layoutsBefore };
}

/** The same through Ink in debug mode (every update is one whole frame), as the app renders. */
function throughInk(earlier: ChatItem[], answer: string[], perFrame: number, label: string): Result & { kib: number } {
  const cache = new TranscriptCache();
  const stdout = new FrameStdout();
  const props = { items: earlier, width: WIDTH, height: HEIGHT, scrollOffset: 0, theme, focused: false, reasoningCollapsed: false, expandedIds: new Set<string>(), now: 0, cache };
  const instance = render(createElement(ChatView, props), { stdout: stdout as unknown as NodeJS.WriteStream, debug: true, exitOnCtrlC: false, patchConsole: false });
  const times: number[] = [];
  const layoutsBefore = cache.stats.layouts;
  const bytesBefore = stdout.writer.bytesWritten;
  const start = process.cpuUsage();
  let text = '';
  let version = 0;
  for (let index = 0; index < answer.length; index += perFrame) {
    text += answer.slice(index, index + perFrame).join('');
    const item: ChatItem = { kind: 'assistant', id: 'streaming', version: ++version, text, reasoning: '', streaming: true };
    const t0 = performance.now();
    instance.rerender(createElement(ChatView, { ...props, items: [...earlier, item] }));
    times.push(performance.now() - t0);
  }
  const result = { scenario: label, frames: times.length, median: percentile(times, 0.5), p95: percentile(times, 0.95), cpuMs: cpuMs(start), layouts: cache.stats.layouts - layoutsBefore, kib: (stdout.writer.bytesWritten - bytesBefore) / 1024 };
  instance.unmount();
  return result;
}

await loadHighlighter();
const answer = tokens(markdownAnswer());
const scenarios: Array<[string, ChatItem[]]> = [
  ['empty', []],
  ['2,000 earlier', history(2000)],
];

console.log(`answer: ${answer.length} tokens, ${answer.join('').length} characters; view ${WIDTH}x${HEIGHT}\n`);
const rows: string[] = [];
const format = (r: Result, extra = '') => `${r.scenario.padEnd(34)} ${String(r.frames).padStart(6)} ${r.median.toFixed(3).padStart(9)} ${r.p95.toFixed(3).padStart(9)} ${r.cpuMs.toFixed(0).padStart(8)} ${String(r.layouts).padStart(8)}${extra}`;
// Warm up the JIT once so the first scenario is not penalized.
windowOnly([], answer.slice(0, 400), 1, 'warm-up');
throughInk([], answer.slice(0, 200), 1, 'warm-up');
// 1 token per frame is the worst case for the layout; the app batches deltas per frame at ~30 fps,
// so 200 tokens/s is ~7 tokens per frame and a fast local model 30 or more.
for (const perFrame of [1, 7, 30]) {
  for (const [name, earlier] of scenarios) {
    rows.push(format(windowOnly(earlier, answer, perFrame, `window, ${perFrame} tok/frame, ${name}`)));
  }
}
// One long code block: the cost per frame must not grow with the lines already streamed.
for (const [lines, variant] of [
  [100, 1],
  [400, 2],
] as const) {
  const file = tokens(codeFileAnswer(lines, variant));
  rows.push(format(windowOnly([], file, 7, `window, 7 tok/frame, ${lines}-line code`)));
}
for (const perFrame of [7, 30]) {
  for (const [name, earlier] of scenarios) {
    const result = throughInk(earlier, answer, perFrame, `ink, ${perFrame} tok/frame, ${name}`);
    rows.push(format(result, `  ${result.kib.toFixed(0).padStart(7)} KiB`));
  }
}
console.log(`${'scenario'.padEnd(34)} ${'frames'.padStart(6)} ${'median ms'.padStart(9)} ${'p95 ms'.padStart(9)} ${'CPU ms'.padStart(8)} ${'layouts'.padStart(8)}  (terminal bytes after the app's line diff)`);
for (const row of rows) console.log(row);
