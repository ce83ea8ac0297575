import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/services/config/load';
import type { McpToolInfo, ServerSnapshot } from '../../../src/services/mcp/index';
import { buildToolIndex } from '../../../src/services/tools/names';
import { memorySwitchStore } from '../../../src/services/tools/switches';
import { createToolBudget } from '../../../src/runtime/tool-budget';

// README.md, "Tool budget", a stable prefix: the tools array is ordered by alias, then tool name,
// and stays the very same array until a tool list or a switch changes.

const tool = (name: string): McpToolInfo => ({ name, description: name, inputSchema: { type: 'object' } });
const server = (alias: string, names: string[]): ServerSnapshot => ({ alias, target: alias, state: 'ready', tools: names.map(tool), stderr: [] });
const names = (specs: Array<{ function: { name: string } }>) => specs.map((spec) => spec.function.name);

describe('the tools array', () => {
  it('is ordered by alias, then tool name, whatever order servers and tools come in', () => {
    const index = buildToolIndex([server('zeta', ['b', 'a']), server('alpha', ['z', 'B', 'm'])]);
    expect(names(index.specs)).toEqual(['alpha__B', 'alpha__m', 'alpha__z', 'zeta__a', 'zeta__b']);
    expect(names(buildToolIndex([server('alpha', ['m', 'z', 'B']), server('zeta', ['a', 'b'])]).specs)).toEqual(names(index.specs));
  });

  it('is the same array while nothing changes; one server\'s new list keeps the others\' definitions and places', () => {
    const a = server('a', ['one', 'two']);
    const b = server('b', ['x']);
    const c = server('c', ['y']);
    const first = buildToolIndex([a, b, c]);
    expect(buildToolIndex([a, b, c]).specs).toBe(first.specs);
    const b2 = server('b', ['x', 'w']);
    const second = buildToolIndex([a, b2, c]);
    expect(names(second.specs)).toEqual(['a__one', 'a__two', 'b__w', 'b__x', 'c__y']);
    expect(second.specs[0]).toBe(first.specs[0]);
    expect(second.specs[1]).toBe(first.specs[1]);
    expect(second.specs[4]).toBe(first.specs[3]);
  });

  it('the request\'s offer is cached until the switches or the found tools change', async () => {
    const config = await loadConfig({ env: { HOME: '/nonexistent-home' }, cwd: '/' });
    const budget = createToolBudget(config, '/', { store: memorySwitchStore() });
    const model = { ...config.models[config.defaultModel]!, contextWindow: 1_000_000 };
    const index = buildToolIndex([server('a', ['one', 'two'])]);
    const first = budget.offer(index, [], model);
    expect(budget.offer(index, [], model).specs).toBe(first.specs);
    budget.switches.setTool('a', 'one', false);
    const second = budget.offer(index, [], model);
    expect(names(second.specs)).toEqual(['a__two']);
    expect(budget.offer(index, [], model).specs).toBe(second.specs);
  });
});
