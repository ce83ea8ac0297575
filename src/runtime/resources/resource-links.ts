// `resource_link` blocks in tool results (shown as `[resource link <uri> …]`, services/mcp/flatten.ts)
// can be opened from the transcript with `:resource`: the link's server is the server of the tool
// that returned it, so only a server the conversation already used is ever asked.
import type { ChatItem } from '../../state/types';

export interface ResourceLink {
  alias: string;
  uri: string;
}

const LINK = /\[resource link (\S+?)(?:\]| \()/g;

/** Every resource link in the transcript's tool results, oldest first, each once. */
export function resourceLinks(items: readonly ChatItem[]): ResourceLink[] {
  const seen = new Set<string>();
  const out: ResourceLink[] = [];
  for (const item of items) {
    if (item.kind !== 'tool' || !item.result || !item.call.alias) continue;
    for (const match of item.result.matchAll(LINK)) {
      const key = `${item.call.alias}:${match[1]}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ alias: item.call.alias, uri: match[1]! });
    }
  }
  return out;
}
