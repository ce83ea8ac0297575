import type { CallToolResult } from '@modelcontextprotocol/client';
import { TOOL_REPORTED_ERROR } from './texts';

// The model gets one string per tool call (docs/ARCHITECTURE.md, Conversation rules). Text blocks are concatenated; binary content
// becomes a one-line placeholder (the model cannot see it, but it learns it was there). Base64
// never gets through: not in image or audio blocks, not in embedded resources, and not in
// structuredContent, where servers copy the same payloads (server-filesystem's media files).

export interface FlatResult {
  text: string;
  /** Media types of binary data that was replaced by placeholders. */
  binary: string[];
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** Decoded size of base64 data, without decoding it. */
export function base64Size(data: string): number {
  const clean = data.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

type Block = Record<string, unknown>;

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
/**
 * A string this long made only of base64 characters is encoded data, not words: prose has spaces
 * and punctuation, and identifiers and hashes (a SHA-512 in hex is 128) are shorter.
 */
const LONG_BASE64 = 256;
/** `data:image/png;base64,....` anywhere in a string; shorter payloads are left alone. */
const DATA_URL = /data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[\w.+-]+)*);base64,([A-Za-z0-9+/_\s-]{64,}={0,2})/g;

/** Padded base64 (a length in whole quads): a short word such as "hello" next to a mimeType stays text. */
function isBase64(value: string): boolean {
  const clean = value.replace(/\s+/g, '');
  return clean.length > 0 && clean.length % 4 === 0 && BASE64.test(clean);
}

/** Media types whose bytes are text (a `text/*` resource sent as a blob is shown as text). */
function isTextual(mimeType: string): boolean {
  const type = mimeType.split(';')[0]!.trim().toLowerCase();
  return type.startsWith('text/') || /^application\/(json|xml|javascript|x-yaml|yaml|x-sh|sql|toml)$/.test(type) || /\+(json|xml)$/.test(type);
}

/** The bytes as text when the media type says they are text and they decode cleanly, else undefined. */
function decodeText(data: string, mimeType: string): string | undefined {
  if (!isTextual(mimeType)) return undefined;
  const charset = /;\s*charset="?([\w.:-]+)"?/i.exec(mimeType)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset, { fatal: true }).decode(Buffer.from(data, 'base64'));
  } catch {
    // An unknown charset or bytes that are not valid text: a placeholder, never the raw payload.
    return undefined;
  }
}

function placeholder(mimeType: string, data: string, binary: string[]): string {
  binary.push(mimeType);
  return `[${mimeType}, ${formatSize(base64Size(data))}]`;
}

/** Base64 in `data:` URLs inside a text replaced by placeholders. */
function withoutDataUrls(text: string, binary: string[]): string {
  if (!text.includes(';base64,')) return text;
  return text.replace(DATA_URL, (_match, mime: string | undefined, _parameters, data: string) => placeholder(mime ?? 'application/octet-stream', data, binary));
}

const MAX_DEPTH = 64;

/**
 * A JSON value (structuredContent, an old server's toolResult) with every base64 payload replaced:
 * `data`/`blob` strings next to a `mimeType` (content blocks and resources copied into it), long
 * runs of base64, and `data:` URLs. Textual blobs become their text.
 */
function withoutPayloads(value: unknown, binary: string[], depth = 0): unknown {
  if (typeof value === 'string') {
    // Unpadded runs count too: past this length nothing else looks like this.
    if (value.length >= LONG_BASE64 && BASE64.test(value.replace(/\s+/g, ''))) return placeholder('application/octet-stream', value, binary);
    return withoutDataUrls(value, binary);
  }
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[nested too deep]';
  if (Array.isArray(value)) return value.map((item) => withoutPayloads(item, binary, depth + 1));
  const object = value as Block;
  const mimeType = str(object.mimeType) ?? str(object.mime_type) ?? str(object.contentType);
  const out: Block = {};
  for (const [key, item] of Object.entries(object)) {
    if (typeof item === 'string' && (key === 'data' || key === 'blob') && isBase64(item) && (mimeType !== undefined || object.type === 'image' || object.type === 'audio')) {
      const mime = mimeType ?? `${String(object.type)}/unknown`;
      out[key] = decodeText(item, mime) ?? placeholder(mime, item, binary);
    } else {
      out[key] = withoutPayloads(item, binary, depth + 1);
    }
  }
  return out;
}

interface Piece {
  text: string;
  /** Text the model can read (then structuredContent, a copy of it, is left out). */
  readable: boolean;
}

function flattenBlock(block: Block, binary: string[]): Piece {
  switch (block.type) {
    case 'text': {
      const text = withoutDataUrls(str(block.text) ?? '', binary);
      return { text, readable: text.length > 0 };
    }
    case 'image':
    case 'audio':
      return { text: placeholder(str(block.mimeType) ?? `${block.type}/unknown`, str(block.data) ?? '', binary), readable: false };
    case 'resource': {
      const resource = (block.resource ?? {}) as Block;
      const uri = str(resource.uri) ?? '(no uri)';
      const mime = str(resource.mimeType) ?? 'application/octet-stream';
      const blob = str(resource.blob) ?? '';
      const text = str(resource.text) ?? (str(resource.blob) !== undefined ? decodeText(blob, mime) : undefined);
      if (text !== undefined) return { text: `[resource ${uri}]\n${withoutDataUrls(text, binary)}`, readable: text.length > 0 };
      binary.push(mime);
      return { text: `[resource ${uri}: ${mime}, ${formatSize(base64Size(blob))}]`, readable: false };
    }
    case 'resource_link': {
      const uri = str(block.uri) ?? '(no uri)';
      const name = str(block.name);
      const description = str(block.description);
      return { text: `[resource link ${uri}${name ? ` (${name})` : ''}]${description ? ` ${description}` : ''}`, readable: false };
    }
    default:
      return { text: `[${String(block.type)} content]`, readable: false };
  }
}

export function flattenResult(result: Pick<CallToolResult, 'content' | 'structuredContent'> & Record<string, unknown>): FlatResult {
  const binary: string[] = [];
  const content = Array.isArray(result.content) ? (result.content as Block[]) : [];
  const pieces: string[] = [];
  let hasText = false;
  for (const block of content) {
    const piece = flattenBlock(block, binary);
    if (piece.readable) hasText = true;
    pieces.push(piece.text);
  }
  if (!hasText && result.structuredContent !== undefined) {
    pieces.unshift(JSON.stringify(withoutPayloads(result.structuredContent, binary)));
  }
  // Old servers (protocol 2024-10-07) answer with `toolResult` instead of `content`.
  if (pieces.length === 0 && result.toolResult !== undefined) pieces.push(JSON.stringify(withoutPayloads(result.toolResult, binary)) ?? '');
  return { text: pieces.join('\n'), binary };
}

/**
 * The tool turn's text: a result the server flagged with `isError` says so, because the chat
 * format has no field for it and the server's text alone ("Permission denied") can read as data.
 */
export function toolTurnText(text: string, isError: boolean): string {
  if (!isError) return text.length > 0 ? text : '(no output)';
  return text.length > 0 ? `${TOOL_REPORTED_ERROR}${text}` : '[aish] the tool reported an error without any text';
}
