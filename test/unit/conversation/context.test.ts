import { describe, expect, it } from 'vitest';
import { buildRequestMessages, capToolResult, findAlternationProblem, toWireMessages } from '../../../src/services/conversation/context';
import type { Message } from '../../../src/services/conversation/types';

const at = '2026-01-01T00:00:00.000Z';
const user = (content: string, id = `u-${content}`): Message => ({ id, role: 'user', content, at });
const assistant = (content: string, toolCalls?: Array<{ id: string; name: string; arguments: string }>): Message => ({ id: `a-${content}`, role: 'assistant', content, at, ...(toolCalls ? { toolCalls } : {}) });
const tool = (toolCallId: string, name: string, content: string): Message => ({ id: `t-${toolCallId}`, role: 'tool', toolCallId, name, content, isError: false, at });
const exec = (command: string, output: string, exitCode: number | null = 0): Message => ({ id: `x-${command}`, role: 'exec', command, output, exitCode, at });

const options = { systemPrompt: 'SYSTEM', useToolRole: true, maxToolResultChars: 100_000 };

// Seed checkpoint for commit #3 (context.lua): (i) a context with tool turns round-trips to the
// standard wire shape; (ii) the same context with useToolRole false gives the `[tool: …]` prefix shape.
describe('context -> wire messages', () => {
  const history: Message[] = [
    user('what is 6*7?'),
    assistant('Let me compute.', [{ id: 'call_1', name: 'builtin__calculator', arguments: '{"expression":"6*7"}' }]),
    tool('call_1', 'builtin__calculator', '42'),
    assistant('It is 42.'),
    user('thanks'),
  ];

  it('(i) standard path: assistant keeps tool_calls, results are role "tool" with tool_call_id', () => {
    const wire = buildRequestMessages(history, options);
    expect(wire).toEqual([
      { role: 'system', content: 'SYSTEM' },
      { role: 'user', content: 'what is 6*7?' },
      {
        role: 'assistant',
        content: 'Let me compute.',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'builtin__calculator', arguments: '{"expression":"6*7"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '42' },
      { role: 'assistant', content: 'It is 42.' },
      { role: 'user', content: 'thanks' },
    ]);
    // What the model gets survives a JSON round trip unchanged (it is sent as JSON).
    expect(JSON.parse(JSON.stringify(wire))).toEqual(wire);
  });

  it('an assistant turn with only tool calls sends content null and "{}" for empty arguments', () => {
    const wire = buildRequestMessages([user('time?'), assistant('', [{ id: 'c', name: 'builtin__get_time', arguments: '' }]), tool('c', 'builtin__get_time', 'noon')], options);
    expect(wire[2]).toEqual({ role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'builtin__get_time', arguments: '{}' } }] });
    expect(wire.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c', content: 'noon' });
  });

  it('(ii) useToolRole false: no role "tool"; results go as [tool: alias__name] blocks in front of the next user turn', () => {
    const wire = buildRequestMessages(history, { ...options, useToolRole: false });
    expect(wire.some((message) => message.role === 'tool')).toBe(false);
    expect(wire.some((message) => message.role === 'assistant' && message.tool_calls)).toBe(false);
    expect(wire).toEqual([
      { role: 'system', content: 'SYSTEM' },
      { role: 'user', content: 'what is 6*7?' },
      { role: 'assistant', content: 'Let me compute.\n\n[tool call: builtin__calculator {"expression":"6*7"}]' },
      { role: 'user', content: '[tool: builtin__calculator]\n42' },
      { role: 'assistant', content: 'It is 42.' },
      { role: 'user', content: 'thanks' },
    ]);
  });

  it('(ii) useToolRole false inside a tool round: the results become the last user turn', () => {
    const open = history.slice(0, 3);
    const wire = buildRequestMessages(open, { ...options, useToolRole: false });
    expect(wire.at(-1)).toEqual({ role: 'user', content: '[tool: builtin__calculator]\n42' });
    // Results after the final answer's round prefix the next genuine user turn.
    const later = buildRequestMessages([...open, user('and 7*8?')], { ...options, useToolRole: false });
    expect(later.at(-1)).toEqual({ role: 'user', content: '[tool: builtin__calculator]\n42\n\nand 7*8?' });
  });

  it('several results of one answer are all kept, in order', () => {
    const wire = toWireMessages(
      [user('two'), assistant('', [{ id: 'a', name: 's__x', arguments: '{}' }, { id: 'b', name: 's__y', arguments: '{}' }]), tool('a', 's__x', 'A'), tool('b', 's__y', 'B')],
      { ...options, useToolRole: false },
    );
    expect(wire.at(-1)).toEqual({ role: 'user', content: '[tool: s__x]\nA\n\n[tool: s__y]\nB' });
  });

  it('exec output waits for the next genuine user turn, across tool rounds', () => {
    const wire = buildRequestMessages(
      [
        user('list files'),
        assistant('CMD: ls'),
        exec('ls', 'a.txt\nb.txt\n'),
        user('which is bigger?'),
        assistant('', [{ id: 'c1', name: 'fs__stat', arguments: '{"path":"a.txt"}' }]),
        tool('c1', 'fs__stat', '10 bytes'),
      ],
      options,
    );
    expect(wire[3]).toEqual({ role: 'user', content: '[exec: ls]\na.txt\nb.txt\n[exit code 0]\n\nwhich is bigger?' });
    // The tool round after it carries no exec output.
    expect(wire.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c1', content: '10 bytes' });
    expect(JSON.stringify(wire.slice(4))).not.toContain('a.txt\\nb.txt');
  });

  it('an exec record with no user turn after it is held back, not sent on its own', () => {
    const wire = toWireMessages([user('hi'), assistant('CMD: date'), exec('date', 'Mon', null)], options);
    expect(wire.map((message) => message.role)).toEqual(['system', 'user', 'assistant']);
    const next = toWireMessages([user('hi'), assistant('CMD: date'), exec('date', 'Mon', null), user('ok')], options);
    expect(next.at(-1)).toEqual({ role: 'user', content: '[exec: date]\nMon\n[no exit code]\n\nok' });
  });

  it('merges consecutive user turns (an answer that failed before any text) so roles alternate', () => {
    const wire = buildRequestMessages([user('first'), user('second')], options);
    expect(wire).toEqual([{ role: 'system', content: 'SYSTEM' }, { role: 'user', content: 'first\n\nsecond' }]);
  });

  it('caps tool results for the model with an explicit marker; the history keeps the full text', () => {
    const long = 'x'.repeat(250);
    const history2 = [user('big'), assistant('', [{ id: 'c', name: 's__big', arguments: '{}' }]), tool('c', 's__big', long)];
    const wire = buildRequestMessages(history2, { ...options, maxToolResultChars: 100 });
    expect(wire.at(-1)).toEqual({ role: 'tool', tool_call_id: 'c', content: `${'x'.repeat(100)}\n[truncated 150 chars]` });
    expect((history2[2] as { content: string }).content).toHaveLength(250);
    expect(capToolResult('short', 100)).toBe('short');
    const fallback = buildRequestMessages(history2, { ...options, useToolRole: false, maxToolResultChars: 100 });
    expect(fallback.at(-1)?.content).toContain('[truncated 150 chars]');
  });

  it('omits the system message when the prompt is empty', () => {
    expect(toWireMessages([user('hi')], { ...options, systemPrompt: '  ' })).toEqual([{ role: 'user', content: 'hi' }]);
  });
});

