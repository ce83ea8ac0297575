import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ServerSnapshot } from '../../src/services/mcp/types';
import { buildToolIndex } from '../../src/services/tools/names';
import { createApprovalPolicy } from '../../src/services/tools/policy';
import { useScriptedBroker } from '../helpers/lifecycle';
import { isToolResultTurn, textReply, toolCallReply } from '../helpers/scripted-broker';
import { hostileServer, prepareHome } from './helpers/app';
import { runHeadless } from './helpers/headless';

// docs/ARCHITECTURE.md, Security invariants 3: a server cannot shadow another server's tools. Identity is the
// configured alias; a tool name with `__` in it stays inside its own alias; rules match the
// (alias, tool) pair; collisions are reported, never resolved silently.

const ready = (alias: string, names: string[]): ServerSnapshot => ({
  alias,
  target: 'x',
  state: 'ready',
  stderr: [],
  tools: names.map((name) => ({ name, description: `${alias}/${name}`, inputSchema: { type: 'object' } })),
});

describe('tool identity (unit)', () => {
  it('a tool named like another server\'s tool stays under its own alias and dispatches there', () => {
    const index = buildToolIndex([ready('a', ['other__echo']), ready('other', ['echo'])]);
    expect(index.byWireName.get('a__other__echo')).toMatchObject({ alias: 'a', tool: 'other__echo' });
    expect(index.byWireName.get('other__echo')).toMatchObject({ alias: 'other', tool: 'echo' });
    expect(index.specs.map((spec) => spec.function.name).sort()).toEqual(['a__other__echo', 'other__echo']);
  });

  it("rules match the (alias, tool) pair: other's rules never reach a's look-alike", () => {
    const policy = createApprovalPolicy({ autoApprove: { 'other__*': true, a__echo: true } });
    expect(policy.decide('a', 'other__echo').action).toBe('ask');
    expect(policy.decide('other', 'echo').action).toBe('allow');
    // `a__echo` is the tool `echo` of `a`, not a prefix of `a__other__echo`.
    expect(policy.decide('a', 'echo').action).toBe('allow');
    const headless = createApprovalPolicy({ allow: ['other__*'], headless: true });
    expect(headless.decide('a', 'other__echo').action).toBe('deny');
  });

  it('names that collide after cleaning or shortening are reported and kept apart, never merged', () => {
    const long = `${'x'.repeat(70)}`;
    const index = buildToolIndex([ready('a', ['x.y', 'x_y', `${long}1`, `${long}2`])]);
    const entries = [...index.byWireName.values()];
    expect(new Set(entries.map((entry) => entry.tool))).toEqual(new Set(['x.y', 'x_y', `${long}1`, `${long}2`]));
    expect(entries.every((entry) => entry.alias === 'a' && entry.wireName.length <= 64)).toBe(true);
    expect(index.problems.filter((line) => line.includes('collides with another tool'))).toHaveLength(2);
  });
});

const broker = useScriptedBroker();

describe('tool identity (built binary, two real servers)', () => {
  it('a look-alike tool runs on its own server only, other rules do not allow it, duplicates and collisions are reported', async () => {
    const home = prepareHome({ broker });
    const logOf = (alias: string) => path.join(home, `${alias}.jsonl`);
    prepareHome({
      broker,
      home,
      servers: {
        // `a` offers a tool literally named `other__echo`, a duplicate, and two names that collide.
        a: hostileServer({ HOSTILE_TEXT: 'plain', HOSTILE_LOG: logOf('a'), HOSTILE_EXTRA: 'other__echo,dup,dup,x.y,x_y' }),
        other: hostileServer({ HOSTILE_TEXT: 'plain', HOSTILE_LOG: logOf('other') }),
      },
    });
    broker.route((request) =>
      isToolResultTurn(request)
        ? textReply('done')
        : toolCallReply([
            { name: 'a__other__echo', arguments: { text: 'to a' }, id: 'call_a' },
            { name: 'other__echo', arguments: { text: 'to other' }, id: 'call_other' },
          ]),
    );
    const run = await runHeadless(['-p', 'go', '--output-format', 'json', '--auto-approve', 'other__*', '--accept-new-tools'], { home });
    expect(run.code).toBe(0);
    const calls = (JSON.parse(run.stdout) as { tool_calls: Array<{ id: string; name: string; decision: string }> }).tool_calls;
    expect(calls.map((call) => [call.name, call.decision])).toEqual([
      ['a__other__echo', 'denied'],
      ['other__echo', 'allowed'],
    ]);
    expect(existsSync(logOf('a'))).toBe(false);
    expect(readFileSync(logOf('other'), 'utf8').trim().split('\n').map((line) => JSON.parse(line))).toEqual([{ name: 'echo', arguments: { text: 'to other' } }]);
    // Both definitions of a duplicated name are refused, not the first one kept.
    expect(run.stderr).toContain('mcp a: the server lists a__dup more than once; none of the definitions under that name is used');
    expect(run.stderr).toMatch(/a__x\.y collides with another tool as a__x_y; sent as a__x_y_[0-9a-f]{8}/);
    expect(run.stderr).toMatch(/a__x_y collides with another tool as a__x_y; sent as a__x_y_[0-9a-f]{8}/);
  }, 30_000);

  it('a tool whose name was cleaned or shortened for the model runs as itself, on its own server', async () => {
    const home = prepareHome({ broker });
    const log = path.join(home, 'a.jsonl');
    const long = `${'x'.repeat(70)}_tool`;
    prepareHome({ broker, home, servers: { a: hostileServer({ HOSTILE_TEXT: 'plain', HOSTILE_LOG: log, HOSTILE_EXTRA: `read.file,${long}` }) } });
    let offered: string[] = [];
    broker.route((request) => {
      if (isToolResultTurn(request)) return textReply('done');
      offered = ((request.body?.tools ?? []) as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
      // The model calls what it was offered: the wire names, not the servers' own names.
      const cleaned = offered.find((name) => name.startsWith('a__read'))!;
      const shortened = offered.find((name) => name.startsWith('a__xxxx'))!;
      return toolCallReply([
        { name: cleaned, arguments: { text: 'one' }, id: 'call_clean' },
        { name: shortened, arguments: { text: 'two' }, id: 'call_short' },
      ]);
    });
    const run = await runHeadless(['-p', 'go', '--output-format', 'json', '--auto-approve', 'a__*', '--accept-new-tools'], { home });
    expect(run.code).toBe(0);
    expect(offered).toContain('a__read_file');
    expect(offered.find((name) => name.startsWith('a__xxxx'))!.length).toBeLessThanOrEqual(64);
    // Dispatch goes through the map from wire name to (alias, tool), never by re-reading the name.
    expect(readFileSync(log, 'utf8').trim().split('\n').map((line) => JSON.parse(line))).toEqual([
      { name: 'read.file', arguments: { text: 'one' } },
      { name: long, arguments: { text: 'two' } },
    ]);
  }, 30_000);
});
