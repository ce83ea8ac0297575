import { describe, expect, it } from 'vitest';
import { replacedArguments, toWireMessages } from '../../../src/services/conversation/context';
import type { Message } from '../../../src/services/conversation/types';

// No request may carry tool-call arguments that are not a JSON object: llama-server (and others)
// refuse the whole request, for every later turn of the session.
const at = '2026-01-01T00:00:00.000Z';
const history = (args: string): Message[] => [
  { id: 'u', role: 'user', content: 'q', at },
  { id: 'a', role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'x__y', arguments: args }], at },
  { id: 't', role: 'tool', toolCallId: 'c', name: 'x__y', content: 'result', isError: true, at },
];
const options = { systemPrompt: '', useToolRole: true, maxToolResultChars: 1000 };

describe('tool-call arguments sent back to the model', () => {
  it('a JSON object goes as it was; anything else becomes {}', () => {
    expect(replacedArguments('{"a":1}')).toBeUndefined();
    for (const raw of ['{"format":"date', '[1,2]', '"text"', 'null', '42', '', '  ']) expect(replacedArguments(raw), raw).toBe('{}');
  });

  it.each(['{"format":"date', '[1]', 'null'])('%s: the call goes out with {} and its tool turn says what was received', (raw) => {
    const wire = toWireMessages(history(raw), options);
    expect(wire[1]).toMatchObject({ role: 'assistant', tool_calls: [{ id: 'c', function: { name: 'x__y', arguments: '{}' } }] });
    expect(wire[2]).toEqual({ role: 'tool', tool_call_id: 'c', content: `[aish] the arguments of this call were not a valid JSON object, so they are sent back as {}; as received: ${raw}\nresult` });
  });

  it('no arguments at all is {} without a note (tools without parameters)', () => {
    const wire = toWireMessages(history(''), options);
    expect(wire[1]).toMatchObject({ tool_calls: [{ function: { arguments: '{}' } }] });
    expect(wire[2]).toEqual({ role: 'tool', tool_call_id: 'c', content: 'result' });
  });

  it('a valid object is sent unchanged and its tool turn is left alone', () => {
    const wire = toWireMessages(history('{"path":"/tmp"}'), options);
    expect(wire[1]).toMatchObject({ tool_calls: [{ function: { arguments: '{"path":"/tmp"}' } }] });
    expect(wire[2]).toEqual({ role: 'tool', tool_call_id: 'c', content: 'result' });
  });

  it('a very long cut argument is shown shortened in the note', () => {
    const raw = `{"text":"${'x'.repeat(500)}`;
    const wire = toWireMessages(history(raw), options);
    const content = (wire[2] as { content: string }).content;
    expect(content).toContain(`as received: ${raw.slice(0, 200)}…\nresult`);
  });
});
