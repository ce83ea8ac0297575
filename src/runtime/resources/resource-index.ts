// What the connected servers offer as resources and prompts, held here so Tab completion (which
// must answer at once) can offer `@alias:uri` and `:prompt alias/name` without a round trip. Lists
// are fetched when a server becomes ready and again when it says they changed; a subscribed
// resource that changed is remembered as updated until it is read again.
import type { McpManagerService, McpPromptInfo, ResourceCatalog } from '../../services/mcp/index';
import type { CompletionSource } from '../completion';

export interface ResourceIndex {
  catalogs(): ResourceCatalog[];
  prompts(): McpPromptInfo[];
  /** `alias:uri` of subscribed resources that changed since they were last read. */
  updated(): ReadonlySet<string>;
  markRead(alias: string, uri: string): void;
  /** Fetches one server's lists again (or every ready server's); resolves when done. */
  refresh(alias?: string): Promise<void>;
  /** Tab completion of `@alias:uri` (resources, and templates up to their first parameter). */
  completion: CompletionSource;
  /** `alias/name` of every prompt, for `:prompt`. */
  promptNames(): string[];
  close(): void;
}

/** Candidates a Tab may list at most (a server may have thousands of resources). */
const MAX_CANDIDATES = 200;

/** A template's fixed start: what can be completed before its first `{parameter}`. */
export function literalPrefix(uriTemplate: string): string {
  const brace = uriTemplate.indexOf('{');
  return brace < 0 ? uriTemplate : uriTemplate.slice(0, brace);
}

/** A template ending in its only parameter (`demo://text/{id}`): its fixed start and the parameter's name. */
export function trailingParameter(uriTemplate: string): { fixed: string; name: string } | undefined {
  const match = /^([^{}]*)\{([A-Za-z0-9_]+)\}$/.exec(uriTemplate);
  return match ? { fixed: match[1]!, name: match[2]! } : undefined;
}

/**
 * The server's suggestions (`completion/complete`) for a template's parameter, by what is typed
 * of it. Tab must answer at once: it uses what is known and asks for what is not, so the next Tab
 * has it (the empty value is asked as soon as the lists arrive).
 */
type Suggest = (alias: string, uriTemplate: string, parameter: string, typed: string) => readonly string[];

/** `@` candidates for `word` (the text after `@`) from these catalogs. */
export function completeResourceWord(catalogs: readonly ResourceCatalog[], word: string, suggest?: Suggest): string[] {
  const colon = word.indexOf(':');
  const offered = catalogs.filter((catalog) => catalog.resources.length > 0 || catalog.templates.length > 0);
  // Before the colon: the servers whose alias starts so; one server only: its resources straight away
  // (an `alias:` alone would end the word with a space).
  const servers = colon < 0 ? offered.filter((catalog) => catalog.alias.startsWith(word)) : offered.filter((catalog) => catalog.alias === word.slice(0, colon));
  const rest = colon < 0 ? '' : word.slice(colon + 1);
  const out = new Set<string>();
  for (const catalog of servers) {
    for (const resource of catalog.resources) if (resource.uri.startsWith(rest)) out.add(`${catalog.alias}:${resource.uri}`);
    for (const template of catalog.templates) {
      const fixed = literalPrefix(template.uriTemplate);
      if (fixed.startsWith(rest) && fixed.length > 0 && fixed !== rest) out.add(`${catalog.alias}:${fixed}`);
      const parameter = trailingParameter(template.uriTemplate);
      if (!parameter || !suggest || !rest.startsWith(parameter.fixed)) continue;
      const typed = rest.slice(parameter.fixed.length);
      if (typed.includes('/')) continue;
      for (const value of suggest(catalog.alias, template.uriTemplate, parameter.name, typed)) if (value.startsWith(typed)) out.add(`${catalog.alias}:${parameter.fixed}${value}`);
    }
    if (out.size >= MAX_CANDIDATES) break;
  }
  return [...out].sort().slice(0, MAX_CANDIDATES);
}

