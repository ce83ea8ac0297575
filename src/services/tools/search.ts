import type MiniSearch from 'minisearch';
import type { Message } from '../conversation/types';
import { TOOL_SEARCH_NAME } from './budget';
import type { IndexedTool } from './names';

// Local tool search (README.md, "Tool budget"): a full-text index (MiniSearch, BM25 with prefix
// and fuzzy matching) over the searchable tools' names, titles, descriptions and parameter
// names, so it works with any model and any endpoint. The library loads on the first search: a
// session that never searches never reads it.

const STOP_WORDS = new Set(
  'a an the to of for in on at by and or is are be it its this that these those with from into as i me my we our you your please can could would should will want need some any all get do does using use via about what which whats'.split(' '),
);

/**
 * Lower case, common words dropped, and a light stem so that "files", "staging", "created" meet
 * "file", "stage", "create": plural and -ing/-ed endings off, then a final `e`.
 */
export function searchTerm(term: string): string | null {
  let word = term.toLowerCase();
  if (word.length < 2 || STOP_WORDS.has(word)) return null;
  if (word.length > 5 && word.endsWith('ing')) word = word.slice(0, -3);
  else if (word.length > 4 && (word.endsWith('ies') || word.endsWith('ied'))) word = `${word.slice(0, -3)}y`;
  else if (word.length > 4 && word.endsWith('ed')) word = word.slice(0, -2);
  else if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) word = word.slice(0, -1);
  if (word.length > 3 && word.endsWith('e')) word = word.slice(0, -1);
  return word;
}

/**
 * Words people use in requests for the words tool descriptions use: a request says "folder",
 * "picture" or "notes.txt", a description "directory", "image" or "file". Added to the query's
 * own words (never to the index), so an exact word still ranks first.
 */
const REQUEST_WORDS: Record<string, string[]> = {
  folder: ['directory'],
  dir: ['directory'],
  picture: ['image'],
  photo: ['image'],
  png: ['image', 'file'],
  jpg: ['image', 'file'],
  jpeg: ['image', 'file'],
  gif: ['image', 'file'],
  txt: ['text', 'file'],
  md: ['text', 'file'],
  csv: ['file'],
  json: ['file'],
  yaml: ['file'],
  yml: ['file'],
  pdf: ['file'],
  log: ['file'],
  show: ['read', 'list'],
  view: ['read'],
  open: ['read'],
  look: ['read'],
  make: ['create'],
  new: ['create'],
  remove: ['delete'],
  erase: ['delete'],
  forget: ['delete'],
  find: ['search'],
  lookup: ['search'],
};

/** A query word with the words a tool description would use for it, each processed like the index. */
export function queryTerms(term: string): string[] | null {
  const own = searchTerm(term);
  const extra = (REQUEST_WORDS[term.toLowerCase()] ?? []).map(searchTerm).filter((word): word is string => word !== null);
  const all = [...new Set([...(own ? [own] : []), ...extra])];
  return all.length > 0 ? all : null;
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
    searchOptions: { processTerm: queryTerms, boost: { name: 3, title: 2, description: 1, server: 1, parameters: 0.5 }, prefix: (term) => term.length > 3, fuzzy: (term) => (term.length > 5 ? 0.2 : false), combineWith: 'OR' },
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
