import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { McpToolInfo, ServerSnapshot } from '../../../src/services/mcp/types';
import { buildToolIndex, findTool, schemaProblem, WIRE_NAME_PATTERN, wireName } from '../../../src/services/tools/names';

const tool = (name: string, inputSchema: Record<string, unknown> = { type: 'object', properties: {} }): McpToolInfo => ({ name, description: `${name} tool`, inputSchema });
const server = (alias: string, tools: McpToolInfo[], state: ServerSnapshot['state'] = 'ready'): ServerSnapshot => ({ alias, target: 'x', state, tools, stderr: [] });

describe('wire names', () => {
  it('are alias__tool when that is already valid', () => {
    expect(wireName('boltzmann', 'read_file')).toBe('boltzmann__read_file');
  });

  it('replace characters providers reject', () => {
    expect(wireName('fs', 'read.file')).toBe('fs__read_file');
    expect(wireName('fs', 'lire fichier é')).toBe('fs__lire_fichier__');
  });

  it('shorten long names deterministically, keeping the alias', () => {
    const long = 'a'.repeat(100);
    const name = wireName('server', long);
    expect(name).toHaveLength(64);
    expect(name.startsWith('server__aaaa')).toBe(true);
    expect(name).toBe(wireName('server', long));
    expect(wireName('server', `${long}b`)).not.toBe(name);
  });

  it('always match the strictest provider pattern', () => {
    const alias = fc.stringMatching(/^[A-Za-z0-9-]{1,32}$/);
    fc.assert(fc.property(alias, fc.string({ minLength: 1, maxLength: 200 }), (a, t) => WIRE_NAME_PATTERN.test(wireName(a, t))));
  });
});

describe('buildToolIndex', () => {
  it('builds again whenever a tool list, a state or the limits differ from the last call', () => {
    const tools = [tool('x')];
    const first = buildToolIndex([server('a', tools)]);
    // Same snapshots' contents: the same index (nothing is serialized again).
    expect(buildToolIndex([server('a', tools)])).toBe(first);
    const relisted = buildToolIndex([server('a', [tool('x'), tool('y')])]);
    expect([...relisted.byWireName.keys()]).toEqual(['a__x', 'a__y']);
    expect(buildToolIndex([server('a', tools, 'error')]).specs).toEqual([]);
    expect(buildToolIndex([server('b', tools)]).byWireName.has('b__x')).toBe(true);
    const big = tool('big', { type: 'object', description: 'x'.repeat(2048) });
    const list = [big];
    expect(buildToolIndex([server('a', list)]).specs).toHaveLength(1);
    const tight = buildToolIndex([server('a', list)], { inputSchemaBytes: 1024, inputSchemaDepth: 32 });
    expect(tight.specs).toHaveLength(0);
    expect(tight.problems[0]).toMatch(/a__big withheld from the model/);
  });

  it('offers the tools of ready servers only, and maps wire names back without parsing', () => {
    const index = buildToolIndex([
      server('a', [tool('x__y')]),
      server('a_x', [tool('y')]),
      server('down', [tool('z')], 'error'),
    ]);
    expect(index.specs.map((spec) => spec.function.name)).toEqual(['a__x__y', 'a_x__y']);
    // A tool name containing "__" stays with its own server.
    expect(index.byWireName.get('a__x__y')).toMatchObject({ alias: 'a', tool: 'x__y' });
    expect(index.byWireName.get('a_x__y')).toMatchObject({ alias: 'a_x', tool: 'y' });
    expect(index.specs[0]).toEqual({ type: 'function', function: { name: 'a__x__y', description: 'x__y tool', parameters: { type: 'object', properties: {} } } });
  });

  it('detects tools that collide after cleaning and gives both a distinct hashed name', () => {
    const index = buildToolIndex([server('fs', [tool('read.file'), tool('read_file')])]);
    const names = index.specs.map((spec) => spec.function.name);
    expect(new Set(names).size).toBe(2);
    expect(names.every((name) => WIRE_NAME_PATTERN.test(name) && name !== 'fs__read_file')).toBe(true);
    expect(index.problems.filter((line) => line.includes('collides'))).toHaveLength(2);
    expect([...index.byWireName.values()].map((entry) => entry.tool).sort()).toEqual(['read.file', 'read_file']);
  });

  it('reports renamed tools', () => {
    const index = buildToolIndex([server('fs', [tool('read.file')])]);
    expect(index.problems).toEqual(['fs__read.file is sent to the model as fs__read_file']);
  });

  it('withholds tools whose schema is too large or too deep', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i += 1) deep = { type: 'object', properties: { next: deep } };
    const big = { type: 'object', properties: Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`field${i}`, { type: 'string', description: 'x'.repeat(20) }])) };
    const index = buildToolIndex([server('s', [tool('deep', deep), tool('big', big), tool('fine')])]);
    expect(index.specs.map((spec) => spec.function.name)).toEqual(['s__fine']);
    expect(index.problems).toEqual([
      expect.stringMatching(/^s__big withheld from the model: its input schema is \d+ KB \(limit 64 KB\)$/),
      expect.stringMatching(/^s__deep withheld from the model: its input schema is nested deeper than 32 levels$/),
    ]);
    expect(schemaProblem(deep, { inputSchemaBytes: 1 << 20, inputSchemaDepth: 200 })).toBeUndefined();
  });

  it('gives schema-less tools an object schema', () => {
    const index = buildToolIndex([server('s', [{ name: 'bare', inputSchema: {} }])]);
    expect(index.specs[0]?.function.parameters).toEqual({ type: 'object', properties: {} });
  });

  it('finds a tool by its displayed name', () => {
    const servers = [server('a', [tool('x__y')])];
    expect(findTool(servers, 'a__x__y')?.info.name).toBe('x__y');
    expect(findTool(servers, 'a__nope')).toBeUndefined();
    expect(findTool(servers, 'nosep')).toBeUndefined();
  });
});
