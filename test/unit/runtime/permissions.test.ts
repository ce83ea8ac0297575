import { describe, expect, it } from 'vitest';
import { permissionLines } from '../../../src/runtime/permissions';
import { runMetaCommand, type CommandHost } from '../../../src/runtime/commands';
import { createAppStore } from '../../../src/state/store';
import { handleSidebarKey } from '../../../src/ui/containers/SidebarContainer';
import { makeKey } from '../../../src/terminal/keyboard/keys';
import type { AppConfig } from '../../../src/services/config/load';
import { configSchema } from '../../../src/services/config/schema';
import type { ServerSnapshot } from '../../../src/services/mcp/index';
import { createApprovalPolicy } from '../../../src/services/tools/policy';

// README.md, "Commands": `:permissions` lists every rule in force, where it comes from and which
// current tools it matches, deny rules too.

const server = (alias: string, tools: string[], state: ServerSnapshot['state'] = 'ready'): ServerSnapshot => ({ alias, target: 'test', state, tools: tools.map((name) => ({ name, inputSchema: { type: 'object' } })), stderr: [] });

describe(':permissions', () => {
  it('groups the rules by origin with the tools each matches', () => {
    const parsed = configSchema.parse({ mcp: { autoApprove: { 'fs__*': true, fs__rm: false, gone__x: true }, argumentRules: [{ tool: 'fs__read_file', args: { path: '~/.ssh/*.pub' } }] } });
    const policy = createApprovalPolicy({ autoApprove: parsed.mcp.autoApprove, argumentRules: parsed.mcp.argumentRules, allow: ['git__status'] });
    policy.addSessionRule('tool', 'web', 'fetch');
    policy.addSessionRule('server', 'git', 'log');
    const servers = [server('fs', ['read_file', 'write_file', 'rm']), server('web', ['fetch', 'search']), server('git', [], 'connecting')];
    const lines = permissionLines(policy.rules(), servers, { mcp: parsed.mcp, paths: { configDir: '/h/.config/aish', stateDir: '/h/.local/state/aish' }, sourcePath: '/h/.config/aish/config.ts' }, { HOME: '/h' });
    const text = lines.join('\n');
    expect(text).toContain('From the config ~/.config/aish/config.ts:');
    expect(text).toContain('allow  fs__*  (mcp.autoApprove)\n           matches 3 tools: fs__read_file, fs__write_file, fs__rm');
    expect(text).toContain('deny   fs__rm  (mcp.autoApprove)\n           matches fs__rm');
    expect(text).toContain('allow  gone__x  (mcp.autoApprove)\n           matches nothing: no server "gone" now');
    expect(text).toContain('allow  fs__read_file path=~/.ssh/*.pub  (mcp.argumentRules[0])\n           matches fs__read_file');
    expect(text).toContain('From the command line (--auto-approve):');
    expect(text).toContain('allow  git__status  (--auto-approve)\n           matches nothing yet: server connecting');
    expect(text).toContain('Saved: none');
    expect(text).toContain('This session (t / s in a tool frame):');
    expect(text).toContain('allow  web__fetch  (t: this tool)\n           matches web__fetch');
    expect(text).toContain('allow  git__*  (s: every tool of the server)');
    expect(text).toContain('Asks anyway (headless: denied) under an allow rule');
    expect(text).toContain("aish-tui's own files (~/.config/aish, ~/.local/state/aish)");
  });

  it('says that a tool never approved asks once even under a server-wide rule, and lists saved rules numbered, a file not in force with why', () => {
    const parsed = configSchema.parse({});
    const files = [
      { scope: 'project' as const, file: '/h/p/.aish/rules.json', rules: [{ allow: true, tool: 'fs__*' }], untrusted: true, problem: 'not written by aish-tui on this machine' },
      { scope: 'everywhere' as const, file: '/h/.config/aish/rules.json', rules: [{ allow: false, tool: 'fs__rm' }, { allow: true, tool: 'fs__read_file', args: { path: '~/src/**' } }] },
    ];
    const text = permissionLines([], [server('fs', ['read_file', 'rm'])], { mcp: parsed.mcp, paths: { configDir: '/h/.config/aish', stateDir: '/h/.local/state/aish' }, sourcePath: undefined }, { HOME: '/h' }, files).join('\n');
    expect(text).toContain('A tool never approved before asks once even under a server-wide allow rule');
    expect(text).toContain('this project: ~/p/.aish/rules.json — NOT IN FORCE: not written by aish-tui on this machine');
    expect(text).toContain(' 1. allow  fs__*\n           matches nothing (not in force)');
    expect(text).toContain('all projects: ~/.config/aish/rules.json');
    expect(text).toContain(' 2. deny   fs__rm\n           matches fs__rm');
    expect(text).toContain(' 3. allow  fs__read_file path=~/src/**');
  });

  it('with no rules it says every call asks', () => {
    const parsed = configSchema.parse({});
    const lines = permissionLines([], [], { mcp: parsed.mcp, paths: { configDir: '/c', stateDir: '/s' }, sourcePath: undefined }, {});
    expect(lines[1]).toBe('  none: every tool call asks');
  });
});

describe(':permissions and p in the sidebar', () => {
  it(':permissions (and :perms) print the rules into the transcript', async () => {
    const store = createAppStore();
    const parsed = configSchema.parse({ mcp: { autoApprove: { 'fs__*': true } } });
    const policy = createApprovalPolicy({ autoApprove: parsed.mcp.autoApprove });
    const host = { store, config: { ...parsed, paths: { configDir: '/c', stateDir: '/s' }, sourcePath: undefined } as unknown as AppConfig, mcp: { servers: () => [server('fs', ['read'])] }, policy, env: {} } as unknown as CommandHost;
    await runMetaCommand(':permissions', host);
    await runMetaCommand(':perms', host);
    const texts = store.getState().items.map((item) => ('text' in item ? String(item.text) : JSON.stringify(item)));
    expect(texts.filter((text) => text.includes('allow  fs__*  (mcp.autoApprove)')).length).toBe(2);
  });

  it('p in the sidebar asks the session for :permissions', () => {
    const store = createAppStore();
    store.getState().setFocus('sidebar');
    const submitted: string[] = [];
    const controller = { submit: (text: string) => submitted.push(text), cancel: () => false, quit: () => {} };
    expect(handleSidebarKey(store, controller, makeKey('text', { text: 'p', at: 1 }))).toBe(true);
    expect(submitted).toEqual([':permissions']);
  });
});
