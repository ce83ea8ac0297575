// Compaction: the conversation so far becomes a summary written by the model itself, and the
// next requests carry that summary plus the last turns verbatim. The history (and the session
// file) keeps every message; a `compaction` record says which messages its summary replaces, so
// a resumed session continues from the compacted context.
//
// Turns are cut only at a user message, so a tool call and its result always stay together
// (docs/ARCHITECTURE.md, Conversation rules: every call has exactly one result).
import { randomUUID } from 'node:crypto';
import type { ModelConfig, StreamChat, WireMessage } from '../broker/types';
import type { Message } from '../conversation/types';
import { estimateTokens } from './estimate';

export type CompactionMessage = Extract<Message, { role: 'compaction' }>;

/** How the model reads a summary in the next requests. */
export function summaryForModel(message: CompactionMessage): string {
  return `[aish] The earlier part of this conversation was compacted to save context. Summary of it:\n\n${message.summary}`;
}

/** Stub put in place of an old tool result when context runs short (the full result stays in the history and the log). */
export function toolResultStub(content: string): string {
  return `[aish] older tool result (${content.length} chars) left out to save context; ask for it again if it is needed`;
}

/**
 * What the model is sent: after the last compaction, its summary and the messages from the first
 * one it kept; without one, the whole history. Earlier compaction records are dropped (the last
 * summary covers them).
 */
export function effectiveHistory(history: readonly Message[]): Message[] {
  const last = history.findLastIndex((message) => message.role === 'compaction');
  if (last < 0) return [...history];
  const record = history[last] as CompactionMessage;
  let start = record.keptFrom === undefined ? -1 : history.findIndex((message) => message.id === record.keptFrom);
  if (start < 0 || start > last) start = last + 1;
  return [record, ...history.slice(start).filter((message) => message.role !== 'compaction')];
}

/** Index where the last `turns` turns start: at a user message, with the command output that waits for it. */
export function turnStart(history: readonly Message[], turns: number): number {
  let seen = 0;
  for (let index = history.length - 1; index >= 0; index--) {
    if (history[index]!.role !== 'user') continue;
    seen++;
    if (seen < turns) continue;
    let start = index;
    while (start > 0 && history[start - 1]!.role === 'exec') start--;
    return start;
  }
  return 0;
}

/** The history with tool results before the last `keepTurns` turns replaced by a stub (for the request only). */
export function stubOldToolResults(history: readonly Message[], keepTurns: number): { history: Message[]; stubbed: number } {
  const start = turnStart(history, keepTurns);
  let stubbed = 0;
  const out = history.map((message, index) => {
    if (index >= start || message.role !== 'tool' || message.content.length <= 200 || message.content.startsWith('[aish] older tool result')) return message;
    stubbed++;
    return { ...message, content: toolResultStub(message.content) };
  });
  return { history: out, stubbed };
}

/**
 * The history with the tool results of the last turn cut to `share` of their length (for the
 * request only): what is left to shorten when the latest results alone do not fit the window.
 * The model is told the result was cut; the history and the log keep it whole.
 */
export function cutLatestToolResults(history: readonly Message[], share: number): { history: Message[]; cut: number } {
  const start = turnStart(history, 1);
  let cut = 0;
  const out = history.map((message, index) => {
    if (index < start || message.role !== 'tool' || message.content.length <= 400) return message;
    const keep = Math.max(400, Math.floor(message.content.length * share));
    if (keep >= message.content.length) return message;
    cut++;
    return { ...message, content: `${message.content.slice(0, keep)}\n[aish] cut to fit the model's context window: the first ${keep} of ${message.content.length} characters; the rest is not shown to you` };
  });
  return { history: out, cut };
}

export interface CompactionPlan {
  /** Messages the summary replaces (an earlier summary first, when there is one). */
  old: Message[];
  /** Kept verbatim: the last turns, starting with a user message. */
  kept: Message[];
}

/**
 * Splits the effective history: the last `keepTurns` turns stay (fewer when there are not that
 * many before them), the rest is summarised. Undefined when there is nothing to summarise.
 */
export function planCompaction(effective: readonly Message[], keepTurns: number): CompactionPlan | undefined {
  for (let keep = Math.max(1, keepTurns); keep >= 1; keep--) {
    const start = turnStart(effective, keep);
    const old = effective.slice(0, start);
    if (old.some((message) => message.role !== 'compaction')) return { old, kept: effective.slice(start) };
  }
  return undefined;
}

const RESULT_CHARS = 1500;

