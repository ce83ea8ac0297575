import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolPolicy } from '../../../src/runtime/tool-policy';
import type { McpEvent, McpToolInfo, ServerSnapshot } from '../../../src/services/mcp/index';
import { createFilePinStore, createMemoryPinStore, pinsFile, type PinStore } from '../../../src/services/tools/pins';

// docs/ARCHITECTURE.md, Security invariants 9: a tool nobody approved before never runs under a
// server-wide rule. It asks once (the frame says it is new); after one approval the rules apply,
// also in a later run (the pins file remembers approvals).

function servers() {
  const listeners = new Set<(event: McpEvent) => void>();
  let list: ServerSnapshot[] = [];
  return {
    servers: () => list,
    subscribe(listener: (event: McpEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    show(alias: string, names: string[], transport: ServerSnapshot['transport'] = 'stdio') {
      const tools: McpToolInfo[] = names.map((name) => ({ name, description: `${name} things`, inputSchema: { type: 'object' } }));
      const snapshot: ServerSnapshot = { alias, target: 'test', state: 'ready', transport, tools, stderr: [] };
      list = [...list.filter((server) => server.alias !== alias), snapshot];
      for (const listener of [...listeners]) listener({ type: 'server', snapshot });
    },
  };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'aish-new-tools-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const config = (autoApprove: Record<string, boolean>) => ({ mcp: { autoApprove } as never, paths: { stateDir: dir } as never, history: { enabled: false } as never, sourcePath: undefined });

function tui(autoApprove: Record<string, boolean>, pins: PinStore = createMemoryPinStore()) {
  const live = servers();
  const reports: string[] = [];
  const made = createToolPolicy(config(autoApprove), live, { pins, report: (_level, text) => reports.push(text) });
  return { ...made, live, reports };
}

describe('a tool never approved before (TUI)', () => {
  it('asks once under alias__* even for the tools listed at start, saying which rule held back; after one approval the rule applies', () => {
    const { policy, live, stop } = tui({ 'fs__*': true });
    live.show('fs', ['read']);
    expect(policy.decide('fs', 'read')).toEqual({ action: 'ask', newTool: 'config mcp.autoApprove fs__*' });
    policy.recordUserApproval('fs', 'read');
    expect(policy.decide('fs', 'read')).toEqual({ action: 'allow', rule: 'config mcp.autoApprove fs__*' });
    stop();
  });

  it('a tool added mid-session (list_changed) is named and asks, whatever was approved before it', () => {
    const { policy, live, reports, stop } = tui({ 'fs__*': true });
    live.show('fs', ['read']);
    policy.recordUserApproval('fs', 'read');
    live.show('fs', ['read', 'exfiltrate', 'r\u0456ad']);
    expect(reports.at(-1)).toBe('mcp fs: 2 new tools: exfiltrate, r<U+0456>ad; each asks once before a server-wide rule (fs__*) runs it');
    expect(policy.decide('fs', 'exfiltrate')).toMatchObject({ action: 'ask', newTool: expect.any(String) });
    // A look-alike of an approved tool is another tool.
    expect(policy.decide('fs', 'r\u0456ad')).toMatchObject({ action: 'ask', newTool: expect.any(String) });
    expect(policy.decide('fs', 'read')).toMatchObject({ action: 'allow' });
    stop();
  });

  it('"always this server" (s) does not cover tools that appear later either', () => {
    const { policy, live, stop } = tui({});
    live.show('fs', ['read']);
    policy.addSessionRule('server', 'fs', 'read');
    policy.recordUserApproval('fs', 'read');
    expect(policy.decide('fs', 'read')).toEqual({ action: 'allow', rule: 'session rule fs__*' });
    live.show('fs', ['read', 'write']);
    expect(policy.decide('fs', 'write')).toEqual({ action: 'ask', newTool: 'session rule fs__*' });
    stop();
  });

  it('a rule naming the tool is not held back, deny still wins, and no rule is a plain ask', () => {
    const { policy, live, stop } = tui({ 'fs__*': true, fs__read: true, fs__rm: false });
    live.show('fs', ['read', 'rm', 'other']);
    expect(policy.decide('fs', 'read')).toEqual({ action: 'allow', rule: 'config mcp.autoApprove fs__read' });
    expect(policy.decide('fs', 'rm')).toEqual({ action: 'deny', rule: 'config mcp.autoApprove fs__rm' });
    expect(policy.decide('net', 'get')).toEqual({ action: 'ask' });
    stop();
  });

  it('the built-in server is this program: its tools are never new', () => {
    const { policy, live, reports, stop } = tui({ 'builtin__*': true });
    live.show('builtin', ['calculator'], 'in-memory');
    expect(policy.decide('builtin', 'calculator')).toMatchObject({ action: 'allow' });
    expect(reports).toEqual([]);
    stop();
  });

  it('approvals persist between runs; a tool only seen (pinned) is still new, and so is one from a pins file without approvals', () => {
    const file = pinsFile(dir);
    const first = tui({ 'fs__*': true }, createFilePinStore(file));
    first.live.show('fs', ['read', 'seen']);
    first.policy.recordUserApproval('fs', 'read');
    first.stop();
    const stored = JSON.parse(readFileSync(file, 'utf8')) as { approved: Record<string, string[]>; servers: Record<string, object> };
    expect(stored.approved).toEqual({ fs: ['read'] });
    expect(Object.keys(stored.servers.fs!)).toEqual(['read', 'seen']);

    const second = tui({ 'fs__*': true }, createFilePinStore(file));
    second.live.show('fs', ['read', 'seen']);
    expect(second.reports).toEqual([]);
    expect(second.policy.decide('fs', 'read')).toMatchObject({ action: 'allow' });
    expect(second.policy.decide('fs', 'seen')).toMatchObject({ action: 'ask', newTool: 'config mcp.autoApprove fs__*' });
    second.stop();

    // Written before approvals were recorded: every tool asks once more.
    writeFileSync(file, JSON.stringify({ version: 1, servers: stored.servers }));
    const legacy = tui({ 'fs__*': true }, createFilePinStore(file));
    legacy.live.show('fs', ['read']);
    expect(legacy.policy.decide('fs', 'read')).toMatchObject({ action: 'ask', newTool: expect.any(String) });
    legacy.stop();
  });

  it('keeps approvals another process saved meanwhile, and survives hostile pin files', () => {
    const file = pinsFile(dir);
    const ours = createFilePinStore(file);
    const theirs = createFilePinStore(file);
    ours.markApproved('fs', 'read');
    theirs.markApproved('fs', 'write');
    expect(createFilePinStore(file).approvedBefore('fs', 'read')).toBe(true);
    expect(createFilePinStore(file).approvedBefore('fs', 'write')).toBe(true);
    for (const hostile of [{ version: 1, servers: {}, approved: { fs: 'read' } }, { version: 1, servers: {}, approved: { fs: [1, null] } }, { version: 1, servers: {}, approved: null }]) {
      writeFileSync(file, JSON.stringify(hostile));
      const store = createFilePinStore(file);
      expect(store.approvedBefore('fs', 'read')).toBe(false);
      expect(store.approvedBefore('fs', 'toString')).toBe(false);
      store.markApproved('fs', 'read');
      expect(createFilePinStore(file).approvedBefore('fs', 'read')).toBe(true);
    }
  });
});

describe('a tool never approved before (headless)', () => {
  it('is denied under alias__* with what to do; --accept-new-tools lets the rule apply and says so', () => {
    const live = servers();
    const strict = createToolPolicy(config({}), live, { pins: createMemoryPinStore(), headless: { allow: ['fs__*'], acceptChangedTools: false }, report: () => {} });
    live.show('fs', ['read']);
    expect(strict.policy.decide('fs', 'read')).toEqual({
      action: 'deny',
      headless: true,
      rule: 'it was never approved before and only a server-wide rule allows it (--auto-approve fs__*); allow it once in aish-tui, name it with --auto-approve fs__read, or pass --accept-new-tools',
    });
    strict.stop();
    const named = createToolPolicy(config({}), live, { pins: createMemoryPinStore(), headless: { allow: ['fs__read'], acceptChangedTools: false }, report: () => {} });
    expect(named.policy.decide('fs', 'read')).toMatchObject({ action: 'allow' });
    named.stop();
    const reports: string[] = [];
    const pins = createMemoryPinStore();
    const accepting = createToolPolicy(config({}), live, { pins, headless: { allow: ['fs__*'], acceptChangedTools: false, acceptNewTools: true }, report: (_level, text) => reports.push(text) });
    expect(accepting.policy.decide('fs', 'read')).toMatchObject({ action: 'allow' });
    expect(accepting.policy.decide('fs', 'read')).toMatchObject({ action: 'allow' });
    expect(reports.filter((line) => line.includes('accepted'))).toEqual(['fs__read: never approved before; accepted (--accept-new-tools)']);
    expect(pins.approvedBefore('fs', 'read')).toBe(true);
    accepting.stop();
  });
});
