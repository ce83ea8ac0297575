import { describe, expect, it } from 'vitest';
import { configSchema } from '../../../src/services/config/schema';
import { createArgumentGuard, createArgumentMatcher, DEFAULT_SENSITIVE_PATHS } from '../../../src/services/tools/argument-guard';
import { createApprovalPolicy, type PolicyOptions } from '../../../src/services/tools/policy';

// docs/ARCHITECTURE.md, Security invariants 8: a rule allows a (server, tool) pair, never any
// arguments. The one decision point sends a flagged call back to "ask" (headless: denied), unless
// an argument rule names the flagged argument.

const HOME = '/home/u';
const guard = { check: createArgumentGuard({ home: HOME, cwd: '/home/u/p', sensitivePaths: DEFAULT_SENSITIVE_PATHS, appPaths: ['/home/u/.config/aish', '/home/u/.local/state/aish'] }), matches: createArgumentMatcher(HOME, '/home/u/p') };
const policy = (options: PolicyOptions = {}) => createApprovalPolicy({ guard, ...options });
const rules = (argumentRules: unknown[]) => configSchema.parse({ mcp: { argumentRules } }).mcp.argumentRules;

describe('an allowed call with dangerous arguments asks', () => {
  it('under a config rule, a server glob or a session rule', () => {
    const byGlob = policy({ autoApprove: { 'fs__*': true } });
    expect(byGlob.decide('fs', 'read_file', { path: 'notes.md' })).toEqual({ action: 'allow', rule: 'config mcp.autoApprove fs__*' });
    const asked = byGlob.decide('fs', 'read_file', { path: '~/.ssh/id_rsa' });
    expect(asked).toMatchObject({ action: 'ask', warnings: [{ kind: 'sensitive-path', where: 'path', reason: 'a credential or key path: ~/.ssh/id_rsa' }] });
    const session = policy();
    session.addSessionRule('server', 'fs', 'read_file');
    expect(session.decide('fs', 'write_file', { path: '~/.config/aish/config.ts' })).toMatchObject({ action: 'ask', warnings: [{ kind: 'app-file' }] });
    expect(session.decide('fs', 'write_file', { text: 'a\u202Eb' })).toMatchObject({ action: 'ask', warnings: [{ kind: 'hidden-characters' }] });
  });

  it('with no rule, it still asks, saying what was found', () => {
    expect(policy().decide('fs', 'read_file', { path: '.env' })).toMatchObject({ action: 'ask', warnings: [{ kind: 'sensitive-path' }] });
  });

  it('a deny rule still wins', () => {
    expect(policy({ autoApprove: { fs__read_file: false } }).decide('fs', 'read_file', { path: '~/.ssh/id_rsa' })).toMatchObject({ action: 'deny' });
  });

  it('headless denies it, saying why and how to allow it', () => {
    const headless = policy({ headless: true, allow: ['fs__*'] });
    const decision = headless.decide('fs', 'read_file', { path: '~/.ssh/id_rsa' });
    expect(decision).toMatchObject({ action: 'deny', headless: true });
    expect(decision.action === 'deny' && decision.rule).toBe('its arguments need a look: path: a credential or key path: ~/.ssh/id_rsa; a rule in mcp.argumentRules naming that argument allows it');
  });
});

describe('argument rules', () => {
  const argumentRules = rules([{ tool: 'fs__read_file', args: { path: '~/.ssh/*.pub' } }]);

  it('allow a flagged call when they name the flagged argument, in the TUI and headless', () => {
    for (const headless of [false, true]) {
      const decided = policy({ argumentRules, headless }).decide('fs', 'read_file', { path: '~/.ssh/id_rsa.pub' });
      expect(decided).toEqual({ action: 'allow', rule: 'config mcp.argumentRules[0] fs__read_file path=~/.ssh/*.pub' });
    }
  });

  it('do not apply when a value does not match, is not a string, or is missing', () => {
    const headless = policy({ argumentRules, headless: true, allow: ['fs__*'] });
    for (const args of [{ path: '~/.ssh/id_rsa' }, { path: '~/.ssh/x.pub/../id_rsa' }, { path: ['~/.ssh/id_rsa.pub'] }, { file: '~/.ssh/id_rsa' }, { path: '~/.SSH/id_rsa.pub' }]) {
      expect(headless.decide('fs', 'read_file', args)).toMatchObject({ action: 'deny', headless: true });
    }
  });

  it('cover only the arguments they name: a finding elsewhere still asks', () => {
    const decided = policy({ argumentRules }).decide('fs', 'read_file', { path: '~/.ssh/id_rsa.pub', note: `ghp_${'a'.repeat(36)}` });
    expect(decided).toMatchObject({ action: 'ask', warnings: [{ kind: 'secret', argument: 'note' }] });
  });

  it('apply only to the tool they name', () => {
    expect(policy({ argumentRules }).decide('fs', 'write_file', { path: '~/.ssh/id_rsa.pub' })).toMatchObject({ action: 'ask' });
    expect(policy({ argumentRules }).decide('other', 'read_file', { path: '~/.ssh/id_rsa.pub' })).toMatchObject({ action: 'ask' });
  });

  it('can deny, and deny wins over an allow', () => {
    const denying = policy({ autoApprove: { 'fs__*': true }, argumentRules: rules([{ tool: 'fs__*', args: { path: '~/prod/**' }, allow: false }]) });
    expect(denying.decide('fs', 'write_file', { path: '~/prod/db.sql' })).toMatchObject({ action: 'deny', rule: 'config mcp.argumentRules[0] fs__* path=~/prod/**' });
    expect(denying.decide('fs', 'write_file', { path: '~/dev/db.sql' })).toMatchObject({ action: 'allow' });
  });

  it('a bad tool pattern is refused with its place', () => {
    expect(() => policy({ argumentRules: [{ tool: 'nope', args: { a: 'b' }, allow: true }] })).toThrow('mcp.argumentRules[0].tool');
    expect(() => configSchema.parse({ mcp: { argumentRules: [{ tool: 'fs__x', args: {} }] } })).toThrow(/at least one argument/);
  });
});

describe('every rule in force is listed with its origin', () => {
  it('config, argument rules, command line and session', () => {
    const listed = policy({ autoApprove: { 'fs__*': true, fs__rm: false }, allow: ['git__status'], argumentRules: rules([{ tool: 'fs__read_file', args: { path: '~/.ssh/*.pub' } }]) });
    listed.addSessionRule('tool', 'web', 'fetch');
    expect(listed.rules().map((rule) => [rule.origin, rule.alias, rule.tool, rule.allow, rule.args])).toEqual([
      ['config', 'fs', '*', true, undefined],
      ['config', 'fs', 'rm', false, undefined],
      ['config', 'fs', 'read_file', true, { path: '~/.ssh/*.pub' }],
      ['command line', 'git', 'status', true, undefined],
      ['session', 'web', 'fetch', true, undefined],
    ]);
  });
});
