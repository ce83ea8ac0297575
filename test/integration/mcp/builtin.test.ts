import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testManager, type TestManager } from '../../helpers/mcp';

// The built-in tools are a real MCP server; they are tested through the client like any other.

let test: TestManager;
beforeAll(async () => {
  test = testManager({ builtin: true });
  test.manager.connectAll({});
  await test.manager.settled(5_000);
});
afterAll(() => test.dispose());

describe('the built-in server', () => {
  it('is listed as alias builtin over the in-memory transport', () => {
    const [snapshot] = test.manager.servers();
    expect(snapshot).toMatchObject({ alias: 'builtin', target: 'built-in', state: 'ready', transport: 'in-memory', serverName: 'aish-builtin' });
    expect(snapshot?.tools.map((tool) => tool.name)).toEqual(['calculator', 'get_time', 'roll_dice']);
    expect(snapshot?.tools[0]?.inputSchema).toMatchObject({ type: 'object', required: ['expression'] });
  });

  it('calculates', async () => {
    expect(await test.manager.callTool('builtin', 'calculator', { expression: 'sqrt(16) + 2^10 / (3 - 1)' })).toEqual({ kind: 'ok', content: '516', isError: false });
  });

  it('reports a bad expression as a tool error the model can read', async () => {
    expect(await test.manager.callTool('builtin', 'calculator', { expression: 'import os' })).toEqual({
      kind: 'tool-error',
      content: '[aish] the tool reported an error: Error: unknown name "import" at position 1',
      isError: true,
    });
  });

  it('tells the time in a zone and rejects unknown zones', async () => {
    const iso = await test.manager.callTool('builtin', 'get_time', { timezone: 'Asia/Kolkata', format: 'iso' });
    expect(iso.content).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+05:30$/);
    const bad = await test.manager.callTool('builtin', 'get_time', { timezone: 'Nowhere/Land' });
    expect(bad).toMatchObject({ kind: 'tool-error', isError: true });
    expect(bad.content).toContain('unknown time zone "Nowhere/Land"');
    const badFormat = await test.manager.callTool('builtin', 'get_time', { format: 'julian' });
    expect(badFormat.kind).toBe('invalid-arguments');
  });

  it('rolls dice within the limits', async () => {
    const roll = await test.manager.callTool('builtin', 'roll_dice', { notation: '4d6kh3+1' });
    expect(roll.content).toMatch(/^Rolled 4d6kh3\+1: \[\d, \d, \d, \d\] -> kept \[\d, \d, \d\] \+ 1 = \d+$/);
    const tooMany = await test.manager.callTool('builtin', 'roll_dice', { notation: '1000d6' });
    expect(tooMany).toMatchObject({ kind: 'tool-error', content: '[aish] the tool reported an error: Error: too many dice: 1000 (at most 100)' });
    const missing = await test.manager.callTool('builtin', 'roll_dice', {});
    expect(missing.content).toMatch(/^\[aish\] tool arguments invalid: .*notation/);
  });
});
