import type { CallToolResult } from '@modelcontextprotocol/client';

// seed §4: the model gets one string per tool call. Text blocks are concatenated; binary content
// becomes a one-line placeholder (the model cannot see it, but it learns it was there).

export interface FlatResult {
  text: string;
  /** Media types of binary blocks that were replaced by placeholders. */
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

function flattenBlock(block: Block, binary: string[]): string | undefined {
  switch (block.type) {
    case 'text':
      return str(block.text) ?? '';
    case 'image':
    case 'audio': {
      const mime = str(block.mimeType) ?? `${block.type}/unknown`;
      binary.push(mime);
      return `[${mime}, ${formatSize(base64Size(str(block.data) ?? ''))}]`;
    }
    case 'resource': {
      const resource = (block.resource ?? {}) as Block;
      const uri = str(resource.uri) ?? '(no uri)';
      const text = str(resource.text);
      if (text !== undefined) return `[resource ${uri}]\n${text}`;
      const mime = str(resource.mimeType) ?? 'application/octet-stream';
      binary.push(mime);
      return `[resource ${uri}: ${mime}, ${formatSize(base64Size(str(resource.blob) ?? ''))}]`;
    }
    case 'resource_link': {
      const uri = str(block.uri) ?? '(no uri)';
      const name = str(block.name);
      const description = str(block.description);
      return `[resource link ${uri}${name ? ` (${name})` : ''}]${description ? ` ${description}` : ''}`;
    }
    default:
      return `[${String(block.type)} content]`;
  }
}

export function flattenResult(result: Pick<CallToolResult, 'content' | 'structuredContent'> & Record<string, unknown>): FlatResult {
  const binary: string[] = [];
  const content = Array.isArray(result.content) ? (result.content as Block[]) : [];
  const pieces: string[] = [];
  let hasText = false;
  for (const block of content) {
    const piece = flattenBlock(block, binary);
    if (block.type === 'text' || (block.type === 'resource' && typeof (block.resource as Block | undefined)?.text === 'string')) {
      if ((piece ?? '').length > 0) hasText = true;
    }
    if (piece !== undefined) pieces.push(piece);
  }
  if (!hasText && result.structuredContent !== undefined) {
    pieces.unshift(JSON.stringify(result.structuredContent));
  }
  // Old servers (protocol 2024-10-07) answer with `toolResult` instead of `content`.
  if (pieces.length === 0 && result.toolResult !== undefined) pieces.push(JSON.stringify(result.toolResult));
  return { text: pieces.join('\n'), binary };
}
