import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedBroker, textReply, toolCallReply, type ScriptedBroker } from '../../helpers/scripted-broker';
import type { AppConfig } from '../../../src/services/config/load';
import type { McpManagerService } from '../../../src/services/mcp/types';
import { assertValidHistory, everythingServer, run, startMcp, testConfig, toolMessages } from './harness';

// What the model receives for results a client must not pass on verbatim, end to end: a real
// stdio server (test/helpers/results-mcp-server.mjs) and server-everything, through the MCP
// manager and the loop, read back from the requests the scripted broker got.

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'helpers', 'results-mcp-server.mjs');

let broker: ScriptedBroker;
let mcp: McpManagerService;
let config: AppConfig;

beforeAll(async () => {
  broker = await startScriptedBroker();
  config = await testConfig(broker.url, (loaded) => {
    loaded.context.maxToolResultChars = 100_000;
  });
  mcp = await startMcp(config, { results: { command: process.execPath, args: [RESULTS] }, everything: everythingServer() }, false);
}, 60_000);
afterAll(async () => {
  await mcp?.close();
  await broker?.close();
});

type Wire = { role: string; content?: string | null; tool_call_id?: string };

/** Calls one tool through the loop and returns what the model got as its result, and the run. */
async function modelSees(name: string, args: Record<string, unknown> = {}) {
  const id = `c${broker.requests.length}`;
  broker.enqueue(toolCallReply([{ id, name, arguments: args }]), textReply('ok'));
  const start = broker.requests.length;
  const result = await run({ config, mcp, text: `call ${name}`, approve: () => ({ action: 'allow', scope: 'once' }) });
  const messages = broker.requests[start + 1]!.body!.messages as Wire[];
  const turn = messages.find((message) => message.role === 'tool' && message.tool_call_id === id);
  assertValidHistory(result.messages, config);
  return { content: turn?.content ?? '', result, bytes: JSON.stringify(broker.requests[start + 1]!.body) };
}

describe('what the model receives for binary results', () => {
  it('an image copied into structuredContent reaches it as placeholders, no base64', async () => {
    const { content, result, bytes } = await modelSees('results__media');
    expect(content).toBe('{"content":[{"type":"image","data":"[image/png, 75 KB]","mimeType":"image/png"}]}\n[image/png, 75 KB]');
    expect(bytes.length).toBeLessThan(10_000);
    const [tool] = toolMessages(result.messages);
    expect(tool!.content).toBe(content);
    expect(result.events).toContainEqual({ type: 'status', level: 'warn', message: 'results__media returned image/png content; the model sees a placeholder' });
  });

  it('base64 only in structuredContent (a long run, a data: URL, a nested audio block) is replaced', async () => {
    const { content, bytes } = await modelSees('results__structured');
    expect(JSON.parse(content)).toEqual({
      path: '/tmp/picture.png',
      raw: '[application/octet-stream, 75 KB]',
      preview: '[image/png, 75 KB]',
      nested: { clip: { type: 'audio', data: '[audio/wav, 4 KB]', mimeType: 'audio/wav' } },
    });
    expect(bytes.length).toBeLessThan(10_000);
  });

  it('a text/plain resource sent as a blob reaches it as text; an octet-stream blob as a placeholder', async () => {
    expect((await modelSees('results__text-blob')).content).toBe('[resource file:///notes/readme.txt]\nhello from a blob\nsecond line: grüße\n');
    expect((await modelSees('results__binary-blob')).content).toBe('[resource file:///bin/tool: application/octet-stream, 75 KB]');
  });

  it('server-everything: an embedded gzip resource and an annotated image stay placeholders', async () => {
    const gzip = await modelSees('everything__gzip-file-as-resource', { name: 'x.gz', data: `data:text/plain;base64,${Buffer.from('hello '.repeat(50)).toString('base64')}`, outputType: 'resource' });
    expect(gzip.content).toMatch(/^\[resource demo:\/\/resource\/session\/x\.gz: application\/gzip, \d+ B\]$/);
    const image = await modelSees('everything__get-annotated-message', { messageType: 'success', includeImage: true });
    expect(image.content).toMatch(/\[image\/png, \d+ (B|KB)\]/);
    expect(image.content).not.toMatch(/iVBOR/);
  });
});

describe('errors and long results', () => {
  it('an isError result is marked as an error in the tool turn', async () => {
    const { content, result } = await modelSees('results__fail');
    expect(content).toBe('[aish] the tool reported an error: Permission denied: /etc/shadow');
    expect(toolMessages(result.messages)[0]).toMatchObject({ isError: true });
    expect(result.events.find((event) => event.type === 'tool-result')).toMatchObject({ isError: true, outcome: 'tool-error' });
  });

  it('a result cut for the model tells the model and the user how much was cut', async () => {
    const { content, result } = await modelSees('results__lines');
    const full = toolMessages(result.messages)[0]!.content;
    expect(full.split('\n')).toHaveLength(60_000);
    expect(content.startsWith(full.slice(0, 100_000))).toBe(true);
    expect(content.slice(100_000)).toBe(`\n[truncated ${full.length - 100_000} chars]`);
    const cut = (full.length - 100_000).toLocaleString('en-US');
    expect(result.events).toContainEqual({
      type: 'status',
      level: 'warn',
      message: `results__lines returned ${full.length.toLocaleString('en-US')} characters (60,000 lines); the model gets the first 100,000, ${cut} characters cut (context.maxToolResultChars)`,
    });
  });

  it('a short result gets no cut notice', async () => {
    const { result } = await modelSees('results__lines', { count: 3 });
    expect(result.events.filter((event) => event.type === 'status' && event.message.includes('characters cut'))).toEqual([]);
  });
});

describe('tools that run only as tasks', () => {
  it('are offered when their server declares task calls, otherwise listed but withheld with the reason', async () => {
    broker.enqueue(textReply('hi'));
    const start = broker.requests.length;
    const result = await run({ config, mcp, text: 'which tools?' });
    const offered = (broker.requests[start]!.body!.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
    expect(offered).toEqual(expect.arrayContaining(['results__fail', 'everything__echo']));
    expect(offered).not.toContain('results__research');
    // server-everything declares task calls: its task-only tool is offered and will run as a task.
    expect(offered).toContain('everything__simulate-research-query');
    const statuses = result.events.flatMap((event) => (event.type === 'status' ? [event.message] : []));
    expect(statuses).toContain('results__research withheld from the model: it runs only as a task (execution.taskSupport "required") and the server does not declare task calls (capabilities.tasks.requests.tools.call)');
    const listed = mcp.servers().find((server) => server.alias === 'results')!.tools.find((tool) => tool.name === 'research');
    expect(listed).toMatchObject({ execution: { taskSupport: 'required' }, outputSchema: { required: ['summary'] }, icons: [{ src: 'https://example.com/research.svg' }, { mimeType: 'image/png' }] });
  });

  it('a direct call (mcp call) is refused with the reason instead of failing on the server', async () => {
    const outcome = await mcp.callTool('results', 'research', { topic: 'x' });
    expect(outcome).toMatchObject({ kind: 'rpc-error', isError: true });
    expect(outcome.content).toBe('[aish] tool dispatch failed: results__research was not called: it runs only as a task (execution.taskSupport "required") and the server does not declare task calls (capabilities.tasks.requests.tools.call)');
  });
});
