import type MiniSearch from 'minisearch';
import type { Message } from '../conversation/types';
import { TOOL_SEARCH_NAME } from './budget';
import type { IndexedTool } from './names';

// Local tool search (README.md, "Tool budget"): a full-text index (MiniSearch, BM25 with prefix
// and fuzzy matching) over the searchable tools' names, titles, descriptions and parameter
// names, so it works with any model and any endpoint. The library loads on the first search: a
// session that never searches never reads it.

const STOP_WORDS = new Set(
  'a an the to of for in on at by and or is are be it its this that these those with from into as i me my we our you your please can could would should will want need some any all get make do does using use via about'.split(' '),
);

/** Lower case, common words dropped, a plural or -ing/-ed ending taken off so "files" finds "file". */
export function searchTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (lower.length < 2 || STOP_WORDS.has(lower)) return null;
  if (lower.length > 5 && lower.endsWith('ing')) return lower.slice(0, -3);
  if (lower.length > 4 && lower.endsWith('ies')) return `${lower.slice(0, -3)}y`;
  if (lower.length > 4 && lower.endsWith('ed')) return lower.slice(0, -2);
  if (lower.length > 3 && lower.endsWith('s') && !lower.endsWith('ss')) return lower.slice(0, -1);
  return lower;
}

/** Words of a name: `read_text_file`, `readTextFile`, `git-diff` all give their parts. */
export function nameWords(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-.:/]+/g, ' ');
}

function parameterText(schema: Record<string, unknown>): string {
  const properties = schema.properties;
  if (!properties || typeof properties !== 'object') return '';
  return Object.entries(properties as Record<string, unknown>)
    .map(([name, value]) => {
      const description = value && typeof value === 'object' && typeof (value as { description?: unknown }).description === 'string' ? (value as { description: string }).description : '';
      return `${nameWords(name)} ${description.slice(0, 200)}`;
    })
    .join(' ');
}

interface ToolDocument {
  id: string;
  name: string;
  server: string;
  title: string;
  description: string;
  parameters: string;
}

export interface SearchHit {
  wireName: string;
  /** The first line of the description, cut to about 160 characters. */
  summary: string;
}

/** The first non-empty line, cut with `…`: what a search result says about a tool. */
export function oneLine(text: string | undefined, max = 160): string {
  const line = (text ?? '').split(/\r?\n/).find((candidate) => candidate.trim())?.trim() ?? '';
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}

let loading: Promise<typeof MiniSearch> | undefined;
const loadMiniSearch = () => (loading ??= import('minisearch').then((module) => module.default));

/** One index per list of searchable tools (the offer keeps the same array while nothing changes). */
const indexes = new WeakMap<readonly IndexedTool[], MiniSearch<ToolDocument>>();

async function indexFor(tools: readonly IndexedTool[]): Promise<MiniSearch<ToolDocument>> {
  const cached = indexes.get(tools);
  if (cached) return cached;
  const Engine = await loadMiniSearch();
  const engine = new Engine<ToolDocument>({
    fields: ['name', 'server', 'title', 'description', 'parameters'],
    processTerm: searchTerm,
    searchOptions: { boost: { name: 3, title: 2, description: 1, server: 1, parameters: 0.5 }, prefix: (term) => term.length > 3, fuzzy: (term) => (term.length > 5 ? 0.2 : false), combineWith: 'OR' },
  });
  engine.addAll(
    tools.map((tool) => ({
      id: tool.wireName,
      name: nameWords(tool.tool),
      server: nameWords(tool.alias),
      title: tool.info.title ?? '',
      description: (tool.info.description ?? '').slice(0, 2000),
      parameters: parameterText(tool.info.inputSchema),
    })),
  );
  indexes.set(tools, engine);
  return engine;
}

/** The best `limit` tools for a plain-language query, best first. */
export async function searchTools(tools: readonly IndexedTool[], query: string, limit: number): Promise<SearchHit[]> {
  if (tools.length === 0 || query.trim().length === 0) return [];
  const engine = await indexFor(tools);
  const byWire = new Map(tools.map((tool) => [tool.wireName, tool]));
  return engine
    .search(query)
    .slice(0, limit)
    .map((result) => {
      const tool = byWire.get(String(result.id))!;
      return { wireName: tool.wireName, summary: oneLine(tool.info.description ?? tool.info.title) };
    });
}

const RESULT_LINE = /^([A-Za-z0-9_-]{1,64}) — /;

/** The tool turn of a search: one line per tool, `name — summary`, which `loadedTools` reads back. */
export function formatSearchResult(query: string, hits: readonly SearchHit[]): string {
  if (hits.length === 0) return `no tool matches ${JSON.stringify(query)}; try other words`;
  return [`tools matching ${JSON.stringify(query)} (call them by these names):`, ...hits.map((hit) => `${hit.wireName} — ${hit.summary}`)].join('\n');
}

/**
 * The tools the conversation has found or used: every tool it called, and every tool a search
 * returned. Read from the history, so a resumed session keeps them and `:clear` forgets them.
 */
export function loadedTools(history: readonly Message[]): Set<string> {
  const loaded = new Set<string>();
  const searches = new Set<string>();
  for (const message of history) {
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        if (call.name === TOOL_SEARCH_NAME) searches.add(call.id);
        else loaded.add(call.name);
      }
    } else if (message.role === 'tool' && message.name === TOOL_SEARCH_NAME && searches.has(message.toolCallId) && !message.isError) {
      for (const line of message.content.split('\n')) {
        const match = RESULT_LINE.exec(line);
        if (match) loaded.add(match[1]!);
      }
    }
  }
  return loaded;
}
