import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lastMessage, startScriptedBroker, textReply, toolCallReply, type ReceivedRequest, type ScriptedBroker } from '../../helpers/scripted-broker';
import type { AppConfig } from '../../../src/services/config/load';
import type { ApprovalRequest, ConversationEvent } from '../../../src/services/conversation/types';
import type { McpManagerService } from '../../../src/services/mcp/types';
import { memorySwitchStore, type SwitchMap } from '../../../src/services/tools/switches';
import { createRuntime } from '../../../src/runtime/runtime';
import { startMcp, testConfig } from './harness';

// README.md, "Tool budget", through the runtime every front end uses: switched-off tools are not
// sent and a call to one is refused with a tool turn; with tool search on, the model gets
// `tool_search`, a search runs without asking, and the tools it found join the next request.

let broker: ScriptedBroker;
let mcp: McpManagerService;

beforeAll(async () => {
  broker = await startScriptedBroker();
});
afterAll(async () => {
  await broker.close();
});
afterEach(async () => {
  broker.route(undefined);
  await mcp?.close();
});

const toolNames = (request: ReceivedRequest) => (request.body?.tools ?? []).map((tool) => (tool as { function: { name: string } }).function.name);

async function converse(config: AppConfig, text: string, switches: SwitchMap = {}) {
  const runtime = createRuntime(config, { report: () => {}, mcp, switches: memorySwitchStore(switches) });
  const events: ConversationEvent[] = [];
  const approvals: ApprovalRequest[] = [];
  const from = broker.requests.length;
  for await (const event of runtime.converse({
    signal: new AbortController().signal,
    history: [],
    text,
    model: config.models[config.defaultModel]!,
    approve: async (request) => {
      approvals.push(request);
      return { action: 'allow', scope: 'once' };
    },
    confirmCommand: async () => ({ action: 'skip' }),
  })) {
    events.push(event);
  }
  return { events, approvals, requests: broker.requests.slice(from) };
}

describe('tool budget in the conversation loop', () => {
  it('a switched-off tool is not sent, and a call to it is refused with a clear tool turn, nobody asked', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    broker.route((request) => (lastMessage(request)?.role === 'tool' ? textReply('ok') : toolCallReply([{ id: 'c1', name: 'builtin__calculator', arguments: { expression: '1+1' } }])));
    const { events, approvals, requests } = await converse(config, 'add', { builtin__calculator: false });
    expect(toolNames(requests[0]!)).not.toContain('builtin__calculator');
    expect(toolNames(requests[0]!).length).toBeGreaterThan(0);
    expect(approvals).toEqual([]);
    const result = events.find((event) => event.type === 'tool-result');
    expect(result).toMatchObject({ outcome: 'skipped', isError: true, content: '[aish] tool call not run: builtin__calculator is switched off by the user' });
    expect(lastMessage(requests[1]!)).toMatchObject({ role: 'tool', content: '[aish] tool call not run: builtin__calculator is switched off by the user' });
  });

  it('tool search: tool_search alone, a search run without asking, the found tool sent and called with approval', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.mcp.toolSearch = 'always';
    });
    mcp = await startMcp(config);
    broker.route((request) => {
      const last = lastMessage(request);
      if (last?.role !== 'tool') return toolCallReply([{ id: 's1', name: 'tool_search', arguments: { query: 'do arithmetic with an expression' } }]);
      if (last.tool_call_id === 's1') return toolCallReply([{ id: 'c1', name: /^(\S+) — /m.exec(String(last.content))?.[1] ?? 'none', arguments: { expression: '6*7' } }]);
      return textReply(`it is ${String(last.content)}`);
    });
    const { events, approvals, requests } = await converse(config, 'what is 6*7');
    expect(requests).toHaveLength(3);
    expect(toolNames(requests[0]!)).toEqual(['tool_search']);
    expect(toolNames(requests[1]!)).toEqual(['tool_search', 'builtin__calculator']);
    expect(toolNames(requests[2]!)).toEqual(['tool_search', 'builtin__calculator']);
    expect(approvals.map((request) => request.call.wireName)).toEqual(['builtin__calculator']);
    const decisions = events.filter((event) => event.type === 'tool-decision');
    expect(decisions[0]).toMatchObject({ id: 's1', decision: { action: 'allow', by: 'rule', rule: 'tool search (built in, it runs nothing)' } });
    expect(lastMessage(requests[2]!)).toMatchObject({ role: 'tool', content: '42' });
  });

  it('auto: small tool sets are sent whole; past the window\'s budget the model gets tool_search', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    broker.route(() => textReply('fine'));
    const roomy = await converse(config, 'hello');
    expect(toolNames(roomy.requests[0]!)).toContain('builtin__calculator');
    config.models[config.defaultModel]!.contextWindow = 2000;
    const tight = await converse(config, 'hello');
    expect(toolNames(tight.requests[0]!)).toEqual(['tool_search']);
  });
});
