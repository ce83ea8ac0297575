import { describe, expect, it } from 'vitest';
import { effectiveHistory, planCompaction, stubOldToolResults, transcriptFor } from '../../../src/services/context/compact';
import { buildRequestMessages, findAlternationProblem } from '../../../src/services/conversation/context';
import type { Message } from '../../../src/services/conversation/types';

const at = '2026-01-01T00:00:00.000Z';
let n = 0;
const user = (content: string): Message => ({ id: `u${++n}`, role: 'user', content, at });
const answer = (content: string): Message => ({ id: `a${++n}`, role: 'assistant', content, at });
const call = (id: string): Message => ({ id: `a${++n}`, role: 'assistant', content: '', toolCalls: [{ id, name: 'builtin__calculator', arguments: '{"expression":"1+1"}' }], at });
const result = (id: string, content = 'x'.repeat(500)): Message => ({ id: `t${++n}`, role: 'tool', toolCallId: id, name: 'builtin__calculator', content, isError: false, at });

function conversation(): Message[] {
  return [user('one'), call('c1'), result('c1'), answer('two'), user('three'), call('c2'), result('c2'), call('c3'), result('c3'), answer('four'), user('five'), answer('six')];
}

describe('compaction', () => {
  it('cuts only at a user message: every tool call keeps its result on the same side', () => {
    const history = conversation();
    for (const keep of [1, 2, 3]) {
      const plan = planCompaction(history, keep)!;
      expect(plan.kept[0]!.role).toBe('user');
      const keptCalls = plan.kept.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []));
      const keptResults = plan.kept.flatMap((m) => (m.role === 'tool' ? [m.toolCallId] : []));
      expect(keptResults).toEqual(keptCalls);
    }
    // Keeping more turns than there are leaves fewer kept rather than nothing to summarise.
    expect(planCompaction(history, 10)!.old.length).toBeGreaterThan(0);
    expect(planCompaction([user('only')], 2)).toBeUndefined();
  });

  it('after a compaction record the model gets the summary and the kept turns, never the replaced messages, and the history stays valid', () => {
    const history = conversation();
    const plan = planCompaction(history, 1)!;
    const record: Message = { id: 'k1', role: 'compaction', summary: 'SUMMARY', keptFrom: plan.kept[0]!.id, replaced: plan.old.length, trigger: 'user', at };
    const full = [...history, record, user('seven')];
    const effective = effectiveHistory(full);
    expect(effective.map((m) => m.id)).toEqual(['k1', plan.kept[0]!.id, plan.kept[1]!.id, full.at(-1)!.id]);
    const wire = buildRequestMessages(full, { systemPrompt: 'sys', useToolRole: true, maxToolResultChars: 1000 });
    expect(findAlternationProblem(wire)).toBeUndefined();
    expect(wire[1]).toMatchObject({ role: 'user' });
    expect(wire[1]!.content).toContain('SUMMARY');
    expect(wire[1]!.content).toContain('five');
    expect(JSON.stringify(wire)).not.toContain('"one"');
    // A second compaction supersedes the first.
    const second: Message = { id: 'k2', role: 'compaction', summary: 'SECOND', keptFrom: full.at(-1)!.id, replaced: 4, trigger: 'auto', at };
    expect(effectiveHistory([...full, second]).map((m) => m.id)).toEqual(['k2', full.at(-1)!.id]);
  });

  it('old tool results are stubbed for the request only, the last turns keep theirs', () => {
    const history = conversation();
    const { history: shortened, stubbed } = stubOldToolResults(history, 2);
    expect(stubbed).toBe(1);
    expect(shortened[2]).toMatchObject({ role: 'tool', toolCallId: 'c1' });
    expect((shortened[2] as { content: string }).content).toMatch(/left out to save context/);
    expect((shortened[6] as { content: string }).content).toBe('x'.repeat(500));
    expect((history[2] as { content: string }).content).toBe('x'.repeat(500));
  });

  it('the transcript for the summary fits its budget, cutting long results first', () => {
    const history = [user('goal: fix the build'), call('c1'), result('c1', 'y'.repeat(20_000)), answer('done')];
    const text = transcriptFor(history, 400);
    expect(text).toContain('goal: fix the build');
    expect(text.length).toBeLessThan(4000);
  });
});