function transcriptLine(message: Message, resultChars: number): string {
  const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)} […${text.length - max} more chars]` : text);
  switch (message.role) {
    case 'user':
      return `USER: ${message.content}`;
    case 'assistant': {
      const calls = (message.toolCalls ?? []).map((call) => `ASSISTANT called ${call.name} ${cut(call.arguments || '{}', resultChars)}`);
      return [message.content ? `ASSISTANT: ${message.content}` : '', ...calls].filter(Boolean).join('\n');
    }
    case 'tool':
      return `TOOL RESULT ${message.name}${message.isError ? ' (error)' : ''}: ${cut(message.content, resultChars)}`;
    case 'exec':
      return `COMMAND ${message.command} (exit ${message.exitCode ?? 'none'}): ${cut(message.output, resultChars)}`;
    case 'compaction':
      return `SUMMARY OF EARLIER CONVERSATION:\n${message.summary}`;
  }
}

/**
 * The old messages as one text for the summarising request, at most `budgetTokens` long: long tool
 * results are cut first, then the oldest lines go (an earlier summary is kept as long as possible).
 */
export function transcriptFor(old: readonly Message[], budgetTokens: number): string {
  for (let chars = RESULT_CHARS; chars >= 100; chars = Math.floor(chars / 2)) {
    const text = old.map((message) => transcriptLine(message, chars)).filter(Boolean).join('\n\n');
    if (estimateTokens(text) <= budgetTokens) return text;
  }
  const lines = old.map((message) => transcriptLine(message, 100)).filter(Boolean);
  const kept: string[] = [];
  let total = estimateTokens('[earlier part left out]');
  for (let index = lines.length - 1; index >= 0; index--) {
    const tokens = estimateTokens(lines[index]!) + 2;
    if (total + tokens > budgetTokens) break;
    kept.unshift(lines[index]!);
    total += tokens;
  }
  return ['[earlier part left out]', ...kept].join('\n\n');
}

export const COMPACTION_PROMPT = [
  'You condense a conversation between a user and an assistant that can call tools, so the assistant can carry on in a much smaller context as if it had read everything.',
  'Write a summary that keeps, precisely:',
  "- the user's goals, requests and preferences, and how they changed;",
  '- decisions made and the reasons for them;',
  '- facts learned from tool results and commands: exact values, names, file paths, identifiers, numbers, URLs, and error messages that still matter;',
  '- files, functions, commands, servers and other names that came up;',
  '- what was tried and did not work;',
  '- open questions and the next steps that were about to happen.',
  'Leave out greetings, repetition and anything later turns made obsolete. Use short sections with bullet points, in the language of the conversation.',
  'Only summarise: do not answer the user, do not call tools, do not add anything that was not said.',
].join('\n');

export function compactionRequest(old: readonly Message[], options: { window?: number; focus?: string; reserve: number }): WireMessage[] {
  const summaryWords = options.window ? Math.max(150, Math.round(options.window * 0.1)) : 600;
  const room = options.window ? options.window - options.reserve - estimateTokens(COMPACTION_PROMPT) - 200 : 24_000;
  const transcript = transcriptFor(old, Math.max(500, room));
  const focus = options.focus ? `\n\nThe user asks the summary to keep especially: ${options.focus}` : '';
  return [
    { role: 'system', content: COMPACTION_PROMPT },
    { role: 'user', content: `The conversation so far:\n\n${transcript}${focus}\n\nWrite the summary now, in at most about ${summaryWords} words.` },
  ];
}

export interface SummariseInput {
  streamChat: StreamChat;
  model: ModelConfig;
  old: readonly Message[];
  focus?: string;
  window?: number;
  reserve: number;
  signal: AbortSignal;
  timeouts?: { firstByteMs: number; idleMs: number };
  maxRetries?: number;
  env?: NodeJS.ProcessEnv;
}

/** Asks the model for the summary. Resolves with its text or with the reason it could not be written. */
export async function summarise(input: SummariseInput): Promise<{ summary: string } | { error: string }> {
  const messages = compactionRequest(input.old, { ...(input.window !== undefined ? { window: input.window } : {}), ...(input.focus ? { focus: input.focus } : {}), reserve: input.reserve });
  let text = '';
  let error: string | undefined;
  for await (const event of input.streamChat({
    model: input.model,
    messages,
    signal: input.signal,
    ...(input.timeouts ? { timeouts: input.timeouts } : {}),
    ...(input.maxRetries !== undefined ? { maxRetries: input.maxRetries } : {}),
    ...(input.env ? { env: input.env } : {}),
  })) {
    if (event.type === 'text-delta') text += event.text;
    else if (event.type === 'error') error = event.message;
    else if (event.type === 'finish' && event.reason === 'cancelled') error = 'cancelled';
  }
  if (input.signal.aborted) return { error: 'cancelled' };
  if (error !== undefined) return { error };
  const summary = text.trim();
  if (summary.length === 0) return { error: 'the model wrote an empty summary' };
  return { summary };
}

export function compactionMessage(plan: CompactionPlan, summary: string, details: { trigger: CompactionMessage['trigger']; focus?: string; tokensBefore?: number; tokensAfter?: number }): CompactionMessage {
  const first = plan.kept.find((message) => message.role !== 'compaction');
  return {
    id: randomUUID(),
    role: 'compaction',
    summary,
    ...(first ? { keptFrom: first.id } : {}),
    replaced: plan.old.filter((message) => message.role !== 'compaction').length,
    trigger: details.trigger,
    ...(details.focus ? { focus: details.focus } : {}),
    ...(details.tokensBefore !== undefined ? { tokensBefore: details.tokensBefore } : {}),
    ...(details.tokensAfter !== undefined ? { tokensAfter: details.tokensAfter } : {}),
    at: new Date().toISOString(),
  };
}
