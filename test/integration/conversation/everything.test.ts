import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedBroker, textReply, toolCallReply, type ScriptedBroker } from '../../helpers/scripted-broker';
import type { AppConfig } from '../../../src/services/config/load';
import type { McpManagerService } from '../../../src/services/mcp/types';
import { assertValidHistory, everythingServer, run, startMcp, testConfig, toolMessages } from './harness';

// The loop against a real third-party MCP server: @modelcontextprotocol/server-everything over stdio.
let broker: ScriptedBroker;
let mcp: McpManagerService;
let config: AppConfig;

beforeAll(async () => {
  broker = await startScriptedBroker();
  config = await testConfig(broker.url);
  mcp = await startMcp(config, { everything: everythingServer() }, true);
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  await broker?.close();
});

describe('the loop with server-everything (stdio)', () => {
  it('offers tools from every ready server, dispatches by alias, feeds the result back', async () => {
    const start = broker.requests.length;
    broker.enqueue(toolCallReply([{ id: 'e1', name: 'everything__echo', arguments: { message: 'hello from the model' } }]), textReply('It echoed.'));
    const result = await run({ config, mcp, text: 'echo something', approve: () => ({ action: 'allow', scope: 'once' }) });
    const names = (broker.requests[start]!.body!.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
    expect(names).toEqual(expect.arrayContaining(['everything__echo', 'everything__get-sum', 'builtin__calculator']));
    const [tool] = toolMessages(result.messages);
    expect(tool).toMatchObject({ toolCallId: 'e1', name: 'everything__echo', isError: false });
    expect(tool!.content).toContain('hello from the model');
    expect(broker.requests[start + 1]!.body!.messages!.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'e1' });
    assertValidHistory(result.messages, config);
  });

  it('arguments that fail the tool\'s input schema come back as a tool result, not an exception', async () => {
    broker.enqueue(toolCallReply([{ id: 'e2', name: 'everything__get-sum', arguments: { a: 'one', b: 2 } }]), textReply('Sorry.'));
    const result = await run({ config, mcp, text: 'sum', approve: () => ({ action: 'allow', scope: 'once' }) });
    const [tool] = toolMessages(result.messages);
    expect(tool!.isError).toBe(true);
    expect(tool!.content).toMatch(/^\[aish\] tool arguments invalid/);
    assertValidHistory(result.messages, config);
  });

  it('passes progress on and, aborted mid-tool, answers the call as cancelled', async () => {
    broker.enqueue(toolCallReply([{ id: 'long', name: 'everything__trigger-long-running-operation', arguments: { duration: 20, steps: 40 } }]));
    const controller = new AbortController();
    const started = Date.now();
    const result = await run({
      config,
      mcp,
      text: 'run the long thing',
      signal: controller.signal,
      approve: () => ({ action: 'allow', scope: 'once' }),
      onEvent: (event) => {
        if (event.type === 'tool-progress') controller.abort();
      },
    });
    expect(Date.now() - started).toBeLessThan(15_000);
    const progress = result.events.find((event) => event.type === 'tool-progress');
    expect(progress).toMatchObject({ id: 'long', progress: { progress: 1, total: 40 } });
    const [tool] = toolMessages(result.messages);
    expect(tool).toMatchObject({ toolCallId: 'long', isError: true });
    expect(tool!.content).toContain('cancelled');
    expect(result.events.find((event) => event.type === 'tool-result')).toMatchObject({ outcome: 'cancelled' });
    expect(result.events.at(-1)).toEqual({ type: 'done', finishReason: 'cancelled' });
    assertValidHistory(result.messages, config);
  });
});
