import { describe, expect, it } from 'vitest';
import { createApprovalPolicy, parseRulePattern } from '../../../src/services/tools/policy';

// Seed checkpoint for commit #2 (safety.lua): exact match allows, `alias__*` glob allows, a miss
// asks. Plus what the TypeScript design adds: deny wins, session rules, headless, pinned definitions.
describe('approval policy', () => {
  it('allows an exact alias__tool rule and asks for the other tools of that server', () => {
    const policy = createApprovalPolicy({ autoApprove: { fs__read_file: true } });
    expect(policy.decide('fs', 'read_file')).toEqual({ action: 'allow', rule: 'config mcp.autoApprove fs__read_file' });
    expect(policy.decide('fs', 'write_file')).toEqual({ action: 'ask' });
  });

  it('allows every tool of a server with alias__*', () => {
    const policy = createApprovalPolicy({ autoApprove: { 'builtin__*': true } });
    expect(policy.decide('builtin', 'calculator').action).toBe('allow');
    expect(policy.decide('builtin', 'roll_dice').action).toBe('allow');
    expect(policy.decide('other', 'calculator')).toEqual({ action: 'ask' });
  });

  it('matches the (alias, tool) pair, never a string prefix of the wire name', () => {
    // `fs__*` must not cover the server `fs-remote`, nor `fs__read` cover a tool `read_file`.
    const policy = createApprovalPolicy({ autoApprove: { 'fs__*': true, fs__read: true } });
    expect(policy.decide('fs-remote', 'read_file').action).toBe('ask');
    expect(policy.decide('fsx', 'anything').action).toBe('ask');
    const exact = createApprovalPolicy({ autoApprove: { fs__read: true } });
    expect(exact.decide('fs', 'read_file').action).toBe('ask');
    expect(exact.decide('fs', 'read').action).toBe('allow');
  });

  it('splits a rule at the leftmost __ so tool names keep their underscores', () => {
    expect(parseRulePattern('srv__get__thing')).toEqual({ alias: 'srv', tool: 'get__thing' });
    const policy = createApprovalPolicy({ autoApprove: { srv__get__thing: true } });
    expect(policy.decide('srv', 'get__thing').action).toBe('allow');
    expect(policy.decide('srv__get', 'thing').action).toBe('ask');
  });

  it('lets a deny rule win over any allow, including a server glob and a session rule', () => {
    const policy = createApprovalPolicy({ autoApprove: { 'fs__*': true, fs__delete: false } });
    expect(policy.decide('fs', 'delete')).toEqual({ action: 'deny', rule: 'config mcp.autoApprove fs__delete' });
    expect(policy.decide('fs', 'read').action).toBe('allow');
    policy.addSessionRule('tool', 'fs', 'delete');
    expect(policy.decide('fs', 'delete').action).toBe('deny');
    const serverDenied = createApprovalPolicy({ autoApprove: { 'fs__*': false, fs__read: true } });
    expect(serverDenied.decide('fs', 'read').action).toBe('deny');
  });

  it('session rules: "always this tool" and "always this server"', () => {
    const policy = createApprovalPolicy();
    expect(policy.decide('everything', 'echo').action).toBe('ask');
    expect(policy.addSessionRule('tool', 'everything', 'echo')).toBe('everything__echo');
    expect(policy.decide('everything', 'echo')).toEqual({ action: 'allow', rule: 'session rule everything__echo' });
    expect(policy.decide('everything', 'add').action).toBe('ask');
    expect(policy.addSessionRule('server', 'everything', 'add')).toBe('everything__*');
    expect(policy.decide('everything', 'add').action).toBe('allow');
    expect(policy.decide('builtin', 'add').action).toBe('ask');
    policy.addSessionRule('tool', 'everything', 'echo');
    expect(policy.sessionRules()).toEqual(['everything__echo', 'everything__*']);
  });

  it('headless never asks: allowed by config or --auto-approve, otherwise denied', () => {
    const policy = createApprovalPolicy({ headless: true, autoApprove: { builtin__calculator: true }, allow: ['everything__*'] });
    expect(policy.decide('builtin', 'calculator').action).toBe('allow');
    expect(policy.decide('everything', 'echo')).toEqual({ action: 'allow', rule: '--auto-approve everything__*' });
    expect(policy.decide('builtin', 'roll_dice')).toMatchObject({ action: 'deny', headless: true });
  });

  it('rejects malformed patterns with a message naming where they came from', () => {
    expect(() => createApprovalPolicy({ allow: ['calculator'] })).toThrow('--auto-approve: expected "alias__tool" or "alias__*", got "calculator"');
    expect(() => createApprovalPolicy({ allow: ['fs__re*'] })).toThrow('only "alias__*" globs');
    expect(() => createApprovalPolicy({ autoApprove: { 'a b__x': true } })).toThrow('mcp.autoApprove');
  });

  it('a changed tool definition loses its allow rules and is asked again; deny still wins', () => {
    const accepted: string[] = [];
    const changed = new Set(['fs/read']);
    const policy = createApprovalPolicy({
      autoApprove: { 'fs__*': true, fs__delete: false },
      definitions: {
        changeOf: (alias, tool) => (changed.has(`${alias}/${tool}`) || tool === 'delete' ? 'description changed since you approved this tool' : undefined),
        accept: (alias, tool) => {
          accepted.push(`${alias}/${tool}`);
          changed.delete(`${alias}/${tool}`);
        },
      },
    });
    expect(policy.decide('fs', 'read')).toEqual({ action: 'ask', definitionChanged: 'description changed since you approved this tool' });
    expect(policy.decide('fs', 'delete').action).toBe('deny');
    expect(policy.decide('fs', 'list').action).toBe('allow');
    policy.recordUserApproval('fs', 'read');
    expect(accepted).toEqual(['fs/read']);
    expect(policy.decide('fs', 'read').action).toBe('allow');
  });
});
