import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isToolResultTurn, startScriptedBroker, textReply, toolCallReply, type ScriptedBroker } from '../../helpers/scripted-broker';
import { DENIED_BY_USER, DEPTH_LIMIT_STATUS } from '../../../src/services/conversation/index';
import type { Message } from '../../../src/services/conversation/types';
import type { McpManagerService } from '../../../src/services/mcp/types';
import { createApprovalPolicy } from '../../../src/services/tools/policy';
import { assertValidHistory, eventTypes, run, startMcp, testConfig, toolMessages } from './harness';

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

const calc = (expression: string, id = 'call_calc') => ({ id, name: 'builtin__calculator', arguments: { expression } });

// Seed checkpoint for commit #6 (repl.lua): a question that triggers a tool round-trips through
// confirmation, execution and the model's continuation.
describe('the conversation loop with the built-in server', () => {
  it('round trip: tools offered, call confirmed, run, result fed back, model continues', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    const start = broker.requests.length;
    broker.enqueue(toolCallReply([calc('6*7')], { textBefore: 'Let me compute. ' }), textReply('6*7 is 42.', { usage: { prompt_tokens: 30, completion_tokens: 6 } }));
    const result = await run({ config, mcp, text: 'what is 6*7?', approve: () => ({ action: 'allow', scope: 'once' }) });

    const [first, second] = broker.requests.slice(start);
    const toolNames = (first!.body!.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
    expect(toolNames).toEqual(expect.arrayContaining(['builtin__calculator', 'builtin__get_time', 'builtin__roll_dice']));
    expect(first!.body!.messages!.map((message) => message.role)).toEqual(['system', 'user']);
    expect(second!.body!.messages!.slice(-2)).toEqual([
      { role: 'assistant', content: 'Let me compute. ', tool_calls: [{ id: 'call_calc', type: 'function', function: { name: 'builtin__calculator', arguments: '{"expression":"6*7"}' } }] },
      { role: 'tool', tool_call_id: 'call_calc', content: '42' },
    ]);

    expect(result.approvals).toHaveLength(1);
    expect(result.approvals[0]).toMatchObject({ position: 1, count: 1, call: { alias: 'builtin', tool: 'calculator', wireName: 'builtin__calculator', arguments: { expression: '6*7' } } });
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(result.messages[2]).toMatchObject({ role: 'tool', toolCallId: 'call_calc', content: '42', isError: false });
    expect(result.messages[3]).toMatchObject({ role: 'assistant', content: '6*7 is 42.', finishReason: 'stop' });
    const types = eventTypes(result.events);
    expect(types.slice(types.indexOf('tool-call'), types.indexOf('tool-result') + 1)).toEqual(['tool-call', 'tool-decision', 'tool-started', 'tool-result']);
    expect(result.events.find((event) => event.type === 'tool-decision')).toMatchObject({ decision: { action: 'allow', by: 'user', scope: 'once' } });
    expect(result.events.filter((event) => event.type === 'request-start').map((event) => (event as { depth: number }).depth)).toEqual([0, 1]);
    expect(result.events.find((event) => event.type === 'usage')).toMatchObject({ usage: { promptTokens: 30, completionTokens: 6 } });
    expect(result.events.at(-1)).toEqual({ type: 'done', finishReason: 'stop' });
    assertValidHistory(result.messages, config);
  });

  it('a config rule runs the call without asking and says which rule allowed it', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.mcp.autoApprove = { 'builtin__*': true };
    });
    mcp = await startMcp(config);
    broker.enqueue(toolCallReply([calc('2^10')]), textReply('1024'));
    const result = await run({ config, mcp, text: 'two to the ten' });
    expect(result.approvals).toHaveLength(0);
    expect(result.events.find((event) => event.type === 'tool-decision')).toMatchObject({ decision: { action: 'allow', by: 'rule', rule: 'config mcp.autoApprove builtin__*' } });
    expect(toolMessages(result.messages)[0]!.content).toBe('1024');
  });

  it('a lone call is decided once, when it runs (the "1 of N" counter needs the others only when there are several)', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    const real = createApprovalPolicy({ autoApprove: { 'builtin__*': true } });
    const decided: string[] = [];
    const policy = { ...real, decide: (alias: string, tool: string, args?: Record<string, unknown>) => (decided.push(`${alias}__${tool}`), real.decide(alias, tool, args)) };
    broker.enqueue(toolCallReply([calc('1+1')]), textReply('2'));
    const lone = await run({ config, mcp, text: 'one plus one', policy });
    expect(toolMessages(lone.messages).map((message) => message.content)).toEqual(['2']);
    expect(decided).toEqual(['builtin__calculator']);
    decided.length = 0;
    broker.enqueue(toolCallReply([calc('1+1', 'call_a'), calc('2+2', 'call_b')]), textReply('2 and 4'));
    const pair = await run({ config, mcp, text: 'both', policy });
    expect(toolMessages(pair.messages).map((message) => message.content)).toEqual(['2', '4']);
    // Counted ahead for the counter, then decided again as each runs.
    expect(decided).toHaveLength(4);
  });

  it('a changed tool definition asks again despite a config rule, shows what changed, and is accepted on approval', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    const accepted: string[] = [];
    let changed = true;
    const policy = createApprovalPolicy({
      autoApprove: { 'builtin__*': true },
      definitions: {
        changeOf: (alias, tool) => (changed && tool === 'calculator' ? 'description changed since you approved this tool' : undefined),
        accept: (alias, tool) => {
          accepted.push(`${alias}__${tool}`);
          changed = false;
        },
      },
    });
    broker.enqueue(toolCallReply([calc('1+2', 'a'), calc('3+4', 'b')]), textReply('3 and 7'));
    const result = await run({ config, mcp, text: 'add', policy, approve: () => ({ action: 'allow', scope: 'once' }) });
    expect(result.approvals).toHaveLength(1);
    expect(result.approvals[0]!.call.definitionChanged).toBe('description changed since you approved this tool');
    expect(accepted).toEqual(['builtin__calculator']);
    const decisions = result.events.filter((event) => event.type === 'tool-decision').map((event) => (event as { decision: unknown }).decision);
    expect(decisions).toEqual([
      { action: 'allow', by: 'user', scope: 'once' },
      { action: 'allow', by: 'rule', rule: 'config mcp.autoApprove builtin__*' },
    ]);
  });

  it('deny with a reason: the call is not run and the model gets the reason as the tool result', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    const called: string[] = [];
    const start = broker.requests.length;
    broker.enqueue(toolCallReply([calc('1+1')]), textReply('Understood.'));
    const result = await run({
      config,
      mcp,
      text: 'add',
      approve: () => ({ action: 'deny', reason: 'do it in your head' }),
      callTool: async (...args) => {
        called.push(args[1]);
        return mcp.callTool(...args);
      },
    });
    expect(called).toEqual([]);
    const content = `${DENIED_BY_USER}: do it in your head`;
    expect(toolMessages(result.messages)).toMatchObject([{ toolCallId: 'call_calc', content, isError: true, outcome: 'denied' }]);
    expect(broker.requests[start + 1]!.body!.messages!.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_calc', content });
    expect(result.events.find((event) => event.type === 'tool-result')).toMatchObject({ outcome: 'denied' });
    assertValidHistory(result.messages, config);
  });

  it('deny without a reason gives the bare denial text', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    broker.enqueue(toolCallReply([calc('1+1')]), textReply('ok'));
    const result = await run({ config, mcp, text: 'add', approve: () => ({ action: 'deny' }) });
    expect(toolMessages(result.messages)[0]!.content).toBe(DENIED_BY_USER);
  });

  it('an unknown tool, unparseable arguments and arguments that do not fit the schema are answered without asking and never run', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    const called: string[] = [];
    broker.enqueue(
      toolCallReply([
        { id: 'c_unknown', name: 'nosuch__tool', arguments: {} },
        { id: 'c_bad', name: 'builtin__calculator', arguments: '{"expression": "1+' },
        { id: 'c_array', name: 'builtin__calculator', arguments: '[1,2]' },
        { id: 'c_schema', name: 'builtin__calculator', arguments: { expression: 42 } },
      ]),
      textReply('I will stop.'),
    );
    const result = await run({
      config,
      mcp,
      text: 'go',
      approve: () => ({ action: 'allow', scope: 'once' }),
      callTool: async (...args) => {
        called.push(args[1]);
        return mcp.callTool(...args);
      },
    });
    expect(result.approvals).toEqual([]);
    expect(called).toEqual([]);
    const tools = toolMessages(result.messages);
    expect(tools.map((message) => message.toolCallId)).toEqual(['c_unknown', 'c_bad', 'c_array', 'c_schema']);
    expect(tools[0]!.content).toBe('[aish] unknown tool: nosuch__tool (no connected server offers it)');
    expect(tools[1]!.content).toMatch(/^\[aish\] tool arguments not parseable as JSON: /);
    expect(tools[2]!.content).toBe('[aish] tool arguments must be a JSON object, got an array');
    expect(tools[3]!.content).toBe('[aish] tool arguments invalid: /expression must be string');
    expect(result.events.find((event) => event.type === 'tool-decision' && event.id === 'c_schema')).toMatchObject({ decision: { action: 'skip' } });
    const raw = result.events.find((event) => event.type === 'tool-call' && event.call.id === 'c_bad');
    expect(raw).toMatchObject({ call: { rawArguments: '{"expression": "1+' } });
    expect((raw as { call: { arguments?: unknown } }).call.arguments).toBeUndefined();
    assertValidHistory(result.messages, config);
  });

  it('stops at maxToolDepth with a status, every call still answered', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    const start = broker.requests.length;
    let n = 0;
    broker.route(() => toolCallReply([calc(`${++n}+1`, `call_${n}`)]));
    const result = await run({ config, mcp, text: 'loop forever', approve: () => ({ action: 'allow', scope: 'once' }), maxToolDepth: 2 });
    expect(broker.requests.length - start).toBe(3);
    expect(result.events).toContainEqual({ type: 'status', level: 'warn', message: DEPTH_LIMIT_STATUS });
    const tools = toolMessages(result.messages);
    expect(tools.map((message) => message.content)).toEqual(['2', '3', `[aish] tool call not run: ${DEPTH_LIMIT_STATUS}`]);
    expect(result.approvals).toHaveLength(2);
    expect(result.events.at(-1)).toEqual({ type: 'done', finishReason: 'tool_calls' });
    assertValidHistory(result.messages, config);
  });

  it('maxToolDepth 0 reports the calls and runs none', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    broker.enqueue(toolCallReply([calc('1+1')]));
    const result = await run({ config, mcp, text: 'add', approve: () => ({ action: 'allow', scope: 'once' }), maxToolDepth: 0 });
    expect(result.approvals).toEqual([]);
    expect(result.events.find((event) => event.type === 'tool-decision')).toMatchObject({ decision: { action: 'skip', reason: DEPTH_LIMIT_STATUS } });
    assertValidHistory(result.messages, config);
  });

  it('limits the calls of one answer (mcp.maxToolCallsPerAnswer)', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.mcp.maxToolCallsPerAnswer = 2;
    });
    mcp = await startMcp(config);
    broker.enqueue(toolCallReply([calc('1', 'a'), calc('2', 'b'), calc('3', 'c')]), textReply('done'));
    const result = await run({ config, mcp, text: 'three', approve: () => ({ action: 'allow', scope: 'once' }) });
    expect(toolMessages(result.messages).map((message) => message.content)).toEqual(['1', '2', '[aish] tool call not run: too many tool calls in one answer (limit 2)']);
  });

  it('"always this tool" stops asking for that tool within the same answer; other tools still ask', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    broker.enqueue(
      toolCallReply([calc('1+1', 'a'), calc('2+2', 'b'), { id: 'c', name: 'builtin__roll_dice', arguments: { notation: '1d6' } }]),
      textReply('done'),
    );
    const result = await run({ config, mcp, text: 'sums', approve: (request) => (request.call.tool === 'calculator' ? { action: 'allow', scope: 'tool' } : { action: 'deny' }) });
    expect(result.approvals.map((request) => [request.call.id, request.position, request.count])).toEqual([
      ['a', 1, 3],
      ['c', 2, 3],
    ]);
    const decisions = result.events.filter((event) => event.type === 'tool-decision').map((event) => (event as { decision: unknown }).decision);
    expect(decisions[1]).toEqual({ action: 'allow', by: 'rule', rule: 'session rule builtin__calculator' });
    expect(toolMessages(result.messages).map((message) => message.content)).toEqual(['2', '4', DENIED_BY_USER]);
  });

  it('sends no tools field when no server is ready (some servers reject "tools": [])', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config, {}, false);
    const start = broker.requests.length;
    broker.enqueue(textReply('plain'));
    await run({ config, mcp, text: 'hi' });
    expect(broker.requests[start]!.body).not.toHaveProperty('tools');
    expect(broker.requests[start]!.rawBody).not.toContain('"tools"');
  });

  it('useToolRole false: the model receives [tool: alias__name] blocks as a user turn, never role "tool"', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.context.useToolRole = false;
    });
    mcp = await startMcp(config);
    const start = broker.requests.length;
    broker.enqueue(toolCallReply([calc('6*7')], { textBefore: 'Computing.' }), textReply('42 it is.'));
    const result = await run({ config, mcp, text: 'what is 6*7?', approve: () => ({ action: 'allow', scope: 'once' }) });
    const sent = broker.requests[start + 1]!.body!.messages!;
    expect(sent.some((message) => message.role === 'tool' || message.tool_calls)).toBe(false);
    expect(sent.slice(-2)).toEqual([
      { role: 'assistant', content: 'Computing.\n\n[tool call: builtin__calculator {"expression":"6*7"}]' },
      { role: 'user', content: '[tool: builtin__calculator]\n42' },
    ]);
    // The history itself keeps the structured turns (the fallback is only the wire shape).
    expect(result.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('caps a large tool result for the model but keeps it whole in the history', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.context.maxToolResultChars = 10;
    });
    mcp = await startMcp(config);
    const start = broker.requests.length;
    broker.enqueue(toolCallReply([calc('2^60')]), textReply('big'));
    const result = await run({ config, mcp, text: 'big number', approve: () => ({ action: 'allow', scope: 'once' }) });
    const full = toolMessages(result.messages)[0]!.content;
    expect(full.length).toBeGreaterThan(10);
    expect(broker.requests[start + 1]!.body!.messages!.at(-1)!.content).toBe(`${full.slice(0, 10)}\n[truncated ${full.length - 10} chars]`);
  });
});

