// `@alias:uri` in a message attaches that MCP resource (README.md, "Files, images and resources"):
// it is read when the message is sent, its text capped like a text file, a binary resource given
// as its type and size only. The resource is the server's text: it reaches the model as an
// attachment of the user's turn and the screen only as a chip (sanitized there). A word whose
// alias is no configured server stays text (`@someone:` is a mention, not a resource).
import type { Attachment } from '../../services/conversation/types';
import type { McpManagerService, ResourcePart } from '../../services/mcp/index';
import { TEXT_LIMIT } from '../attachments/resolve';

export interface ResourceReference {
  alias: string;
  uri: string;
  /** As typed, with the `@`. */
  shown: string;
}

/** The `@alias:uri` words of `text` whose alias is one of `aliases`, each once. */
export function findResourceReferences(text: string, aliases: readonly string[]): ResourceReference[] {
  const known = new Set(aliases);
  const found = new Map<string, ResourceReference>();
  for (const match of text.matchAll(/(?:^|\s)@([A-Za-z0-9][A-Za-z0-9_.-]*):(\S+)/g)) {
    const alias = match[1]!;
    const uri = match[2]!.replace(/[.,;!?)\]]+$/, '');
    if (!known.has(alias) || uri.length === 0) continue;
    found.set(`${alias}:${uri}`, { alias, uri, shown: `@${alias}:${uri}` });
  }
  return [...found.values()];
}

/** What is wrong with a reference before anything is read (a template parameter left unfilled). */
export function referenceProblem(reference: ResourceReference): string | undefined {
  const open = /\{([^}]*)\}/.exec(reference.uri);
  return open ? `${reference.shown} still has the template parameter {${open[1]}}; put a value in its place` : undefined;
}

const size = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${Math.ceil(bytes / 1024)} KB`);

/** The text of a read resource as the model gets it: its text parts, binary parts as a line each. */
export function resourceText(parts: readonly ResourcePart[]): string {
  return parts
    .map((part) => {
      if (part.kind === 'binary') return `[binary ${part.mimeType ?? 'content'} ${part.uri}, ${size(part.bytes)}: not included]`;
      return part.truncated ? `${part.text}\n[cut: the resource has ${size(part.bytes)}; the first ${part.text.length} characters are here]` : part.text;
    })
    .join('\n');
}

/**
 * Reads every referenced resource. Any problem (no such server, not connected, the read failed)
 * keeps the whole message from being sent, with one line per problem.
 */
export async function readResourceAttachments(mcp: McpManagerService, references: readonly ResourceReference[], signal?: AbortSignal): Promise<{ attachments: Attachment[]; problems: string[] }> {
  const attachments: Attachment[] = [];
  const problems: string[] = [];
  for (const reference of references) {
    const unfilled = referenceProblem(reference);
    if (unfilled) {
      problems.push(unfilled);
      continue;
    }
    if (!mcp.readResource) {
      problems.push(`${reference.shown}: resources cannot be read here`);
      continue;
    }
    const read = await mcp.readResource(reference.alias, reference.uri, { maxChars: TEXT_LIMIT, ...(signal ? { signal } : {}) });
    if (!read.ok) {
      problems.push(`${reference.shown} could not be read: ${read.error}`);
      continue;
    }
    const data = resourceText(read.parts);
    attachments.push({ path: `${reference.alias}:${reference.uri}`, kind: 'text', origin: 'resource', bytes: Buffer.byteLength(data), data });
  }
  return { attachments, problems };
}
