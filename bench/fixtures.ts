/**
 * What the benchmarks feed the app: the markdown answer, the earlier messages of a long session,
 * and a scratch home with a config pointing at the scripted broker.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { chunk, sse, usageChunk, type SseItem, type StreamResponse } from '../test/helpers/scripted-broker';
import { makeScratchHome, testEnv, writeHomeConfig } from '../test/helpers/terminal';
import { createSessionLog } from '../src/services/history/index';
import type { Message } from '../src/services/conversation/types';

export const ANSWER_TOKENS = 2000;
/** The answer's first token and a string that is on screen only once its last token is. */
export const FIRST_TOKEN = 'Benc';
/**
 * Text of the answer as the terminal receives it. At full speed the first token may have
 * scrolled out of view before the first frame of the answer is drawn, so "the first token on
 * screen" is the first output showing any part of the answer.
 */
export const ANSWER_TEXT = /Benc|Section \d|point about|step\d|Fill|tick|omega/;
export const LAST_WORDS = 'omega-77.';

/** Splits text into ~4-character tokens (a model's tokens average about that in English prose). */
export function tokenize(text: string): string[] {
  return text.match(/\s*\S{1,4}|\s+/g) ?? [];
}

function section(index: number): string {
  return [
    `## Section ${index}: what to know\n\n`,
    `This paragraph explains **part ${index}** with some *emphasis*, a \`code span\` and a [link](https://example.com/${index}). It goes on for a while so that it wraps over several rows of the terminal.\n\n`,
    `- first point about ${index}\n- second point, a little longer than the first one\n  1. nested detail\n  2. another detail\n\n`,
    '```ts\n' + `export function step${index}(input: number): number {\n  // double it and add the section\n  return input * 2 + ${index};\n}\n` + '```\n\n',
  ].join('');
}

/**
 * Exactly ANSWER_TOKENS tokens of markdown (headings, paragraphs, nested lists, code blocks),
 * starting with FIRST_TOKEN and ending with LAST_WORDS.
 */
export function answerTokens(count = ANSWER_TOKENS): string[] {
  const head = tokenize('Benchmark answer: what follows is long.\n\n');
  const tail = tokenize(`\nLast line: ${LAST_WORDS}`);
  const body: string[] = [];
  for (let index = 1; ; index++) {
    const next = tokenize(section(index));
    if (head.length + body.length + next.length + tail.length + 1 > count) break;
    body.push(...next);
  }
  // Fill up with one-token words so the count is exact.
  const filler: string[] = ['Fill'];
  while (head.length + body.length + filler.length + tail.length < count) filler.push(' tick');
  const tokens = [...head, ...body, ...filler, ...tail];
  if (tokens.length !== count || tokens[0] !== FIRST_TOKEN) throw new Error(`answer has ${tokens.length} tokens starting with ${tokens[0]}`);
  return tokens;
}

/** The answer as the broker streams it: one token per chunk, then finish and usage. */
export function answerReply(tokens: string[], tokensPerSecond?: number): StreamResponse {
  const items: SseItem[] = [chunk({ role: 'assistant', content: '' })];
  for (const token of tokens) items.push(chunk({ content: token }));
  items.push(chunk({}, { finishReason: 'stop' }));
  items.push(usageChunk({ prompt_tokens: 100, completion_tokens: tokens.length, total_tokens: 100 + tokens.length }));
  return sse(items, tokensPerSecond ? { tokensPerSecond } : {});
}

export interface ScratchHome {
  home: string;
  env: Record<string, string>;
  stateDir: string;
  dispose(): void;
}

/** A home of its own with XDG dirs inside, a config file, and a clean environment (no CI markers, no keys). */
export function scratchHome(config: unknown): ScratchHome {
  // The same clean home and environment the end-to-end tests give the app.
  const home = makeScratchHome('aish-bench-');
  writeHomeConfig(home, config);
  return { home, env: testEnv(home), stateDir: path.join(home, '.local', 'state', 'aish'), dispose: () => rmSync(home, { recursive: true, force: true }) };
}

/** A config that talks to the scripted broker; `extra` is merged on top. */
export function brokerConfig(brokerUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { models: { bench: { baseUrl: brokerUrl, model: 'scripted' } }, defaultModel: 'bench', ...extra };
}

function earlierMessage(index: number, at: string): Message {
  if (index % 2 === 0) return { id: `bench-u${index}`, role: 'user', content: `Question ${index / 2}: how does part ${index} of the system work, and what should I check first?`, at };
  return {
    id: `bench-a${index}`,
    role: 'assistant',
    content: `### Answer ${index}\n\nPart ${index} reads its **input**, checks it and hands it on:\n\n- validate the \`input\`\n- keep what was seen\n\n\`\`\`sh\nrun --part ${index}\n\`\`\`\n\nThat is all for part ${index}.`,
    finishReason: 'stop',
    at,
  };
}

/**
 * Writes a saved session of `count` earlier messages with the app's own session log; returns its
 * id. With `compactedBefore`, all but the last that many messages were compacted (a `compaction`
 * record after them, as the app appends one): the model gets the summary and those messages, the
 * transcript shows them all. A long session lives like that: uncompacted it would not fit a window.
 */
export function writeSession(stateDir: string, count: number, options: { compactedBefore?: number } = {}): string {
  const id = '20250101-000000-bench0';
  const log = createSessionLog({ dir: path.join(stateDir, 'sessions'), id, redact: (text) => text, model: 'bench' });
  const at = new Date('2025-01-01T00:00:00Z').toISOString();
  for (let index = 0; index < count; index++) log.append(earlierMessage(index, at));
  const kept = options.compactedBefore;
  if (kept !== undefined && kept < count) {
    const first = count - kept;
    log.append({
      id: 'bench-compaction',
      role: 'compaction',
      summary: `The user asked how parts 0 to ${first - 1} of the system work; each answer said the part reads its input, checks it and hands it on.`,
      keptFrom: earlierMessage(first, at).id,
      replaced: first,
      trigger: 'auto',
      at,
    });
  }
  log.close();
  return id;
}
