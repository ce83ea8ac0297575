// Reading sessions back: `--continue`, `--resume <id>`, `:sessions`. A resumed history is shown
// and sent as context; nothing in it is ever run again. A crash can leave the last line half
// written and a tool call without its result: the first is skipped with a warning, the second
// gets a synthesized result so the history stays valid for the model.
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Message } from '../conversation/types';
import { SESSION_ID_PATTERN, sessionFile, type SessionHeader } from './log';

export interface LoadedSession {
  id: string;
  file: string;
  header?: SessionHeader;
  messages: Message[];
  /** One line each: skipped lines, repaired calls. */
  warnings: string[];
}

export interface SessionSummary {
  id: string;
  file: string;
  modifiedAt: Date;
  bytes: number;
  /** The first user message, shortened (raw: sanitize before display). */
  preview: string;
  /** The model named in the session's header (raw: sanitize before display). */
  model?: string;
}

export const INTERRUPTED_TOOL_RESULT = '[aish] tool call interrupted: the session ended before it finished';

const isString = (value: unknown): value is string => typeof value === 'string';

/** Accepts a record only when it has the fields its role needs. */
function asMessage(value: unknown): Message | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const message = value as Record<string, unknown>;
  if (!isString(message.id) || !isString(message.at)) return undefined;
  switch (message.role) {
    case 'user': {
      if (!isString(message.content)) return undefined;
      // Attachments from a file are believed only in the shape this app writes; others are dropped.
      const { attachments, ...rest } = message;
      const valid = Array.isArray(attachments) && attachments.every((entry) => entry && isString(entry.path) && isString(entry.data) && typeof entry.bytes === 'number' && (entry.kind === 'text' || (entry.kind === 'image' && /^data:image\/(png|jpeg|gif|webp);base64,/.test(entry.data))));
      return (valid && attachments.length > 0 ? { ...rest, attachments } : rest) as unknown as Message;
    }
    case 'assistant': {
      if (!isString(message.content)) return undefined;
      const calls = message.toolCalls;
      if (calls !== undefined && (!Array.isArray(calls) || !calls.every((call) => call && isString(call.id) && isString(call.name) && isString(call.arguments)))) return undefined;
      return message as unknown as Message;
    }
    case 'tool':
      return isString(message.toolCallId) && isString(message.name) && isString(message.content) && typeof message.isError === 'boolean' ? (message as unknown as Message) : undefined;
    case 'compaction':
      return isString(message.summary) && typeof message.replaced === 'number' && (message.keptFrom === undefined || isString(message.keptFrom)) && (message.trigger === 'user' || message.trigger === 'auto' || message.trigger === 'overflow')
        ? (message as unknown as Message)
        : undefined;
    case 'exec':
      return isString(message.command) && isString(message.output) && (message.exitCode === null || typeof message.exitCode === 'number') ? (message as unknown as Message) : undefined;
    default:
      return undefined;
  }
}

/**
 * Gives every tool call exactly one result, placed right after its answer's other results:
 * an interrupted call gets a synthesized one, a stray or duplicate result is dropped.
 */
export function repairToolTurns(messages: readonly Message[]): { messages: Message[]; repaired: number; dropped: number } {
  const out: Message[] = [];
  let repaired = 0;
  let dropped = 0;
  let open: Map<string, string> | undefined;
  const closeOpen = () => {
    if (!open) return;
    for (const [id, name] of open) {
      out.push({ id: `${id}-interrupted`, role: 'tool', toolCallId: id, name, content: INTERRUPTED_TOOL_RESULT, isError: true, at: new Date().toISOString() });
      repaired++;
    }
    open = undefined;
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      if (open?.has(message.toolCallId)) {
        open.delete(message.toolCallId);
        out.push(message);
      } else {
        dropped++;
      }
      continue;
    }
    closeOpen();
    out.push(message);
    if (message.role === 'assistant' && message.toolCalls && message.toolCalls.length > 0) {
      open = new Map(message.toolCalls.map((call) => [call.id, call.name]));
    }
  }
  closeOpen();
  return { messages: out, repaired, dropped };
}

