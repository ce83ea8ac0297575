// Turns the conversation history into the messages sent to the model (docs/ARCHITECTURE.md, Conversation rules).
//
// - Standard path: assistant turns keep their `tool_calls`, each result is a `role: "tool"`
//   message with the matching `tool_call_id`.
// - `useToolRole: false` (strict chat templates; docs/ARCHITECTURE.md, Conversation rules): tool results become
//   `[tool: alias__name]\n<content>` blocks in front of the next user turn; inside a tool
//   sub-loop, where no user turn follows yet, they form a user turn of their own.
// - Output of confirmed commands (`exec` records) waits for the next genuine user turn, however
//   many tool rounds come first (docs/ARCHITECTURE.md, Conversation rules).
// - Consecutive user turns (an answer that failed or was cancelled before any text) are merged so
//   roles still alternate.
// - After a compaction record only its summary and the messages it kept are sent
//   (services/context/compact.ts `effectiveHistory`).
// - The result is checked before it is sent: a malformed history is refused, never sent.
import type { WireMessage } from '../broker/types';
import { effectiveHistory, summaryForModel } from '../context/compact';
import type { Attachment, Message } from './types';

export interface ContextOptions {
  systemPrompt: string;
  useToolRole: boolean;
  /** Tool results longer than this reach the model cut, with a `[truncated N chars]` marker. */
  maxToolResultChars: number;
}

export class ContextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContextError';
  }
}

type AssistantWire = Extract<WireMessage, { role: 'assistant' }>;

/** Caps a tool result for the model; the full text stays in the history and the session log. */
export function capToolResult(content: string, max: number): string {
  if (content.length <= max) return content;
  return `${content.slice(0, max)}\n[truncated ${content.length - max} chars]`;
}

/** How a command's output reads to the model. */
export function formatExec(message: Extract<Message, { role: 'exec' }>): string {
  const status = message.exitCode === null ? 'no exit code' : `exit code ${message.exitCode}`;
  const output = message.output.endsWith('\n') || message.output.length === 0 ? message.output : `${message.output}\n`;
  return `[exec: ${message.command}]\n${output}[${status}]`;
}

function formatToolBlock(name: string, content: string): string {
  return `[tool: ${name}]\n${content}`;
}

/** In the fallback path the model still sees what it asked for, as text. */
function describeCallsAsText(calls: NonNullable<Extract<Message, { role: 'assistant' }>['toolCalls']>): string {
  return calls.map((call) => `[tool call: ${call.name} ${call.arguments || '{}'}]`).join('\n');
}

/**
 * Arguments as they go back to the model. Only a JSON object is sent as it was; anything else (an
 * answer cut off by `length` leaves `{"format":"date`) becomes `{}`: llama-server and others
 * refuse the whole request over one unparseable call, and would do so for the rest of the session.
 * Returns undefined when the raw text can be sent.
 */
export function replacedArguments(raw: string): string | undefined {
  if (raw.trim().length === 0) return '{}';
  try {
    const value: unknown = JSON.parse(raw);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return undefined;
  } catch {
    // Not JSON: replaced below.
  }
  return '{}';
}

const SHOWN_RAW_CHARS = 200;

/** Put in front of the tool turn of a call whose arguments were replaced, so the model knows what happened. */
export function replacedArgumentsNote(raw: string): string {
  const shown = raw.length > SHOWN_RAW_CHARS ? `${raw.slice(0, SHOWN_RAW_CHARS)}…` : raw;
  return `[aish] the arguments of this call were not a valid JSON object, so they are sent back as {}; as received: ${shown}`;
}

function joinBlocks(...parts: string[]): string {
  return parts.filter((part) => part.length > 0).join('\n\n');
}