describe('request body and failing servers', () => {
  it('the body sent equals a hand-built one (model, messages, stream, tools)', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    const start = broker.requests.length;
    broker.enqueue(textReply('hi'));
    await run({ config, mcp, text: 'hello' });
    const builtin = mcp.servers().find((server) => server.alias === 'builtin')!;
    const expected = {
      model: 'scripted',
      messages: [
        { role: 'system', content: config.systemPrompt },
        { role: 'user', content: 'hello' },
      ],
      stream: true,
      tools: builtin.tools.map((tool) => ({
        type: 'function',
        function: { name: `builtin__${tool.name}`, description: tool.description, parameters: tool.inputSchema },
      })),
    };
    const body = broker.requests[start]!.body!;
    expect(body).toMatchObject(expected);
    expect(Object.keys(body).sort()).toEqual(expect.arrayContaining(['messages', 'model', 'stream', 'tools']));
  });

  it('a server that dies mid-call: the call is answered with a transport error, the model continues', async () => {
    const config = await testConfig(broker.url);
    const script = new URL('../../helpers/misbehaving-stdio-server.mjs', import.meta.url).pathname;
    mcp = await startMcp(config, { bad: { command: process.execPath, args: [script] } }, false);
    const start = broker.requests.length;
    broker.enqueue(toolCallReply([{ id: 'boom', name: 'bad__crash', arguments: { text: 'x' } }]), textReply('The server failed.'));
    const result = await run({ config, mcp, text: 'crash it', approve: () => ({ action: 'allow', scope: 'once' }) });
    const [tool] = toolMessages(result.messages);
    expect(tool).toMatchObject({ toolCallId: 'boom', isError: true });
    expect(tool!.content).toMatch(/^\[aish\] tool transport error: /);
    expect(broker.requests[start + 1]!.body!.messages!.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'boom' });
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'The server failed.' });
    assertValidHistory(result.messages, config);
  });
});

