import { describe, expect, it } from 'vitest';
import { HeadlessReport } from '../../src/cli/headless-output';
import { DEPTH_LIMIT_STATUS } from '../../src/services/conversation/index';
import type { ConversationEvent } from '../../src/services/conversation/types';

const at = '2026-01-01T00:00:00.000Z';

function report(events: ConversationEvent[]): { report: HeadlessReport; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const result = new HeadlessReport((line) => lines.push(line));
  for (const event of events) result.apply(event);
  return { report: result, lines };
}

describe('headless report: how the run ended', () => {
  it('an answer with tool calls left at the depth limit is tool_depth (exit 3), also when the server said "stop"', () => {
    for (const finishReason of ['tool_calls', 'stop'] as const) {
      const { report: result } = report([
        { type: 'request-start', depth: 0, model: 'm' },
        { type: 'status', level: 'warn', message: DEPTH_LIMIT_STATUS },
        { type: 'done', finishReason },
      ]);
      expect(result.result.finish_reason, finishReason).toBe('tool_depth');
      expect(result.exitCode()).toBe(3);
      expect(result.outcomeNote('--max-tool-depth 0')).toContain('tool-call depth limit reached (--max-tool-depth 0)');
    }
  });

  it('exit codes: stop 0, length / content_filter / unknown 3, error / incomplete 1, cancelled 130; an error wins over any reason', () => {
    const exit = (finishReason: string, error?: string) =>
      report([...(error ? [{ type: 'error', message: error } as const] : []), { type: 'done', finishReason }]).report.exitCode();
    expect([exit('stop'), exit('length'), exit('content_filter'), exit('recitation'), exit('error'), exit('incomplete'), exit('cancelled')]).toEqual([0, 3, 3, 3, 1, 1, 130]);
    expect(exit('stop', 'the server sent an empty answer')).toBe(1);
    expect(exit('cancelled', 'late failure')).toBe(130);
  });

  it('stream-json: the usage of a request follows its tool calls', () => {
    const { lines } = report([
      { type: 'request-start', depth: 0, model: 'm' },
      { type: 'text-delta', text: 'Let me add.' },
      { type: 'usage', usage: { promptTokens: 3, completionTokens: 4 } },
      { type: 'message', message: { id: 'a', role: 'assistant', content: 'Let me add.', toolCalls: [{ id: 'c1', name: 'x__add', arguments: '{"a":1}' }, { id: 'c2', name: 'x__add', arguments: '{"a":' }], at } },
      { type: 'tool-call', call: { id: 'c1', wireName: 'x__add', rawArguments: '{"a":1}', arguments: { a: 1 } } },
      { type: 'tool-result', id: 'c1', name: 'x__add', content: '1', isError: false, outcome: 'ok' },
      { type: 'tool-call', call: { id: 'c2', wireName: 'x__add', rawArguments: '{"a":' } },
      { type: 'tool-result', id: 'c2', name: 'x__add', content: 'bad', isError: true, outcome: 'skipped' },
      { type: 'done', finishReason: 'tool_calls' },
    ]);
    expect(lines.map((line) => `${String(line.type)}${line.id ? `:${String(line.id)}` : ''}`)).toEqual(['text', 'tool_call:c1', 'tool_call:c2', 'usage', 'tool_result:c1', 'tool_result:c2', 'done']);
    expect(lines[2]).toEqual({ type: 'tool_call', id: 'c2', name: 'x__add', arguments: null, raw_arguments: '{"a":' });
    expect(lines[3]).toEqual({ type: 'usage', prompt_tokens: 3, completion_tokens: 4 });
  });
});
