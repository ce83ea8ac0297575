import { readdirSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { useBrokerAndTerminals } from '../../helpers/lifecycle';
import { textReply, toolCallReply } from '../../helpers/scripted-broker';
import { testConfig } from '../../integration/conversation/harness';
import { bridgeMcpEvents, serverActions } from '../../../src/runtime/mcp-bridge';
import { createMcpFor } from '../../../src/runtime/mcp';
import { createRuntime } from '../../../src/runtime/runtime';
import type { ConversationEvent } from '../../../src/services/conversation/types';
import { loadSession } from '../../../src/services/history/index';
import { createAppStore } from '../../../src/state/store';

// The runtime with real parts: the scripted broker over loopback, the real (lazily loaded) MCP
// manager with the built-in server, real session files.
const { broker, track } = useBrokerAndTerminals();

describe('the runtime', () => {
  it('the lazy MCP manager: once connecting has begun, settled waits for the servers it started', async () => {
    const config = await testConfig(broker.url);
    const mcp = track(createMcpFor(config, process.env));
    expect(mcp.servers()).toEqual([]);
    mcp.connectAll({});
    const settled = await mcp.settled();
    expect(settled.map((server) => [server.alias, server.state])).toEqual([['builtin', 'ready']]);
  });

  it('a headless turn: the rule allows the tool, the loop runs it, the session log keeps every message', async () => {
    const config = await testConfig(broker.url);
    const notes: string[] = [];
    const runtime = track(createRuntime(config, { headless: { allow: ['builtin__calculator'], acceptChangedTools: false }, interactive: false, report: (_level, text) => notes.push(text) }));
    runtime.mcp.connectAll({});
    await runtime.mcp.settled();
    const log = runtime.sessionLog({}, { model: () => config.defaultModel, onError: (message) => notes.push(message) });
    broker.enqueue(toolCallReply([{ id: 'c1', name: 'builtin__calculator', arguments: { expression: '6*7' } }]), textReply('It is 42.'));
    const events: ConversationEvent[] = [];
    for await (const event of runtime.converse({
      signal: new AbortController().signal,
      history: [],
      text: 'what is 6*7?',
      model: config.models[config.defaultModel]!,
      approve: async () => ({ action: 'deny', reason: 'not asked in this test' }),
      confirmCommand: async () => ({ action: 'skip' }),
    })) {
      events.push(event);
      if (event.type === 'message') log.append(event.message);
    }
    log.close();
    expect(events.find((event) => event.type === 'tool-decision')).toMatchObject({ decision: { action: 'allow' } });
    expect(events.find((event) => event.type === 'tool-result')).toMatchObject({ content: '42', isError: false });
    expect(loadSession(log.dir, log.id()!).messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(readdirSync(log.dir)).toHaveLength(1);
    expect(notes).toEqual([]);
  });

  it('the TUI decides the same call by asking (no rule): the front end answers', async () => {
    const config = await testConfig(broker.url);
    const runtime = track(createRuntime(config, { report: () => {} }));
    runtime.mcp.connectAll({});
    await runtime.mcp.settled();
    broker.enqueue(toolCallReply([{ id: 'c1', name: 'builtin__calculator', arguments: { expression: '1+1' } }]), textReply('Two.'));
    const asked: string[] = [];
    for await (const event of runtime.converse({
      signal: new AbortController().signal,
      history: [],
      text: 'add',
      model: config.models[config.defaultModel]!,
      approve: async (request) => {
        asked.push(`${request.call.alias}__${request.call.tool}`);
        return { action: 'deny', reason: 'no' };
      },
      confirmCommand: async () => ({ action: 'skip' }),
    })) {
      if (event.type === 'tool-result') expect(event.isError).toBe(true);
    }
    expect(asked).toEqual(['builtin__calculator']);
  });

  it('the MCP bridge: server events reach the store; a failed sidebar action is a status line', async () => {
    const config = await testConfig(broker.url);
    const store = createAppStore();
    const mcp = track(createMcpFor(config, process.env));
    const unsubscribe = bridgeMcpEvents(mcp, store);
    mcp.connectAll({});
    await mcp.settled();
    expect(store.getState().servers.builtin?.state).toBe('ready');
    const statuses: string[] = [];
    serverActions(mcp, (level, text) => statuses.push(`${level}: ${text}`)).reconnectServer('nowhere');
    await vi.waitFor(() => expect(statuses).toHaveLength(1));
    expect(statuses[0]).toMatch(/^error: .*nowhere/);
    unsubscribe();
  });
});
