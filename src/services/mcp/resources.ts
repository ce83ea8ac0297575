// A server's resources: what it lists (resources and URI templates) and what reading one gives.
// Everything a server sends is bounded here (count of entries, characters of text); the texts stay
// raw for the caller, which sanitizes them for the screen (docs/ARCHITECTURE.md, Security invariants).
import { UriTemplate, type Client } from '@modelcontextprotocol/client';
import type { McpResourceInfo, McpResourceTemplateInfo, ResourcePart } from './types';

/** More entries than this in one list are dropped (a server can list endlessly; completion must stay quick). */
export const MAX_LISTED = 1000;
/** Names, titles and descriptions longer than this are cut: they are labels, not documents. */
const MAX_LABEL_CHARS = 2000;

const text = (value: unknown, max = MAX_LABEL_CHARS): string | undefined => (typeof value === 'string' ? value.slice(0, max) : undefined);

export function resourceInfo(raw: Record<string, unknown>): McpResourceInfo | undefined {
  const uri = text(raw.uri, 8192);
  if (!uri) return undefined;
  const info: McpResourceInfo = { uri, name: text(raw.name) ?? uri };
  const title = text(raw.title);
  const description = text(raw.description);
  const mimeType = text(raw.mimeType, 200);
  if (title) info.title = title;
  if (description) info.description = description;
  if (mimeType) info.mimeType = mimeType;
  if (typeof raw.size === 'number' && Number.isFinite(raw.size)) info.size = raw.size;
  return info;
}

/** The variable names of a URI template (`demo://text/{id}` -> `id`); none when it does not parse. */
export function templateVariables(uriTemplate: string): string[] {
  try {
    return new UriTemplate(uriTemplate).variableNames;
  } catch {
    return [];
  }
}

/** A template's URI with these values filled in, or why not (a value missing, a template that does not parse). */
export function expandTemplate(uriTemplate: string, values: Record<string, string>): { uri: string } | { error: string } {
  try {
    const template = new UriTemplate(uriTemplate);
    const missing = template.variableNames.filter((name) => !(name in values));
    if (missing.length > 0) return { error: `fill in ${missing.map((name) => `{${name}}`).join(', ')}` };
    return { uri: template.expand(values) };
  } catch (error) {
    return { error: `the template ${JSON.stringify(uriTemplate)} does not parse: ${(error as Error).message}` };
  }
}

export function templateInfo(raw: Record<string, unknown>): McpResourceTemplateInfo | undefined {
  const uriTemplate = text(raw.uriTemplate, 8192);
  if (!uriTemplate) return undefined;
  const info: McpResourceTemplateInfo = { uriTemplate, name: text(raw.name) ?? uriTemplate, variables: templateVariables(uriTemplate) };
  const title = text(raw.title);
  const description = text(raw.description);
  const mimeType = text(raw.mimeType, 200);
  if (title) info.title = title;
  if (description) info.description = description;
  if (mimeType) info.mimeType = mimeType;
  return info;
}

function bounded<T>(items: unknown, read: (raw: Record<string, unknown>) => T | undefined): T[] {
  const out: T[] = [];
  if (!Array.isArray(items)) return out;
  for (const item of items) {
    if (out.length >= MAX_LISTED) break;
    if (!item || typeof item !== 'object') continue;
    const info = read(item as Record<string, unknown>);
    if (info) out.push(info);
  }
  return out;
}

/**
 * Lists resources and templates. `refresh` asks the server again; otherwise the SDK's response
 * cache answers while the server's `ttlMs` says a list is fresh (none given: always asked, as
 * before), partitioned by `cacheScope` (a `private` list is never served to another identity).
 */
export async function listResourceCatalog(client: Client, options: { refresh?: boolean; signal?: AbortSignal; timeoutMs: number }) {
  const request = { timeout: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}), cacheMode: options.refresh ? ('refresh' as const) : ('use' as const) };
  const [listed, templated] = await Promise.all([client.listResources(undefined, request), client.listResourceTemplates(undefined, request)]);
  return {
    resources: bounded(listed.resources as unknown, resourceInfo),
    templates: bounded(templated.resourceTemplates as unknown, templateInfo),
  };
}

/** Bytes a base64 text stands for, without decoding it. */
export function base64Bytes(data: string): number {
  const clean = data.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** A resource's contents as parts: text cut at `maxChars` (across all parts), binary as type and size. */
export function resourceParts(contents: unknown, maxChars: number): ResourcePart[] {
  const parts: ResourcePart[] = [];
  let left = maxChars;
  for (const item of Array.isArray(contents) ? contents : []) {
    if (!item || typeof item !== 'object') continue;
    const raw = item as Record<string, unknown>;
    const uri = text(raw.uri, 8192) ?? '';
    const mimeType = text(raw.mimeType, 200);
    const typed = mimeType ? { mimeType } : {};
    if (typeof raw.text === 'string') {
      const whole = raw.text;
      const kept = whole.slice(0, Math.max(0, left));
      left -= kept.length;
      parts.push({ uri, ...typed, kind: 'text', text: kept, bytes: Buffer.byteLength(whole), truncated: kept.length < whole.length });
    } else if (typeof raw.blob === 'string') {
      parts.push({ uri, ...typed, kind: 'binary', bytes: base64Bytes(raw.blob) });
    }
  }
  return parts;
}
