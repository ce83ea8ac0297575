import { describe, expect, it } from 'vitest';
import { createResourceIndex } from '../../../src/runtime/resources/resource-index';
import type { CatalogEvent, McpEvent, McpManagerService, ResourceCatalog, ServerSnapshot } from '../../../src/services/mcp/index';

// The session's index of resources and prompts: fetched when a server becomes ready, again when
// it says its lists changed; a subscribed resource that changed is reported once until read again.

function fakeMcp() {
  const listeners = new Set<(event: McpEvent) => void>();
  const catalogListeners = new Set<(event: CatalogEvent) => void>();
  let listed = 0;
  const snapshot: ServerSnapshot = { alias: 'docs', target: 'x', state: 'ready', tools: [], stderr: [] };
  const mcp = {
    servers: () => [snapshot],
    subscribe(listener: (event: McpEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onCatalogEvent(listener: (event: CatalogEvent) => void) {
      catalogListeners.add(listener);
      return () => catalogListeners.delete(listener);
    },
    resourceCatalog: async (alias: string): Promise<ResourceCatalog> => {
      listed += 1;
      return { alias, subscribable: true, resources: [{ uri: `docs://v${listed}`, name: `v${listed}` }], templates: [{ uriTemplate: 'docs://page/{id}', name: 'page', variables: ['id'] }] };
    },
    completeArgument: async (_alias: string, ref: { uri?: string }, parameter: string, typed: string) => (ref.uri === 'docs://page/{id}' && parameter === 'id' ? ['intro', 'install', 'usage'].filter((value) => value.startsWith(typed)) : []),
    listPrompts: async (alias: string) => ({ prompts: [{ alias, name: 'review', arguments: [] }] }),
  } as unknown as McpManagerService;
  return {
    mcp,
    ready: () => listeners.forEach((listener) => listener({ type: 'server', snapshot })),
    gone: () => listeners.forEach((listener) => listener({ type: 'server', snapshot: { ...snapshot, state: 'error' } })),
    catalog: (event: CatalogEvent) => catalogListeners.forEach((listener) => listener(event)),
  };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('resource index', () => {
  it('lists a ready server, lists again on list_changed, forgets it when it goes', async () => {
    const fake = fakeMcp();
    const changes: string[] = [];
    const index = createResourceIndex(fake.mcp, undefined, (alias) => changes.push(alias));
    fake.ready();
    await tick();
    expect(index.catalogs()[0]?.resources.map((resource) => resource.uri)).toEqual(['docs://v1']);
    expect(index.promptNames()).toEqual(['docs/review']);
    fake.catalog({ type: 'catalog-changed', alias: 'docs', what: 'resources' });
    await tick();
    expect(index.catalogs()[0]?.resources.map((resource) => resource.uri)).toEqual(['docs://v2']);
    fake.gone();
    expect(index.catalogs()).toEqual([]);
    expect(changes.length).toBeGreaterThanOrEqual(3);
    index.close();
  });

  it("a template's parameter completes with the server's suggestions (asked ahead for an empty value, else by the previous Tab)", async () => {
    const fake = fakeMcp();
    const index = createResourceIndex(fake.mcp);
    fake.ready();
    await tick();
    await tick();
    expect(index.completion.complete('docs:docs://page/')).toEqual(['docs:docs://page/install', 'docs:docs://page/intro', 'docs:docs://page/usage']);
    expect(index.completion.complete('docs:docs://page/in')).toEqual(['docs:docs://page/install', 'docs:docs://page/intro']);
    expect(index.completion.complete('docs:docs://p')).toEqual(['docs:docs://page/']);
    index.close();
  });

  it('a changed resource is reported once, until it is read again', async () => {
    const fake = fakeMcp();
    const reported: string[] = [];
    const index = createResourceIndex(fake.mcp, (alias, uri) => reported.push(`${alias}:${uri}`));
    fake.ready();
    await tick();
    fake.catalog({ type: 'resource-updated', alias: 'docs', uri: 'docs://v1' });
    fake.catalog({ type: 'resource-updated', alias: 'docs', uri: 'docs://v1' });
    expect(reported).toEqual(['docs:docs://v1']);
    expect(index.updated().has('docs:docs://v1')).toBe(true);
    index.markRead('docs', 'docs://v1');
    expect(index.updated().size).toBe(0);
    fake.catalog({ type: 'resource-updated', alias: 'docs', uri: 'docs://v1' });
    expect(reported).toHaveLength(2);
    index.close();
  });
});
