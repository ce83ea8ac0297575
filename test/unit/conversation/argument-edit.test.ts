import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runToolCall, type CallContext } from '../../../src/services/conversation/tool-call';
import type { ApprovalAnswer, ApprovalRequest, ConversationEvent, Message } from '../../../src/services/conversation/types';
import { createApprovalPolicy } from '../../../src/services/tools/policy';
import { createArgumentMatcher } from '../../../src/services/tools/argument-guard';
import { createRulesStore } from '../../../src/services/tools/saved-rules';
import type { IndexedTool } from '../../../src/services/tools/names';

const entry = { wireName: 'fs__read_file', alias: 'fs', tool: 'read_file', info: { name: 'read_file', inputSchema: { type: 'object' } }, spec: {}, tokens: 0 } as unknown as IndexedTool;

function setup(answers: ApprovalAnswer[], dirs = scratch()) {
  const asked: ApprovalRequest[] = [];
  const ran: Record<string, unknown>[] = [];
  const saved = createRulesStore({ projectDir: dirs.project, configDir: dirs.config, stateDir: dirs.state });
  const policy = createApprovalPolicy({ saved, guard: { check: () => [], matches: createArgumentMatcher('/home/u', dirs.project) } });
  let id = 0;
  const ctx: CallContext = {
    signal: new AbortController().signal,
    policy,
    mcp: {
      // The schema check the MCP service does: `path` must be a string.
      argumentProblem: (_alias, _tool, args) => (typeof args.path === 'string' ? undefined : 'path: expected a string'),
      callTool: async (_alias, _tool, args) => {
        ran.push(args);
        return { kind: 'ok', content: `read ${String(args.path)}`, isError: false };
      },
    },
    approve: async (request) => {
      asked.push(request);
      const answer = answers.shift();
      if (!answer) throw new Error('asked once too often');
      return answer;
    },
    position: () => ({ position: 1, count: 1 }),
    now: () => '2026-01-01T00:00:00.000Z',
    newId: () => `m${++id}`,
  };
  return { ctx, asked, ran, policy, dirs };
}

function scratch() {
  const root = mkdtempSync(path.join(os.tmpdir(), 'aish-rules-'));
  const dirs = { project: path.join(root, 'project'), config: path.join(root, 'config'), state: path.join(root, 'state') };
  mkdirSync(dirs.project, { recursive: true });
  return dirs;
}

async function run(ctx: CallContext, args: string) {
  const events: ConversationEvent[] = [];
  const generator = runToolCall({ id: 'c1', name: 'fs__read_file', arguments: args }, entry, ctx);
  for (;;) {
    const next = await generator.next();
    if (next.done) return { events, message: next.value as Extract<Message, { role: 'tool' }> };
    events.push(next.value);
  }
}

describe('editing a tool call before approving it', () => {
  it('runs exactly the edited arguments, after showing the edited call again; the model and the log hear of it', async () => {
    const { ctx, asked, ran } = setup([{ action: 'edit', text: '{ "path": "/tmp/b.txt" }' }, { action: 'allow', scope: 'once' }]);
    const { events, message } = await run(ctx, '{"path":"/etc/a.txt"}');
    expect(asked).toHaveLength(2);
    expect(asked[1]!.call.arguments).toEqual({ path: '/tmp/b.txt' });
    expect(asked[1]!.call.edited).toBe('path: "/etc/a.txt" → "/tmp/b.txt"');
    expect(ran).toEqual([{ path: '/tmp/b.txt' }]);
    expect(message.content).toBe('[aish] the user edited the arguments before the call ran (path: "/etc/a.txt" → "/tmp/b.txt").\nread /tmp/b.txt');
    expect(message.editedArguments).toEqual({ path: '/tmp/b.txt' });
    const decision = events.find((event) => event.type === 'tool-decision');
    expect(decision).toMatchObject({ decision: { action: 'allow', by: 'user', edited: 'path: "/etc/a.txt" → "/tmp/b.txt"', arguments: { path: '/tmp/b.txt' } } });
  });

  it('an edit that is not JSON or does not fit the schema is shown with its problem and asked again; nothing runs until allowed', async () => {
    const { ctx, asked, ran } = setup([{ action: 'edit', text: '{ "path": ' }, { action: 'edit', text: '{ "path": 3 }' }, { action: 'deny' }]);
    await run(ctx, '{"path":"/etc/a.txt"}');
    expect(asked).toHaveLength(3);
    expect(asked[1]!.call.retry).toMatchObject({ field: 'args', text: '{ "path": ' });
    expect(asked[1]!.call.retry!.problem).toMatch(/not parseable as JSON/);
    expect(asked[2]!.call.retry).toEqual({ field: 'args', text: '{ "path": 3 }', problem: "does not fit the tool's input schema: path: expected a string" });
    expect(ran).toEqual([]);
  });
});

