/**
 * The scripted broker's standalone conversation, for trying the app by hand, and `--script` files.
 *
 * What the demo answers (by the last user message, case-insensitive):
 * - a tool result turn: reports the result back in a sentence;
 * - "calculate 2+3*4" / "compute …": a `builtin__calculator` tool call (if the request offers it);
 * - "think" / "reason": reasoning first, then the answer;
 * - "error": HTTP 400 in OpenRouter's envelope with the provider's message in `error.metadata.raw`;
 * - "midstream": some text, then an `event: error` frame (as llama.cpp sends);
 * - "slow": 4 tokens/s; "drop": the connection is cut mid-answer; "stall": goes silent mid-answer;
 * - "cmd" / "shell": an answer proposing `CMD: ls -la`;
 * - anything else: a markdown answer (heading, list, code block) quoting the message.
 */
import { readFile } from 'node:fs/promises';
import type { ReceivedRequest } from '../scripted-broker';
import {
  chunk,
  dropAfter,
  errorReply,
  type ScriptedResponse,
  sse,
  stallAfter,
  textReply,
  toolCallReply,
  type ScriptedToolCall,
} from './replies';

const DEMO_SPEED = 40;

function lastUser(request: ReceivedRequest): string {
  const messages = request.body?.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'user') return typeof message.content === 'string' ? message.content : JSON.stringify(message.content);
  }
  return '';
}

function offersTool(request: ReceivedRequest, name: string): boolean {
  return (request.body?.tools ?? []).some((tool) => (tool as { function?: { name?: string } }).function?.name === name);
}

const USAGE = { prompt_tokens: 42, completion_tokens: 64 };

export function demoConversation(request: ReceivedRequest): ScriptedResponse {
  const messages = request.body?.messages ?? [];
  const last = messages.at(-1);
  if (last?.role === 'tool') {
    const result = typeof last.content === 'string' ? last.content : JSON.stringify(last.content);
    return textReply(`The tool answered: **${result.slice(0, 200)}**.`, { tokensPerSecond: DEMO_SPEED, usage: USAGE });
  }
  const text = lastUser(request);
  const lower = text.toLowerCase();
  const expression = /(?:calc\w*|compute)\s+(.+)/i.exec(text)?.[1]?.trim();
  if (expression) {
    if (!offersTool(request, 'builtin__calculator')) {
      return textReply('I would use `builtin__calculator`, but this request offered no such tool.', { tokensPerSecond: DEMO_SPEED });
    }
    return toolCallReply([{ name: 'builtin__calculator', arguments: { expression } }], {
      textBefore: 'Let me calculate that.',
      tokensPerSecond: DEMO_SPEED,
    });
  }
  if (/\b(think|reason)/.test(lower)) {
    return textReply('After thinking it over: **yes**, that works.\n\n1. It is consistent.\n2. It is simple.', {
      reasoning: 'The user asks me to think. Let me consider the question step by step, then answer briefly.',
      tokensPerSecond: DEMO_SPEED,
      usage: USAGE,
    });
  }
  if (/\bmidstream\b/.test(lower)) {
    return sse(
      [
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'This answer starts, ' }),
        chunk({ content: 'and then the server fails ' }),
        { sse: 'data', event: 'error', data: { error: { code: 500, message: 'the model crashed while generating', type: 'server_error' } } },
      ],
      { tokensPerSecond: 4 },
    );
  }
  if (/\berror\b/.test(lower)) {
    return errorReply(400, {
      error: {
        code: 400,
        message: 'Provider returned error',
        metadata: {
          provider_name: 'Amazon Bedrock',
          raw: "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'",
        },
      },
    });
  }
  const slowOrBroken = { tokensPerSecond: /\bslow\b/.test(lower) ? 4 : 8 };
  const long = 'This answer is long enough to be cut in the middle. It keeps going for a while so you can watch it stream and then see what happens when the server misbehaves.';
  if (/\bdrop\b/.test(lower)) return dropAfter(textReply(long, slowOrBroken), 12);
  if (/\bstall\b/.test(lower)) return stallAfter(textReply(long, slowOrBroken), 12);
  if (/\bslow\b/.test(lower)) return textReply(long, slowOrBroken);
  if (/\b(cmd|shell)\b/.test(lower)) {
    return textReply('You can list the directory with this command:\n\nCMD: ls -la\n', { tokensPerSecond: DEMO_SPEED });
  }
  const quoted = text.replace(/\s+/g, ' ').slice(0, 120);
  const answer = [
    '## Scripted answer',
    '',
    `You said: *${quoted}*`,
    '',
    '- a list item with `inline code`',
    '- a second item with **bold** text',
    '',
    '```ts',
    'const greeting: string = "hello";',
    'console.log(greeting);',
    '```',
    '',
    'Ask me to *calculate 2+3*, to *think*, or for an *error*, *midstream*, *slow*, *drop* or *stall*.',
  ].join('\n');
  return textReply(answer, { tokensPerSecond: DEMO_SPEED, usage: USAGE });
}

type ScriptEntry =
  | ScriptedResponse
  | { text: string; reasoning?: string; tokensPerSecond?: number; usage?: Record<string, unknown> }
  | { toolCalls: ScriptedToolCall[]; textBefore?: string; tokensPerSecond?: number }
  | { status: number; body: string | Record<string, unknown>; retryAfter?: number | string };

function fromEntry(entry: ScriptEntry, where: string): ScriptedResponse {
  if ('kind' in entry) return entry;
  if ('text' in entry) return textReply(entry.text, entry);
  if ('toolCalls' in entry) return toolCallReply(entry.toolCalls, entry);
  if ('status' in entry) return errorReply(entry.status, entry.body, { retryAfter: entry.retryAfter });
  throw new Error(`${where}: expected "kind", "text", "toolCalls" or "status"`);
}

/** Reads a JSON array of responses or shorthands (`{text}`, `{toolCalls}`, `{status, body}`). */
export async function loadScriptFile(file: string): Promise<ScriptedResponse[]> {
  const raw = JSON.parse(await readFile(file, 'utf8')) as unknown;
  if (!Array.isArray(raw)) throw new Error(`${file}: expected a JSON array of responses`);
  return raw.map((entry, index) => fromEntry(entry as ScriptEntry, `${file}[${index}]`));
}
