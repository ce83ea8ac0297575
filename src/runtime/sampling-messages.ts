// Pure pieces of answering a server's sampling request: its messages as chat-completions messages,
// the limits that apply to a server, and the per-minute window. No I/O, so the unit tests cover
// every case (test/unit/runtime/sampling.test.ts).
import type { WireContentPart, WireMessage } from '../services/broker/types';
import type { AppConfig } from '../services/config/load';
import type { SamplingPart, SamplingRequest } from '../services/mcp/index';

/** What a part says where a chat message cannot carry it (assistant turns are text only). */
export function partPlaceholder(part: SamplingPart): string {
  if (part.type === 'text') return part.text;
  if (part.type === 'other') return `[${part.kind} content not supported]`;
  // base64: 4 characters carry 3 bytes; each trailing `=` is one byte fewer.
  const padding = part.data.endsWith('==') ? 2 : part.data.endsWith('=') ? 1 : 0;
  const bytes = Math.max(0, Math.floor((part.data.length * 3) / 4) - padding);
  return `[${part.mimeType}, ${bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 1024)} KB`}]`;
}

function audioFormat(mimeType: string): string {
  const sub = mimeType.split('/')[1]?.toLowerCase() ?? '';
  if (sub === 'mpeg' || sub === 'mp3') return 'mp3';
  return sub.replace(/^x-/, '') || 'wav';
}

function wirePart(part: SamplingPart): WireContentPart {
  if (part.type === 'image') return { type: 'image_url', image_url: { url: `data:${part.mimeType};base64,${part.data}` } };
  if (part.type === 'audio') return { type: 'input_audio', input_audio: { data: part.data, format: audioFormat(part.mimeType) } };
  return { type: 'text', text: partPlaceholder(part) };
}

/**
 * The request as chat-completions messages: the system prompt first (if any), then each message.
 * A user message of text only is one string (parts joined by a blank line); one with an image or
 * audio is a list of parts (OpenAI's `image_url` with a data URL, `input_audio`). Assistant
 * messages are text, media shown as a placeholder.
 */
export function samplingWireMessages(request: Pick<SamplingRequest, 'systemPrompt' | 'messages'>): WireMessage[] {
  const wire: WireMessage[] = [];
  if (request.systemPrompt && request.systemPrompt.trim().length > 0) wire.push({ role: 'system', content: request.systemPrompt });
  for (const message of request.messages) {
    const media = message.content.some((part) => part.type === 'image' || part.type === 'audio');
    if (message.role === 'user' && media) wire.push({ role: 'user', content: message.content.map(wirePart) });
    else {
      const text = message.content.map(partPlaceholder).join('\n\n');
      wire.push(message.role === 'user' ? { role: 'user', content: text } : { role: 'assistant', content: text });
    }
  }
  return wire;
}

/** A request's messages as one editable text: the text of each part, media as placeholders. */
export function messageText(request: Pick<SamplingRequest, 'messages'>): string {
  return request.messages.map((message) => message.content.map(partPlaceholder).join('\n\n')).join('\n\n');
}

export interface SamplingLimits {
  enabled: boolean;
  autoApprove: boolean;
  maxTokens: number;
  perMinute: number;
}

/** The limits for `alias`: its own `mcp.servers.<alias>.sampling`, the rest from `mcp.sampling`. */
export function samplingLimits(config: Pick<AppConfig, 'mcp'>, alias: string): SamplingLimits {
  const own = config.mcp.servers[alias]?.sampling ?? {};
  const global = config.mcp.sampling;
  return {
    enabled: own.enabled ?? true,
    autoApprove: own.autoApprove ?? false,
    maxTokens: own.maxTokens ?? global.maxTokens,
    perMinute: own.perMinute ?? global.perMinute,
  };
}

/** Requests per server in the last minute; `take` counts one and says whether it was within the limit. */
export class RateWindow {
  private readonly times = new Map<string, number[]>();

  constructor(private readonly windowMs = 60_000) {}

  take(alias: string, limit: number, now: number): boolean {
    const recent = (this.times.get(alias) ?? []).filter((at) => now - at < this.windowMs);
    const allowed = recent.length < limit;
    if (allowed) recent.push(now);
    this.times.set(alias, recent);
    return allowed;
  }
}

const SECTION = /^#{3} (system prompt|max tokens|user|assistant)\s*$/;
/** A media part's line in the edited text: the part itself is kept, whatever the line says. */
const KEPT = /^\[kept: [^\]]*\]\s*$/;

/**
 * The parts of a request a person may change, as one text to edit: `### system prompt`,
 * `### max tokens` and one `### user` / `### assistant` section per message. Media parts show as
 * placeholders and are kept as they were (see parseEditedRequest).
 */
export function editableRequest(request: SamplingRequest): string {
  const sections = [`### system prompt\n${request.systemPrompt ?? ''}`, `### max tokens\n${request.maxTokens}`];
  for (const message of request.messages) {
    const parts = message.content.map((part) => (part.type === 'image' || part.type === 'audio' ? `[kept: ${partPlaceholder(part).slice(1, -1)}]` : partPlaceholder(part)));
    sections.push(`### ${message.role}\n${parts.join('\n\n')}`);
  }
  return sections.join('\n');
}

/**
 * The request with the edited text: sections as editableRequest writes them. Message N keeps the
 * media parts message N had (only its text is replaced). Returns a problem line instead when the
 * text cannot be read.
 */
export function parseEditedRequest(text: string, original: SamplingRequest): { request: SamplingRequest } | { problem: string } {
  const sections: Array<{ name: string; lines: string[] }> = [];
  for (const line of text.split('\n')) {
    const match = SECTION.exec(line);
    if (match) sections.push({ name: match[1]!, lines: [] });
    else if (KEPT.test(line)) continue;
    else if (sections.length > 0) sections[sections.length - 1]!.lines.push(line);
    else if (line.trim().length > 0) return { problem: 'text before the first ### section' };
  }
  const body = (lines: string[]) => lines.join('\n').trim();
  let systemPrompt: string | undefined;
  let maxTokens = original.maxTokens;
  const messages: SamplingRequest['messages'] = [];
  for (const section of sections) {
    if (section.name === 'system prompt') systemPrompt = body(section.lines) || undefined;
    else if (section.name === 'max tokens') {
      const value = Number(body(section.lines));
      if (!Number.isInteger(value) || value <= 0) return { problem: `max tokens: expected a positive whole number, got ${JSON.stringify(body(section.lines))}` };
      maxTokens = value;
    } else {
      const media = original.messages[messages.length]?.content.filter((part) => part.type === 'image' || part.type === 'audio') ?? [];
      const textPart = body(section.lines);
      messages.push({ role: section.name as 'user' | 'assistant', content: [...(textPart ? [{ type: 'text' as const, text: textPart }] : []), ...media] });
    }
  }
  if (messages.length === 0) return { problem: 'no ### user message left' };
  const { systemPrompt: _previous, ...rest } = original;
  return { request: { ...rest, ...(systemPrompt !== undefined ? { systemPrompt } : {}), messages, maxTokens } };
}
