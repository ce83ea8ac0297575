import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVERYTHING, testManager, type TestManager } from '../../helpers/mcp';
import type { CatalogEvent } from '../../../src/services/mcp/index';

// Resources, resource templates, prompts with arguments and completions of the real
// server-everything over stdio, through the manager's catalog (services/mcp/catalog.ts).

describe('resources and prompts of server-everything (stdio)', () => {
  let t: TestManager;
  const events: CatalogEvent[] = [];

  beforeAll(async () => {
    t = testManager();
    t.manager.onCatalogEvent!((event) => events.push(event));
    const snapshot = await t.manager.connect('everything', { command: process.execPath, args: [EVERYTHING, 'stdio'] });
    expect(snapshot.state).toBe('ready');
  }, 30_000);
  afterAll(async () => t?.dispose());

  it('lists resources and templates with their variables, and says the server takes subscriptions', async () => {
    const catalog = await t.manager.resourceCatalog!('everything');
    expect(catalog.error).toBeUndefined();
    expect(catalog.subscribable).toBe(true);
    expect(catalog.resources.map((resource) => resource.uri)).toContain('demo://resource/static/document/architecture.md');
    const text = catalog.templates.find((template) => template.uriTemplate === 'demo://resource/dynamic/text/{resourceId}');
    expect(text?.variables).toEqual(['resourceId']);
  });

  it('reads a text resource whole, a templated one, and a binary one as type and size only', async () => {
    const doc = await t.manager.readResource!('everything', 'demo://resource/static/document/architecture.md');
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    expect(doc.parts[0]).toMatchObject({ kind: 'text', truncated: false });
    const templated = await t.manager.readResource!('everything', 'demo://resource/dynamic/text/7');
    expect(templated.ok && templated.parts[0]?.kind === 'text' && templated.parts[0].text).toContain('Resource 7');
    const blob = await t.manager.readResource!('everything', 'demo://resource/dynamic/blob/3');
    expect(blob.ok && blob.parts[0]).toMatchObject({ kind: 'binary' });
    expect(blob.ok && blob.parts[0]!.bytes).toBeGreaterThan(0);
  });

  it('cuts a long text at the limit and says so', async () => {
    const doc = await t.manager.readResource!('everything', 'demo://resource/static/document/architecture.md', { maxChars: 100 });
    expect(doc.ok && doc.parts[0]).toMatchObject({ kind: 'text', truncated: true });
    expect(doc.ok && doc.parts[0]!.kind === 'text' && (doc.parts[0] as { text: string }).text.length).toBe(100);
  });

  it('an unknown resource is a clear failure, not a crash', async () => {
    const missing = await t.manager.readResource!('everything', 'demo://nothing/here');
    expect(missing.ok).toBe(false);
    const unknown = await t.manager.readResource!('nobody', 'demo://x');
    expect(unknown).toMatchObject({ ok: false, error: 'no MCP server named "nobody"' });
  });

  it('lists prompts with their arguments and runs one with arguments', async () => {
    const { prompts, error } = await t.manager.listPrompts!('everything');
    expect(error).toBeUndefined();
    const args = prompts.find((prompt) => prompt.name === 'args-prompt');
    expect(args?.arguments).toEqual([expect.objectContaining({ name: 'city', required: true }), expect.objectContaining({ name: 'state', required: false })]);
    const result = await t.manager.getPrompt!('everything', 'args-prompt', { city: 'Lyon' });
    expect(result).toEqual({ ok: true, messages: [{ role: 'user', text: "What's weather in Lyon?", resources: [] }] });
  });

  it('a prompt with an embedded resource gives its text and names the resource', async () => {
    const result = await t.manager.getPrompt!('everything', 'resource-prompt', { resourceType: 'Text', resourceId: '2' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.messages.map((message) => message.text).join('\n')).toContain('Resource 2: This is a plaintext resource');
    expect(result.messages.flatMap((message) => message.resources)).toEqual(['demo://resource/dynamic/text/2']);
  });

  it('offers the server\'s completions for prompt arguments, using earlier arguments as context', async () => {
    expect(await t.manager.completeArgument!('everything', { type: 'prompt', name: 'completable-prompt' }, 'department', 'S')).toEqual(['Sales', 'Support']);
    expect(await t.manager.completeArgument!('everything', { type: 'prompt', name: 'completable-prompt' }, 'name', '', { department: 'Engineering' })).toEqual(['Alice', 'Bob', 'Charlie']);
  });

  it("offers the server's completions for a resource template's parameter", async () => {
    expect(await t.manager.completeArgument!('everything', { type: 'template', uri: 'demo://resource/dynamic/text/{resourceId}' }, 'resourceId', '7')).toEqual(['7']);
    expect(await t.manager.completeArgument!('everything', { type: 'template', uri: 'demo://resource/dynamic/text/{resourceId}' }, 'resourceId', 'x')).toEqual([]);
  });

  it('a failing prompt (bad argument) is one line for the user', async () => {
    const result = await t.manager.getPrompt!('everything', 'resource-prompt', { resourceType: 'Video', resourceId: '1' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toContain('Invalid resourceType');
  });

  it('a subscribed resource that changes is reported', async () => {
    expect(await t.manager.subscribeResource!('everything', 'demo://resource/static/document/architecture.md')).toBe(true);
    // server-everything sends updates (every 5 s) once this tool has switched them on.
    expect((await t.manager.callTool('everything', 'toggle-subscriber-updates', {})).isError).toBe(false);
    await expect.poll(() => events.some((event) => event.type === 'resource-updated' && event.uri === 'demo://resource/static/document/architecture.md'), { timeout: 30_000, interval: 200 }).toBe(true);
  }, 40_000);
});