describe('rules saved from the approval frame', () => {
  it('a project rule narrowed by a path glob decides this call and later ones, and survives a restart', async () => {
    const first = setup([{ action: 'rule', text: 'allow project fs__read_file path=/srv/**' }]);
    const { message } = await run(first.ctx, '{"path":"/srv/x"}');
    expect(first.ran).toEqual([{ path: '/srv/x' }]);
    expect(message.content).toBe('read /srv/x');
    // A new policy over the same files: the rule is in force, only for paths under /srv.
    const again = setup([{ action: 'deny' }], first.dirs);
    await run(again.ctx, '{"path":"/srv/y"}');
    expect(again.asked).toHaveLength(0);
    await run(again.ctx, '{"path":"/etc/passwd"}');
    expect(again.asked).toHaveLength(1);
    expect(again.ran).toEqual([{ path: '/srv/y' }]);
  });

  it('a deny rule saved everywhere denies; a malformed rule line is asked again with its problem', async () => {
    const { ctx, asked, ran } = setup([{ action: 'rule', text: 'allow somewhere fs__read_file' }, { action: 'rule', text: 'deny everywhere fs__*' }]);
    const { message } = await run(ctx, '{"path":"/srv/x"}');
    expect(asked[1]!.call.retry).toEqual({ field: 'rule', text: 'allow somewhere fs__read_file', problem: 'then project or everywhere' });
    expect(ran).toEqual([]);
    expect(message.content).toBe('[aish] tool call denied by saved rule (all projects) fs__*');
  });

  it('a project rules file aish-tui did not write (a cloned repository) is ignored; deleting a saved rule removes it', async () => {
    const dirs = scratch();
    mkdirSync(path.join(dirs.project, '.aish'));
    writeFileSync(path.join(dirs.project, '.aish', 'rules.json'), JSON.stringify({ version: 1, rules: [{ allow: true, tool: 'fs__*' }] }));
    const planted = setup([{ action: 'deny' }], dirs);
    expect(planted.policy.rules().filter((rule) => rule.origin === 'saved')).toEqual([]);
    expect(planted.policy.savedFiles()[0]).toMatchObject({ untrusted: true, problem: expect.stringMatching(/not written by aish-tui/) });
    await run(planted.ctx, '{"path":"/srv/x"}');
    expect(planted.asked).toHaveLength(1);
    // Saving from the frame writes the file anew with only the user's rule, and trusts that.
    const saving = setup([{ action: 'rule', text: 'allow project fs__read_file' }], dirs);
    await run(saving.ctx, '{"path":"/srv/x"}');
    expect(JSON.parse(readFileSync(path.join(dirs.project, '.aish', 'rules.json'), 'utf8')).rules).toEqual([{ allow: true, tool: 'fs__read_file' }]);
    expect(saving.policy.deleteSavedRule(1)).toEqual({ deleted: 'allow fs__read_file' });
    expect(saving.policy.rules().filter((rule) => rule.origin === 'saved')).toEqual([]);
  });
});

describe('an edited CMD: command', () => {
  it('reaches the model saying the user edited it and what was proposed', async () => {
    const { formatExec } = await import('../../../src/services/conversation/context');
    const text = formatExec({ id: 'e', role: 'exec', command: 'ls -la /tmp', proposed: 'rm -rf /tmp', output: 'ok\n', exitCode: 0, at: '2026-01-01T00:00:00.000Z' });
    expect(text).toBe('[exec: ls -la /tmp]\n[the user edited the proposed command before it ran; proposed: rm -rf /tmp]\nok\n[exit code 0]');
  });
});

describe('a server-wide rule saved on a tool never approved', () => {
  it('runs the call it was saved on (the user allowed it there); another never-approved tool still asks once', async () => {
    const { ctx, asked, ran, policy } = setup([{ action: 'rule', text: 'allow project fs__*' }]);
    const approved = new Set<string>();
    policy.setDefinitions({ changeOf: () => undefined, accept: (alias, tool) => void approved.add(`${alias}__${tool}`), isNew: (alias, tool) => !approved.has(`${alias}__${tool}`) });
    await run(ctx, '{"path":"/srv/x"}');
    expect(asked).toHaveLength(1);
    expect(ran).toEqual([{ path: '/srv/x' }]);
    expect(policy.decide('fs', 'write_file', { path: '/srv/x' })).toMatchObject({ action: 'ask', newTool: 'saved rule (this project) fs__*' });
  });
});
