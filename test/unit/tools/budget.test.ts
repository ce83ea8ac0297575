import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ToolSpec } from '../../../src/services/broker/types';
import { estimateTokens } from '../../../src/services/context/estimate';
import type { Message } from '../../../src/services/conversation/types';
import type { McpToolInfo, ServerSnapshot } from '../../../src/services/mcp/index';
import { offerTools, searchNeeded, serverCosts, TOOL_SEARCH_NAME, toolBudgetTokens, toolsContextPart, type BudgetSettings } from '../../../src/services/tools/budget';
import { buildToolIndex } from '../../../src/services/tools/names';
import { formatSearchResult, loadedTools } from '../../../src/services/tools/search';
import { createFileSwitchStore, createToolSwitches, globMatches, memorySwitchStore } from '../../../src/services/tools/switches';

// README.md, "Tool budget": costs, the budget decision, switches and what tool search keeps.

const tool = (name: string, description = `does ${name}`): McpToolInfo => ({ name, description, inputSchema: { type: 'object', properties: { value: { type: 'string' } } } });
const server = (alias: string, names: string[]): ServerSnapshot => ({ alias, target: alias, state: 'ready', tools: names.map((name) => tool(name)), stderr: [] });
const estimate = (spec: ToolSpec) => estimateTokens(JSON.stringify(spec));
const auto: BudgetSettings = { mode: 'auto', threshold: 0.1, fallbackTokens: 4000 };
const on = () => ({ enabled: true, source: 'default' as const });

describe('the tool budget', () => {
  it('is a share of the context window, or the absolute fallback while the window is unknown', () => {
    expect(toolBudgetTokens(8000, auto)).toBe(800);
    expect(toolBudgetTokens(128_000, { threshold: 0.15, fallbackTokens: 4000 })).toBe(19_200);
    expect(toolBudgetTokens(undefined, auto)).toBe(4000);
  });

  it('auto searches only past the budget; always and off do as they say; nothing to defer never searches', () => {
    expect(searchNeeded(700, 10, 8000, auto)).toBe(false);
    expect(searchNeeded(900, 10, 8000, auto)).toBe(true);
    expect(searchNeeded(3900, 10, undefined, auto)).toBe(false);
    expect(searchNeeded(4100, 10, undefined, auto)).toBe(true);
    expect(searchNeeded(10, 10, 8000, { ...auto, mode: 'always' })).toBe(true);
    expect(searchNeeded(1_000_000, 10, 8000, { ...auto, mode: 'off' })).toBe(false);
    expect(searchNeeded(1_000_000, 0, 8000, auto)).toBe(false);
  });

  it('a tool costs the estimated tokens of its definition as sent', () => {
    const index = buildToolIndex([server('fs', ['read_file'])]);
    expect(index.tools[0]!.tokens).toBe(estimateTokens(JSON.stringify(index.specs[0])));
    expect(index.tools[0]!.tokens).toBeGreaterThan(10);
  });

  it('with search on, sends tool_search, the found and used tools, and alwaysLoad servers in full', () => {
    const index = buildToolIndex([server('big', ['a', 'b', 'c', 'd']), server('core', ['x'])]);
    const offer = offerTools(
      { index, state: on, alwaysLoad: (alias) => alias === 'core', loaded: new Set(['big__c', 'big__gone']), windowTokens: 100, settings: auto },
      estimate,
    );
    expect(offer.searching).toBe(true);
    expect(offer.specs.map((spec) => spec.function.name)).toEqual([TOOL_SEARCH_NAME, 'big__c', 'core__x']);
    expect(offer.searchable.map((entry) => entry.wireName)).toEqual(['big__a', 'big__b', 'big__c', 'big__d']);
    expect(offer.specs[0]!.function.description).toContain('3 more tools');
    expect(offer.sentTokens).toBeLessThan(offer.enabledTokens);
    const part = toolsContextPart(offer, index, estimate);
    expect(part.byServer).toEqual([
      { alias: 'big', tokens: index.byWireName.get('big__c')!.tokens, tools: 1 },
      { alias: 'core', tokens: index.byWireName.get('core__x')!.tokens, tools: 1 },
    ]);
    expect(part.tokens).toBe(part.searchTokens + part.byServer.reduce((sum, entry) => sum + entry.tokens, 0));
  });

  it('switched-off tools are neither sent nor searchable, and are counted apart', () => {
    const index = buildToolIndex([server('s', ['keep', 'drop'])]);
    const state = (_alias: string, name: string) => ({ enabled: name !== 'drop', source: 'switched' as const });
    const offer = offerTools({ index, state, alwaysLoad: () => false, loaded: new Set(), windowTokens: undefined, settings: { ...auto, mode: 'off' } }, estimate);
    expect(offer.specs.map((spec) => spec.function.name)).toEqual(['s__keep']);
    const searching = offerTools({ index, state, alwaysLoad: () => false, loaded: new Set(['s__drop']), windowTokens: undefined, settings: { ...auto, mode: 'always' } }, estimate);
    expect(searching.specs.map((spec) => spec.function.name)).toEqual([TOOL_SEARCH_NAME]);
    expect(searching.searchable.map((entry) => entry.tool)).toEqual(['keep']);
    const [cost] = serverCosts(index, state);
    expect(cost).toMatchObject({ alias: 's', tools: 1, offTools: 1, tokens: index.byWireName.get('s__keep')!.tokens, offTokens: index.byWireName.get('s__drop')!.tokens });
  });

  it('the tools a search returned and the tools called are read back from the history', () => {
    const at = '2026-01-01T00:00:00Z';
    const history: Message[] = [
      { id: '1', role: 'user', content: 'hi', at },
      { id: '2', role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: TOOL_SEARCH_NAME, arguments: '{"query":"files"}' }, { id: 'c2', name: 'fs__write', arguments: '{}' }], at },
      { id: '3', role: 'tool', toolCallId: 'c1', name: TOOL_SEARCH_NAME, content: formatSearchResult('files', [{ wireName: 'fs__read', summary: 'reads — a file' }]), isError: false, at },
      { id: '4', role: 'tool', toolCallId: 'c2', name: 'fs__write', content: 'fs__other — not a search result', isError: false, at },
    ];
    expect([...loadedTools(history)].sort()).toEqual(['fs__read', 'fs__write']);
  });
});

