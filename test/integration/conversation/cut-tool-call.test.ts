import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../../helpers/lifecycle';
import { chunk, sse, textReply, toolCallReply } from '../../helpers/scripted-broker';
import { createSession } from '../../../src/runtime/session';
import type { Message } from '../../../src/services/conversation/types';
import { sessionsDir } from '../../../src/services/history/index';
import type { McpManagerService } from '../../../src/services/mcp/types';
import { createAppStore, type AppStore } from '../../../src/state/store';
import { assertValidHistory, run, startMcp, testConfig, toolMessages } from './harness';

// llama-server streams the arguments of a call cut by max_tokens (`{"format":"date`) and then
// finish_reason "length". None of that answer's calls may run, and no later request may carry
// arguments that are not JSON: llama-server refuses the whole request (HTTP 500) otherwise.
const { broker, track } = useBrokerAndTerminals();

const cutAnswer = () =>
  sse([
    chunk({ role: 'assistant', content: 'Let me check. ' }),
    chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'builtin__calculator', arguments: '{"expression":"1+1"}' } }] }),
    chunk({ tool_calls: [{ index: 1, id: 'c2', type: 'function', function: { name: 'builtin__calculator', arguments: '{"expression":"2*' } }] }),
    chunk({}, { finishReason: 'length' }),
  ]);

/** Every tool-call argument string in a request body, and whether each parses as a JSON object. */
function sentArguments(body: { messages?: Array<Record<string, unknown>> } | undefined): string[] {
  return (body?.messages ?? []).flatMap((message) => ((message.tool_calls as Array<{ function: { arguments: string } }> | undefined) ?? []).map((call) => call.function.arguments));
}
const isJsonObject = (text: string) => {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
};

function spyCalls(mcp: McpManagerService): { calls: string[]; callTool: McpManagerService['callTool'] } {
  const calls: string[] = [];
  return {
    calls,
    callTool: (alias, tool, args, options) => {
      calls.push(`${alias}__${tool}`);
      return mcp.callTool(alias, tool, args, options);
    },
  };
}

describe('a tool call cut off by finish_reason "length"', () => {
  it('no call of that answer runs; each gets a turn saying why; the loop stops with "length"', async () => {
    const config = await testConfig(broker.url, (c) => (c.mcp.autoApprove = { 'builtin__*': true }));
    const mcp = track(await startMcp(config));
    const spy = spyCalls(mcp);
    broker.enqueue(cutAnswer());
    const result = await run({ config, mcp, text: 'compute', callTool: spy.callTool });
    expect(spy.calls).toEqual([]);
    expect(result.approvals).toEqual([]);
    const tools = toolMessages(result.messages);
    expect(tools.map((message) => [message.toolCallId, message.outcome])).toEqual([
      ['c1', 'skipped'],
      ['c2', 'skipped'],
    ]);
    for (const message of tools) expect(message.content).toContain('cut off (finish_reason "length")');
    expect(result.events).toContainEqual({ type: 'status', level: 'warn', message: 'the answer was cut off (finish_reason "length"): its 2 tool calls were not run' });
    expect(result.events.at(-1)).toEqual({ type: 'done', finishReason: 'length' });
    // Only the one request: the loop does not go back to the model with skipped calls.
    expect(broker.requests).toHaveLength(1);
    assertValidHistory(result.messages, config);

    // The next message: the cut arguments go out as {} and the tool turn says so.
    broker.enqueue(textReply('ok'));
    const next = await run({ config, mcp, history: result.messages, text: 'go on' });
    expect(next.events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
    const body = broker.requests[1]!.body!;
    expect(sentArguments(body)).toEqual(['{"expression":"1+1"}', '{}']);
    const c2Turn = body.messages!.find((message) => message.role === 'tool' && message.tool_call_id === 'c2');
    expect(c2Turn?.content).toContain('[aish] the arguments of this call were not a valid JSON object, so they are sent back as {}; as received: {"expression":"2*');
  });

  it('the same answer finished with "tool_calls" still runs its calls (the check is about the finish, not the tool)', async () => {
    const config = await testConfig(broker.url, (c) => (c.mcp.autoApprove = { 'builtin__*': true }));
    const mcp = track(await startMcp(config));
    const spy = spyCalls(mcp);
    broker.enqueue(toolCallReply([{ id: 'c1', name: 'builtin__calculator', arguments: { expression: '1+1' } }]), textReply('2'));
    const result = await run({ config, mcp, text: 'compute', callTool: spy.callTool });
    expect(spy.calls).toEqual(['builtin__calculator']);
    expect(result.events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
  });
});

function until(store: AppStore, probe: (state: ReturnType<AppStore['getState']>) => boolean, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!probe(store.getState())) return;
      unsubscribe();
      clearTimeout(timer);
      resolve();
    };
    const unsubscribe = store.subscribe(check);
    const timer = setTimeout(() => {
      unsubscribe();
      reject(new Error('timed out'));
    }, timeoutMs);
    check();
  });
}

describe('a session log that holds a call with arguments that are not JSON', () => {
  it('resumes, and the next request carries only JSON-object arguments', async () => {
    const config = await testConfig(broker.url);
    const dir = sessionsDir(config);
    mkdirSync(dir, { recursive: true });
    const at = '2026-01-01T00:00:00.000Z';
    const messages: Message[] = [
      { id: 'u1', role: 'user', content: 'what time is it?', at },
      { id: 'a1', role: 'assistant', content: '', toolCalls: [{ id: 'cut1', name: 'time__now', arguments: '{"format":"date' }], finishReason: 'length', at },
      { id: 't1', role: 'tool', toolCallId: 'cut1', name: 'time__now', content: '[aish] tool arguments not parseable as JSON: Unterminated string', isError: true, outcome: 'skipped', at },
    ];
    const lines = [{ type: 'session', version: 1, id: 'cutlog', createdAt: at }, ...messages.map((message) => ({ type: 'message', message }))];
    writeFileSync(path.join(dir, 'cutlog.jsonl'), lines.map((line) => `${JSON.stringify(line)}\n`).join(''));

    const store = createAppStore();
    const session = track(createSession({ config, store, quit: () => {}, args: { continueLast: true } }));
    await until(store, (state) => state.messages.length === 3);
    broker.enqueue(textReply('It is noon.'));
    session.submit('try again');
    await session.idle();
    expect(store.getState().items.at(-1)).toMatchObject({ kind: 'assistant', text: 'It is noon.' });
    const body = broker.requests.at(-1)!.body!;
    const args = sentArguments(body);
    expect(args).toEqual(['{}']);
    expect(args.every(isJsonObject)).toBe(true);
    expect(body.messages!.at(-1)).toEqual({ role: 'user', content: 'try again' });
  });
});