export function toWireMessages(history: readonly Message[], options: ContextOptions): WireMessage[] {
  const wire: WireMessage[] = [];
  if (options.systemPrompt.trim().length > 0) wire.push({ role: 'system', content: options.systemPrompt });
  let pendingExec: string[] = [];
  let pendingTools: string[] = [];
  /** Calls whose arguments went out as `{}`, with what the model had sent (see replacedArguments). */
  const replaced = new Map<string, string>();

  /** Images of the user turns, turned into content parts once the turns' text is complete. */
  const images = new Map<WireMessage, string[]>();
  const pushUser = (content: string, imageUrls: readonly string[] = []) => {
    const last = wire[wire.length - 1];
    let turn: WireMessage;
    if (last && last.role === 'user' && typeof last.content === 'string') {
      last.content = joinBlocks(last.content, content);
      turn = last;
    } else {
      turn = { role: 'user', content };
      wire.push(turn);
    }
    if (imageUrls.length > 0) images.set(turn, [...(images.get(turn) ?? []), ...imageUrls]);
  };
  const flushTools = () => {
    if (pendingTools.length === 0) return;
    pushUser(joinBlocks(...pendingTools));
    pendingTools = [];
  };

  for (const message of history) {
    switch (message.role) {
      case 'exec':
        pendingExec.push(formatExec(message));
        break;
      case 'user':
        pushUser(joinBlocks(...pendingTools, ...pendingExec, message.content, ...textAttachments(message.attachments)), imageUrls(message.attachments));
        pendingTools = [];
        pendingExec = [];
        break;
      case 'assistant': {
        flushTools();
        const calls = message.toolCalls ?? [];
        if (calls.length > 0 && options.useToolRole) {
          wire.push({
            role: 'assistant',
            content: message.content.length > 0 ? message.content : null,
            tool_calls: calls.map((call) => {
              const substitute = replacedArguments(call.arguments);
              if (substitute !== undefined && call.arguments.trim().length > 0) replaced.set(call.id, call.arguments);
              return { id: call.id, type: 'function', function: { name: call.name, arguments: substitute ?? call.arguments } };
            }),
          });
        } else {
          const content = calls.length > 0 ? joinBlocks(message.content, describeCallsAsText(calls)) : message.content;
          const last = wire[wire.length - 1];
          // Two assistant turns in a row cannot happen in a well-formed history; merge rather than lose text.
          if (last && last.role === 'assistant' && !last.tool_calls) last.content = joinBlocks(last.content ?? '', content);
          else wire.push({ role: 'assistant', content });
        }
        break;
      }
      case 'compaction':
        // Only the first message of an effective history (services/context/compact.ts): the summary
        // opens the conversation, merged with the first kept user turn.
        pushUser(summaryForModel(message));
        break;
      case 'tool': {
        const content = capToolResult(message.content, options.maxToolResultChars);
        const raw = replaced.get(message.toolCallId);
        if (options.useToolRole) wire.push({ role: 'tool', tool_call_id: message.toolCallId, content: raw === undefined ? content : `${replacedArgumentsNote(raw)}\n${content}` });
        else pendingTools.push(formatToolBlock(message.name, content));
        break;
      }
    }
  }
  // Results of the last tool round: the model needs them now, not with the next user turn.
  flushTools();
  for (const [turn, urls] of images) {
    turn.content = [{ type: 'text', text: turn.content as string }, ...urls.map((url) => ({ type: 'image_url' as const, image_url: { url } }))];
  }
  return wire;
}

/** A text attachment as the model reads it: its path, then its text in a fence it cannot close. */
export function formatTextAttachment(attachment: Pick<Attachment, 'path' | 'data' | 'origin'>): string {
  const longest = Math.max(2, ...[...attachment.data.matchAll(/`+/g)].map((match) => match[0].length));
  const fence = '`'.repeat(longest + 1);
  return `[${attachment.origin === 'resource' ? 'resource' : 'file'}: ${attachment.path}]\n${fence}\n${attachment.data}${attachment.data.endsWith('\n') ? '' : '\n'}${fence}`;
}

function textAttachments(attachments: readonly Attachment[] | undefined): string[] {
  return (attachments ?? []).filter((attachment) => attachment.kind === 'text').map(formatTextAttachment);
}

function imageUrls(attachments: readonly Attachment[] | undefined): string[] {
  return (attachments ?? []).filter((attachment) => attachment.kind === 'image').map((attachment) => attachment.data);
}

/**
 * Returns the first structural problem of a wire history, or undefined when it may be sent:
 * a user turn first, no tool result without its call, no call without exactly one result before
 * the conversation moves on, and the history ending where the model is to speak.
 */
export function findAlternationProblem(wire: readonly WireMessage[]): string | undefined {
  let open: Set<string> | undefined;
  let previous: WireMessage['role'] | undefined;
  let seenNonSystem = false;
  for (const [index, message] of wire.entries()) {
    const where = `message ${index + 1} (${message.role})`;
    if (message.role === 'system') {
      if (seenNonSystem) return `${where}: a system message after the conversation started`;
      continue;
    }
    if (!seenNonSystem && message.role !== 'user') return `${where}: the conversation must start with a user turn`;
    seenNonSystem = true;
    if (message.role === 'tool') {
      if (!open || !open.has(message.tool_call_id)) return `${where}: result for ${JSON.stringify(message.tool_call_id)} without a matching tool call`;
      open.delete(message.tool_call_id);
    } else {
      if (open && open.size > 0) return `${where}: tool call ${[...open].map((id) => JSON.stringify(id)).join(', ')} has no result`;
      open = undefined;
      if (message.role === previous) return `${where}: two ${message.role} turns in a row`;
      if (message.role === 'assistant') {
        const calls = (message as AssistantWire).tool_calls ?? [];
        if (calls.length > 0) {
          open = new Set();
          for (const call of calls) {
            if (open.has(call.id)) return `${where}: tool call id ${JSON.stringify(call.id)} used twice`;
            open.add(call.id);
          }
        }
      }
    }
    previous = message.role;
  }
  if (open && open.size > 0) return `the last tool call ${[...open].map((id) => JSON.stringify(id)).join(', ')} has no result`;
  if (previous !== 'user' && previous !== 'tool') return 'the history must end with a user turn or tool results';
  return undefined;
}

/** The messages for the next request, or a ContextError saying why the history cannot be sent. */
export function buildRequestMessages(history: readonly Message[], options: ContextOptions): WireMessage[] {
  // After a compaction the model gets its summary and what was kept, never the messages it replaced.
  const wire = toWireMessages(effectiveHistory(history), options);
  const problem = findAlternationProblem(wire);
  if (problem) throw new ContextError(`refusing to send a malformed history: ${problem}`);
  return wire;
}