describe('tool switches', () => {
  const config = { s: { command: 'x', enabledTools: ['read_*', 'list'], disabledTools: ['read_secret'] } };

  it('globs: * and ? on the whole name, everything else literal', () => {
    expect(globMatches('read_*', 'read_file')).toBe(true);
    expect(globMatches('read_*', 'xread_file')).toBe(false);
    expect(globMatches('a.b?', 'a.bc')).toBe(true);
    expect(globMatches('a.b?', 'axbc')).toBe(false);
  });

  it('the config decides (disabledTools wins), the user\'s switch wins over it, reset forgets', () => {
    const switches = createToolSwitches(() => config, memorySwitchStore());
    expect(switches.state('s', 'read_file')).toEqual({ enabled: true, source: 'default' });
    expect(switches.state('s', 'read_secret')).toEqual({ enabled: false, source: 'config' });
    expect(switches.state('s', 'write')).toEqual({ enabled: false, source: 'config' });
    switches.setTool('s', 'write', true);
    expect(switches.state('s', 'write')).toEqual({ enabled: true, source: 'switched' });
    switches.setTool('s', 'read_file', true); // what the config says anyway: no switch kept
    expect(switches.entries()).toEqual({ s__write: true });
    switches.setServer('s', false, ['read_file', 'write']);
    expect(switches.entries()).toEqual({ s: false });
    expect(switches.state('s', 'read_file')).toEqual({ enabled: false, source: 'switched' });
    switches.setServer('s', true, ['read_file', 'write']);
    expect(switches.entries()).toEqual({});
    switches.setTool('s', 'list', false);
    const before = switches.version;
    expect(switches.reset()).toBe(1);
    expect(switches.version).toBeGreaterThan(before);
    expect(switches.state('s', 'list')).toEqual({ enabled: true, source: 'default' });
  });

  it('are remembered per working directory, in a 0600 file', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aish-switches-'));
    const file = path.join(dir, 'state', 'tool-switches.json');
    const here = createToolSwitches(() => ({}), createFileSwitchStore(file, '/projects/a'));
    here.setTool('fs', 'write_file', false);
    expect((statSync(file).mode & 0o777).toString(8)).toBe('600');
    expect(createToolSwitches(() => ({}), createFileSwitchStore(file, '/projects/a')).state('fs', 'write_file')).toEqual({ enabled: false, source: 'switched' });
    expect(createToolSwitches(() => ({}), createFileSwitchStore(file, '/projects/b')).state('fs', 'write_file')).toEqual({ enabled: true, source: 'default' });
    here.reset();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1, directories: {} });
  });
});