describe('aborting', () => {
  it('mid-stream: the partial answer is kept, the request is dropped, the history stays valid', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    const start = broker.requests.length;
    broker.enqueue(textReply('one two three four five six seven eight nine ten', { chunkSize: 4, tokensPerSecond: 20 }));
    const controller = new AbortController();
    const result = await run({
      config,
      mcp,
      text: 'count slowly',
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'text-delta') controller.abort();
      },
    });
    expect(result.events.at(-1)).toEqual({ type: 'done', finishReason: 'cancelled' });
    const answer = result.messages.at(-1) as Extract<Message, { role: 'assistant' }>;
    expect(answer).toMatchObject({ role: 'assistant', finishReason: 'cancelled' });
    expect(answer.content.length).toBeGreaterThan(0);
    expect('one two three four five six seven eight nine ten'.startsWith(answer.content)).toBe(true);
    expect(answer.content.length).toBeLessThan(40);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(broker.requests[start]!.disconnected).toBe(true);
    assertValidHistory(result.messages, config);
  });

  it('while waiting for approval: the call gets a cancelled turn, nothing else is asked', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    broker.enqueue(toolCallReply([calc('1', 'a'), calc('2', 'b')]));
    const controller = new AbortController();
    const result = await run({
      config,
      mcp,
      text: 'two calls',
      signal: controller.signal,
      approve: () => {
        controller.abort();
        return new Promise(() => {});
      },
    });
    expect(result.approvals).toHaveLength(1);
    expect(toolMessages(result.messages).map((message) => [message.toolCallId, message.content])).toEqual([
      ['a', '[aish] tool call cancelled by the user'],
      ['b', '[aish] tool call cancelled by the user'],
    ]);
    expect(result.events.at(-1)).toEqual({ type: 'done', finishReason: 'cancelled' });
    assertValidHistory(result.messages, config);
  });
});