describe('alternation check', () => {
  it('refuses an orphaned tool call', () => {
    expect(() => buildRequestMessages([user('q'), assistant('', [{ id: 'c', name: 's__t', arguments: '{}' }])], options)).toThrow(
      'refusing to send a malformed history: the last tool call "c" has no result',
    );
    expect(() => buildRequestMessages([user('q'), assistant('', [{ id: 'c', name: 's__t', arguments: '{}' }]), user('again')], options)).toThrow('tool call "c" has no result');
  });

  it('refuses a tool result without its call, a duplicate id, and a history that starts with the assistant', () => {
    expect(() => buildRequestMessages([user('q'), tool('zz', 's__t', 'r')], options)).toThrow('without a matching tool call');
    expect(findAlternationProblem([{ role: 'user', content: 'q' }, { role: 'assistant', content: null, tool_calls: [
      { id: 'd', type: 'function', function: { name: 'a', arguments: '{}' } },
      { id: 'd', type: 'function', function: { name: 'a', arguments: '{}' } },
    ] }])).toContain('used twice');
    expect(findAlternationProblem([{ role: 'assistant', content: 'hi' }, { role: 'user', content: 'q' }])).toContain('must start with a user turn');
    expect(findAlternationProblem([{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }])).toContain('must end with a user turn or tool results');
    expect(findAlternationProblem([{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }])).toContain('two assistant turns in a row');
  });

  it('accepts tool results followed by a user turn (depth limit reached, then the user replies)', () => {
    expect(findAlternationProblem([
      { role: 'system', content: 's' },
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'a', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c', content: 'r' },
      { role: 'user', content: 'next' },
    ])).toBeUndefined();
  });
});
