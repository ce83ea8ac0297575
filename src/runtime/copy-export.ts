// Getting text out (README.md, "Getting text out"): `:copy` puts an answer or one of its code
// blocks on the clipboard with OSC 52 (written by the screen writer, and only on this command),
// or in a file (mode 0600) when the terminal cannot take it; `:export` writes the conversation as
// Markdown, redacted like the session log and with terminal control characters made visible.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Message } from '../services/conversation/types';
import type { Redactor } from '../services/history/index';
import { sanitize } from '../services/terminal/sanitize';
import type { CommandHost } from './commands';

/** Past this many bytes (as base64) terminals drop an OSC 52 request; the text goes to a file. */
export const OSC52_MAX_BASE64 = 100_000;

/** The OSC 52 request that sets the system clipboard to `text`. */
export function osc52(text: string): string {
  return `\x1b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\x07`;
}

/** Fenced code blocks of a Markdown answer, in order, without their fences. */
export function codeBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const fence = /^ {0,3}(`{3,}|~{3,})[^\n]*\n([\s\S]*?)^ {0,3}\1[ \t]*$/gm;
  for (const match of markdown.matchAll(fence)) blocks.push(match[2]!.replace(/\n$/, ''));
  return blocks;
}

export interface CopyRequest {
  /** 1 = the last answer, 2 = the one before… */
  answer: number;
  /** Copy a code block: 0 = the last, else the k-th (1-based). Undefined: the whole answer. */
  code?: number;
}

/** `:copy [n] [code [k]]`; a string when the words do not parse. */
export function parseCopyArguments(words: readonly string[]): CopyRequest | string {
  const usage = 'usage: :copy [n] [code [k]]  (n: 1 = the last answer; k: which code block, default the last)';
  let index = 0;
  const number = (word: string | undefined) => (word !== undefined && /^[1-9]\d{0,5}$/.test(word) ? Number(word) : undefined);
  const request: CopyRequest = { answer: 1 };
  const first = number(words[index]);
  if (first !== undefined) {
    request.answer = first;
    index++;
  }
  if (words[index] === 'code') {
    index++;
    const block = number(words[index]);
    request.code = block ?? 0;
    if (block !== undefined) index++;
  }
  return index === words.length ? request : usage;
}

export function copyCommand(words: readonly string[], host: CommandHost): void {
  const request = parseCopyArguments(words);
  if (typeof request === 'string') return host.status('error', request);
  if (!host.copy) return host.status('error', ':copy is not available here');
  const answers = host.store
    .getState()
    .messages.filter((message): message is Extract<Message, { role: 'assistant' }> => message.role === 'assistant' && message.content.trim().length > 0);
  const answer = answers[answers.length - request.answer];
  if (!answer) return host.status('error', answers.length === 0 ? 'no answer to copy yet' : `there ${answers.length === 1 ? 'is 1 answer' : `are ${answers.length} answers`}; :copy ${request.answer} is too far back`);
  const which = request.answer === 1 ? 'the last answer' : `answer ${request.answer} from the end`;
  if (request.code === undefined) return host.copy(answer.content, which);
  const blocks = codeBlocks(answer.content);
  if (blocks.length === 0) return host.status('error', `${which} has no code block`);
  const block = request.code === 0 ? blocks.at(-1) : blocks[request.code - 1];
  if (block === undefined) return host.status('error', `${which} has ${blocks.length} code block${blocks.length === 1 ? '' : 's'}`);
  host.copy(block, `${request.code === 0 ? 'the last code block' : `code block ${request.code}`} of ${which}`);
}

/** Writes `text` to a new file of mode 0600 in `dir`; returns its path. */
export function writeCopyFile(dir: string, text: string, now = new Date()): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  const file = path.join(dir, `copy-${stamp}.txt`);
  writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
  return file;
}

const clean = (text: string) => sanitize(text);

function fence(text: string, info = ''): string {
  // A fence longer than any backtick run inside, so the content cannot close it.
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks}${info}\n${text}${text.endsWith('\n') ? '' : '\n'}${ticks}`;
}

/** The conversation as Markdown: what you asked, what came back, the tools and commands, redacted and sanitized. */
export function sessionMarkdown(messages: readonly Message[], options: { title: string; redact: Redactor }): string {
  const r = (text: string) => clean(options.redact(text));
  const parts: string[] = [`# ${r(options.title)}`];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        parts.push(`## You\n\n${r(message.content)}`);
        break;
      case 'assistant': {
        const body = [message.content.trim().length > 0 ? r(message.content) : ''];
        for (const call of message.toolCalls ?? []) body.push(`**Tool call** \`${r(call.name)}\`\n\n${fence(r(call.arguments || '{}'), 'json')}`);
        parts.push(`## Answer\n\n${body.filter(Boolean).join('\n\n')}`);
        break;
      }
      case 'tool':
        parts.push(`**Tool result** \`${r(message.name)}\`${message.isError ? ' (error)' : ''}\n\n${fence(r(message.content))}`);
        break;
      case 'exec':
        parts.push(`**Command** \`${r(message.command)}\` (exit ${message.exitCode ?? 'none'})\n\n${fence(r(message.output))}`);
        break;
    }
  }
  return `${parts.join('\n\n')}\n`;
}
