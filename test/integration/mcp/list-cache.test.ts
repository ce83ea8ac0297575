import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, testManager, type TestManager } from '../../helpers/mcp';

// Issue 20, point 5: a list answer's `ttlMs` lets the client answer from its cache until it
// expires; without one every list asks the server (as before). test/helpers/cache-hint-server.mjs
// names its entries after the number of requests it answered.

const SERVER = path.join(ROOT, 'test', 'helpers', 'cache-hint-server.mjs');

async function connected(env: Record<string, string>): Promise<TestManager> {
  const t = testManager();
  const snapshot = await t.manager.connect('hint', { command: process.execPath, args: [SERVER], env });
  expect(snapshot.state).toBe('ready');
  return t;
}

describe('cache hints on list results', () => {
  let t: TestManager | undefined;
  afterEach(async () => {
    await t?.dispose();
    t = undefined;
  });

  it('a list with ttlMs is served from the cache until asked to refresh', async () => {
    t = await connected({ CACHE_TTL_MS: '600000', CACHE_SCOPE: 'private' });
    const names = async (refresh?: boolean) => (await t!.manager.resourceCatalog!('hint', { refresh })).resources.map((resource) => resource.name);
    expect(await names()).toEqual(['listed 1']);
    expect(await names()).toEqual(['listed 1']);
    expect(await names(true)).toEqual(['listed 2']);
    const prompts = async () => (await t!.manager.listPrompts!('hint')).prompts.map((prompt) => prompt.name);
    expect(await prompts()).toEqual(['listed-1']);
    expect(await prompts()).toEqual(['listed-1']);
  });

  it('without ttlMs every list asks the server', async () => {
    t = await connected({});
    const names = async () => (await t!.manager.resourceCatalog!('hint')).resources.map((resource) => resource.name);
    expect(await names()).toEqual(['listed 1']);
    expect(await names()).toEqual(['listed 2']);
  });

  it('ttlMs 0 is immediately stale', async () => {
    t = await connected({ CACHE_TTL_MS: '0', CACHE_SCOPE: 'public' });
    const prompts = async () => (await t!.manager.listPrompts!('hint')).prompts.map((prompt) => prompt.name);
    expect(await prompts()).toEqual(['listed-1']);
    expect(await prompts()).toEqual(['listed-2']);
  });
});