/** Two `@` sources as one: the files here and the servers' resources. */
export function mergeCompletions(...sources: CompletionSource[]): CompletionSource {
  return { trigger: '@', complete: (word) => [...new Set(sources.flatMap((source) => source.complete(word)))].sort() };
}

/** `onUpdated` hears of a subscribed resource's change once, until it is read again. */
export function createResourceIndex(mcp: McpManagerService, onUpdated?: (alias: string, uri: string) => void, onChange?: (alias: string) => void): ResourceIndex {
  const catalogs = new Map<string, ResourceCatalog>();
  const prompts = new Map<string, McpPromptInfo[]>();
  const updated = new Set<string>();
  const ready = new Set<string>();
  /** Template suggestions by `alias\0template\0typed`; a pending entry is an empty list. */
  const suggestions = new Map<string, readonly string[]>();
  const suggest: Suggest = (alias, uriTemplate, parameter, typed) => {
    const key = `${alias}\u0000${uriTemplate}\u0000${typed}`;
    const known = suggestions.get(key);
    if (known) return known;
    if (suggestions.size > 500) suggestions.clear();
    suggestions.set(key, []);
    void mcp.completeArgument?.(alias, { type: 'template', uri: uriTemplate }, parameter, typed).then((values) => suggestions.set(key, values));
    // Meanwhile the values offered for nothing typed, which the caller narrows to what is typed.
    return suggestions.get(`${alias}\u0000${uriTemplate}\u0000`) ?? [];
  };

  const fetch = async (alias: string) => {
    const [catalog, listed] = await Promise.all([mcp.resourceCatalog?.(alias), mcp.listPrompts?.(alias)]);
    if (!ready.has(alias)) return;
    if (catalog) catalogs.set(alias, catalog);
    if (listed) prompts.set(alias, listed.prompts);
    for (const key of [...suggestions.keys()]) if (key.startsWith(`${alias}\u0000`)) suggestions.delete(key);
    // The suggestions for an empty parameter are asked now, so the first Tab can offer them.
    for (const template of catalog?.templates ?? []) {
      const parameter = trailingParameter(template.uriTemplate);
      if (parameter) suggest(alias, template.uriTemplate, parameter.name, '');
    }
    onChange?.(alias);
  };
  const drop = (alias: string) => {
    ready.delete(alias);
    catalogs.delete(alias);
    prompts.delete(alias);
    onChange?.(alias);
  };
  const stopServers = mcp.subscribe((event) => {
    if (event.type === 'removed') return drop(event.alias);
    if (event.type !== 'server') return;
    const { alias, state } = event.snapshot;
    if (state !== 'ready') return drop(alias);
    if (ready.has(alias)) return;
    ready.add(alias);
    void fetch(alias);
  });
  const stopCatalog = mcp.onCatalogEvent?.((event) => {
    if (event.type === 'resource-updated') {
      const key = `${event.alias}:${event.uri}`;
      if (updated.has(key)) return;
      updated.add(key);
      onUpdated?.(event.alias, event.uri);
      onChange?.(event.alias);
    }
    else if (ready.has(event.alias)) void fetch(event.alias);
  });

  return {
    catalogs: () => [...catalogs.values()],
    prompts: () => [...prompts.values()].flat(),
    updated: () => updated,
    markRead(alias, uri) {
      if (updated.delete(`${alias}:${uri}`)) onChange?.(alias);
    },
    async refresh(alias) {
      for (const snapshot of mcp.servers()) if (snapshot.state === 'ready') ready.add(snapshot.alias);
      const aliases = alias ? [alias] : [...ready];
      await Promise.all(aliases.map((one) => fetch(one)));
    },
    completion: { trigger: '@', complete: (word) => completeResourceWord([...catalogs.values()], word, suggest) },
    promptNames: () => [...prompts.values()].flat().map((prompt) => `${prompt.alias}/${prompt.name}`).sort(),
    close() {
      stopServers();
      stopCatalog?.();
    },
  };
}
