// A server's prompts: the list, one prompt's messages for given arguments, and the server's
// suggestions for an argument (`completion/complete`). Bounded here; texts stay raw for the caller.
import type { Client } from '@modelcontextprotocol/client';
import { MAX_LISTED, base64Bytes } from './resources';
import type { McpPromptArgument, McpPromptInfo, PromptMessageView } from './types';

/** Suggestions kept of one `completion/complete` answer (the spec caps it at 100 too). */
export const MAX_SUGGESTIONS = 100;

const label = (value: unknown, max = 2000): string | undefined => (typeof value === 'string' ? value.slice(0, max) : undefined);

export function promptInfo(alias: string, raw: Record<string, unknown>): McpPromptInfo | undefined {
  const name = label(raw.name, 200);
  if (!name) return undefined;
  const args: McpPromptArgument[] = [];
  for (const entry of Array.isArray(raw.arguments) ? raw.arguments.slice(0, 50) : []) {
    if (!entry || typeof entry !== 'object') continue;
    const argument = entry as Record<string, unknown>;
    const argName = label(argument.name, 200);
    if (!argName) continue;
    const description = label(argument.description);
    args.push({ name: argName, required: argument.required === true, ...(description ? { description } : {}) });
  }
  const title = label(raw.title);
  const description = label(raw.description);
  return { alias, name, arguments: args, ...(title ? { title } : {}), ...(description ? { description } : {}) };
}

export async function listPromptInfos(client: Client, alias: string, options: { refresh?: boolean; timeoutMs: number }): Promise<McpPromptInfo[]> {
  const listed = await client.listPrompts(undefined, { timeout: options.timeoutMs, cacheMode: options.refresh ? 'refresh' : 'use' });
  const out: McpPromptInfo[] = [];
  for (const raw of (listed.prompts as unknown[]).slice(0, MAX_LISTED)) {
    if (!raw || typeof raw !== 'object') continue;
    const info = promptInfo(alias, raw as Record<string, unknown>);
    if (info) out.push(info);
  }
  return out;
}

const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${Math.ceil(bytes / 1024)} KB`);

/** One content block of a prompt message as text: embedded text resources whole, anything binary as a placeholder. */
function contentText(content: Record<string, unknown>, resources: string[]): string {
  switch (content.type) {
    case 'text':
      return typeof content.text === 'string' ? content.text : '';
    case 'resource': {
      const resource = (content.resource ?? {}) as Record<string, unknown>;
      const uri = typeof resource.uri === 'string' ? resource.uri : '';
      if (uri) resources.push(uri);
      if (typeof resource.text === 'string') return `[resource: ${uri}]\n${resource.text}`;
      const bytes = typeof resource.blob === 'string' ? base64Bytes(resource.blob) : 0;
      return `[resource: ${uri} · ${typeof resource.mimeType === 'string' ? resource.mimeType : 'binary'}, ${size(bytes)}, not included]`;
    }
    case 'resource_link': {
      const uri = typeof content.uri === 'string' ? content.uri : '';
      if (uri) resources.push(uri);
      return `[resource link: ${uri}]`;
    }
    case 'image':
    case 'audio': {
      const bytes = typeof content.data === 'string' ? base64Bytes(content.data) : 0;
      return `[${content.type} ${typeof content.mimeType === 'string' ? content.mimeType : ''}, ${size(bytes)}, not included]`;
    }
    default:
      return `[${String(content.type)} content, not included]`;
  }
}

/** A prompt's messages as text, at most `maxChars` in all (the rest is cut with a note). */
export function promptMessages(messages: unknown, maxChars: number): PromptMessageView[] {
  const out: PromptMessageView[] = [];
  let left = maxChars;
  for (const raw of Array.isArray(messages) ? messages.slice(0, 200) : []) {
    if (!raw || typeof raw !== 'object') continue;
    const message = raw as Record<string, unknown>;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const resources: string[] = [];
    const blocks = Array.isArray(message.content) ? message.content : [message.content];
    const whole = blocks
      .filter((block): block is Record<string, unknown> => Boolean(block) && typeof block === 'object')
      .map((block) => contentText(block, resources))
      .join('\n');
    if (left <= 0) break;
    const kept = whole.length > left ? `${whole.slice(0, left)}\n[cut: the prompt is longer than ${maxChars} characters]` : whole;
    left -= whole.length;
    out.push({ role, text: kept, resources });
  }
  return out;
}

/** The server's suggestions for one argument; none when it offers no completions or the request fails. */
export async function completeValue(
  client: Client,
  ref: { type: 'prompt'; name: string } | { type: 'template'; uri: string },
  argument: string,
  value: string,
  context: Record<string, string> | undefined,
  timeoutMs: number,
): Promise<string[]> {
  if (!client.getServerCapabilities()?.completions) return [];
  const wireRef = ref.type === 'prompt' ? { type: 'ref/prompt' as const, name: ref.name } : { type: 'ref/resource' as const, uri: ref.uri };
  const answer = await client.complete({ ref: wireRef, argument: { name: argument, value }, ...(context && Object.keys(context).length > 0 ? { context: { arguments: context } } : {}) }, { timeout: timeoutMs });
  const values = (answer.completion?.values ?? []) as unknown[];
  return values.filter((entry): entry is string => typeof entry === 'string').slice(0, MAX_SUGGESTIONS).map((entry) => entry.slice(0, 500));
}