describe('proposed commands (CMD:)', () => {
  it('asks for each CMD: line of the final answer, runs the confirmed (edited) one, keeps its output for the next user turn', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.shell.shell = '/bin/sh';
    });
    mcp = await startMcp(config, {}, false);
    broker.enqueue(textReply('Try these:\nCMD: echo first\n```\nCMD: echo inside-fence\n```\nCMD: echo second'));
    const first = await run({
      config,
      mcp,
      text: 'show me',
      confirmCommand: (command) => (command.command === 'echo first' ? { action: 'skip' } : { action: 'run', command: 'echo edited; echo err >&2' }),
    });
    expect(first.proposals.map((proposal) => proposal.command)).toEqual(['echo first', 'echo second']);
    const commandEvents = eventTypes(first.events).filter((type) => type.startsWith('command-'));
    expect(commandEvents.slice(0, 4)).toEqual(['command-proposed', 'command-skipped', 'command-proposed', 'command-started']);
    expect(commandEvents.slice(4, -1).length).toBeGreaterThan(0);
    expect(commandEvents.slice(4, -1).every((type) => type === 'command-output')).toBe(true);
    expect(commandEvents.at(-1)).toBe('command-exit');
    const exec = first.messages.at(-1);
    expect(exec).toMatchObject({ role: 'exec', command: 'echo edited; echo err >&2', proposed: 'echo second', output: 'edited\nerr\n', exitCode: 0 });
    expect(first.events.find((event) => event.type === 'command-exit')).toMatchObject({ exitCode: 0, timedOut: false, truncated: false });

    // The next user turn carries the output; the model never gets it as a turn of its own.
    const start = broker.requests.length;
    broker.enqueue(textReply('I see edited and err.'));
    await run({ config, mcp, text: 'what did it print?', history: first.messages });
    const sent = broker.requests[start]!.body!.messages!;
    // The model hears that what ran is not what it proposed.
    expect(sent.at(-1)).toEqual({ role: 'user', content: '[exec: echo edited; echo err >&2]\n[the user edited the proposed command before it ran; proposed: echo second]\nedited\nerr\n[exit code 0]\n\nwhat did it print?' });
  });

  it('pending exec output persists across a tool sub-loop and reaches the model once, with the user turn', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    const at = new Date().toISOString();
    const history: Message[] = [
      { id: '1', role: 'user', content: 'list', at },
      { id: '2', role: 'assistant', content: 'CMD: ls', at },
      { id: '3', role: 'exec', command: 'ls', output: 'notes.txt\n', exitCode: 0, at },
    ];
    const start = broker.requests.length;
    broker.enqueue(toolCallReply([calc('3*3')]), textReply('9, and I saw notes.txt'));
    const result = await run({ config, mcp, history, text: 'and 3*3?', approve: () => ({ action: 'allow', scope: 'once' }) });
    const [first, second] = broker.requests.slice(start).map((request) => JSON.stringify(request.body!.messages));
    expect(first).toContain('[exec: ls]\\nnotes.txt\\n[exit code 0]\\n\\nand 3*3?');
    expect(second!.split('notes.txt').length - 1).toBe(1);
    expect(broker.requests[start + 1]!.body!.messages!.at(-1)).toEqual({ role: 'tool', tool_call_id: 'call_calc', content: '9' });
    assertValidHistory(result.messages, config);
  });

  it('runs nothing from an answer that did not end cleanly', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config, {}, false);
    broker.enqueue(textReply('CMD: echo never', { finishReason: 'length' }));
    const result = await run({ config, mcp, text: 'x', confirmCommand: () => ({ action: 'run', command: 'echo never' }) });
    expect(result.proposals).toEqual([]);
  });
});

describe('broker failures', () => {
  it('an HTTP error becomes an error event and done(error); the user turn stays in the history', async () => {
    const config = await testConfig(broker.url, (c) => {
      c.broker.maxRetries = 0;
    });
    mcp = await startMcp(config, {}, false);
    broker.route(() => ({ kind: 'body', status: 500, contentType: 'application/json', body: '{"error":{"message":"boom"}}' }));
    const result = await run({ config, mcp, text: 'hi' });
    expect(result.events.some((event) => event.type === 'error' && event.message.includes('500'))).toBe(true);
    expect(result.events.at(-1)).toEqual({ type: 'done', finishReason: 'error' });
    expect(result.messages.map((message) => message.role)).toEqual(['user']);
    assertValidHistory(result.messages, config);
  });

  it('a router that answers tool results with text ends the loop after one round', async () => {
    const config = await testConfig(broker.url);
    mcp = await startMcp(config);
    broker.route((request) => (isToolResultTurn(request) ? textReply('after tool') : toolCallReply([calc('5-3')])));
    const result = await run({ config, mcp, text: 'subtract', approve: () => ({ action: 'allow', scope: 'once' }) });
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'after tool' });
  });
});