export function loadSession(dir: string, id: string): LoadedSession {
  const file = sessionFile(dir, id);
  const text = readFileSync(file, 'utf8');
  const lines = text.split('\n');
  // A file that does not end with a newline was cut in the middle of its last record.
  const tornLast = !text.endsWith('\n');
  const warnings: string[] = [];
  const messages: Message[] = [];
  let header: SessionHeader | undefined;
  for (const [index, line] of lines.entries()) {
    if (line.trim().length === 0) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      const isLast = index === lines.length - 1 && tornLast;
      warnings.push(isLast ? `session ${id}: the last line was cut off (the app stopped while writing it); skipped` : `session ${id}: line ${index + 1} is not valid JSON; skipped`);
      continue;
    }
    const value = record as { type?: unknown; message?: unknown; id?: unknown };
    if (value.type === 'session') {
      header ??= record as SessionHeader;
      continue;
    }
    const rewound = (record as { to?: unknown }).to;
    if (value.type === 'rewind' && isString(rewound)) {
      const at = messages.findLastIndex((message) => message.id === rewound);
      if (at >= 0) messages.splice(at);
      continue;
    }
    if (value.type === 'withdrawn' && isString(value.id)) {
      const at = messages.findLastIndex((message) => message.id === value.id);
      if (at >= 0) messages.splice(at, 1);
      continue;
    }
    const message = value.type === 'message' ? asMessage(value.message) : undefined;
    if (!message) {
      warnings.push(`session ${id}: line ${index + 1} is not a message record; skipped`);
      continue;
    }
    messages.push(message);
  }
  const repaired = repairToolTurns(messages);
  if (repaired.repaired > 0) warnings.push(`session ${id}: ${repaired.repaired} tool call(s) had no result (interrupted); marked as interrupted, not re-run`);
  if (repaired.dropped > 0) warnings.push(`session ${id}: ${repaired.dropped} tool result(s) without their call; skipped`);
  return { id, file, ...(header ? { header } : {}), messages: repaired.messages, warnings };
}

/** The first user message of a session file and its header's model, read from its first 64 KB only. */
function previewOf(file: string): { preview: string; model?: string } {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const size = readSync(fd, buffer, 0, buffer.length, 0);
    let model: string | undefined;
    const withModel = (preview: string) => (model !== undefined ? { preview, model } : { preview });
    for (const line of buffer.subarray(0, size).toString('utf8').split('\n')) {
      try {
        const record = JSON.parse(line) as { type?: string; model?: unknown; message?: { role?: string; content?: unknown } };
        if (record.type === 'session' && typeof record.model === 'string') model ??= record.model;
        if (record.type === 'message' && record.message?.role === 'user' && typeof record.message.content === 'string') {
          const oneLine = record.message.content.replace(/\s+/g, ' ').trim();
          return withModel(oneLine.length > 60 ? `${oneLine.slice(0, 59)}…` : oneLine);
        }
      } catch {
        // A torn line: look further.
      }
    }
    return withModel('');
  } finally {
    closeSync(fd);
  }
}

/** Sessions, newest first. A missing directory is simply no sessions. */
export function listSessions(dir: string): SessionSummary[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const sessions: SessionSummary[] = [];
  for (const name of names) {
    if (!name.endsWith('.jsonl')) continue;
    const id = name.slice(0, -'.jsonl'.length);
    if (!SESSION_ID_PATTERN.test(id)) continue;
    const file = path.join(dir, name);
    try {
      const stat = statSync(file);
      if (!stat.isFile()) continue;
      sessions.push({ id, file, modifiedAt: stat.mtime, bytes: stat.size, ...previewOf(file) });
    } catch {
      // Vanished or unreadable: not listed.
    }
  }
  // Newest change first; ids sort by creation time, which breaks ties.
  return sessions.sort((a, b) => b.modifiedAt.getTime() - a.modifiedAt.getTime() || b.id.localeCompare(a.id));
}

/** `--resume` takes a full id or an unambiguous prefix; throws an Error with a one-line message otherwise. */
export function resolveSessionId(dir: string, wanted: string): string {
  const sessions = listSessions(dir);
  const exact = sessions.find((session) => session.id === wanted);
  if (exact) return exact.id;
  const matches = sessions.filter((session) => session.id.startsWith(wanted));
  if (matches.length === 1) return matches[0]!.id;
  if (matches.length > 1) throw new Error(`session id ${JSON.stringify(wanted)} is ambiguous (${matches.length} sessions start with it)`);
  throw new Error(`no session ${JSON.stringify(wanted)} in ${dir}`);
}

export function latestSessionId(dir: string): string | undefined {
  return listSessions(dir)[0]?.id;
}
