import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../../helpers/lifecycle';
import { chunk, sse, textReply } from '../../helpers/scripted-broker';
import { run, startMcp, testConfig, toolMessages } from './harness';

// Ollama (and LiteLLM's ollama_chat) stream every tool call whole at `index: 0`, each with its own
// id. Each must run as its own call, with its own result, whether the arguments come as a JSON
// string or as an object.
const { broker, track } = useBrokerAndTerminals();

const call = (id: string, args: unknown) => ({ index: 0, id, type: 'function', function: { name: 'builtin__calculator', arguments: args } });

describe('tool calls that share index 0', () => {
  it.each([
    ['string', '{"expression":"6*7"}', '{"expression":"1+2"}'],
    ['object', { expression: '6*7' }, { expression: '1+2' }],
  ])('arguments as a JSON %s: both calls run, each answered under its own id', async (_, first, second) => {
    const config = await testConfig(broker.url, (c) => (c.mcp.autoApprove = { 'builtin__*': true }));
    const mcp = track(await startMcp(config));
    broker.enqueue(sse([chunk({ role: 'assistant', content: '' }), chunk({ tool_calls: [call('call_a', first)] }), chunk({ tool_calls: [call('call_b', second)] }), chunk({}, { finishReason: 'stop' })]), textReply('42 and 3'));
    const result = await run({ config, mcp, text: 'two sums' });
    expect(toolMessages(result.messages).map((message) => [message.toolCallId, message.content, message.isError])).toEqual([
      ['call_a', '42', false],
      ['call_b', '3', false],
    ]);
    const sent = broker.requests[1]!.body!.messages!.find((message) => message.role === 'assistant');
    expect((sent?.tool_calls as Array<{ id: string; function: { arguments: string } }>).map((c) => [c.id, JSON.parse(c.function.arguments)])).toEqual([
      ['call_a', { expression: '6*7' }],
      ['call_b', { expression: '1+2' }],
    ]);
    expect(result.events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
  });
});
