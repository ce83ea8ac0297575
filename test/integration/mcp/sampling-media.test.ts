import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamChat } from '../../../src/services/broker/index';
import type { AppConfig } from '../../../src/services/config/load';
import { clientCapabilities } from '../../../src/services/mcp/capabilities';
import { installSampling } from '../../../src/services/mcp/sampling';
import type { SamplingRequest } from '../../../src/services/mcp/types';
import { createSampler, type SamplingPrompter } from '../../../src/runtime/sampling';
import { testConfig } from '../conversation/harness';
import { startScriptedBroker, textReply, type ScriptedBroker } from '../../helpers/scripted-broker';

// What a sampling request may carry beyond text (README "Sampling"): an image reaches only a model
// marked `vision: true` and is refused clearly otherwise; context from servers (`includeContext`)
// is never added, the capability that invites it is not declared, and an unattended answer says so.

let broker: ScriptedBroker;
beforeAll(async () => {
  broker = await startScriptedBroker();
});
afterAll(async () => {
  await broker.close();
});

const PIXEL = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]).toString('base64');

const request = (over: Partial<SamplingRequest> = {}): SamplingRequest => ({
  id: 'r1',
  alias: 'pics',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'What is in it?' }, { type: 'image', mimeType: 'image/png', data: PIXEL }] }],
  maxTokens: 100,
  ...over,
});

function approvingPrompter(asked: SamplingRequest[]): SamplingPrompter {
  return {
    reviewRequest: async (shown) => {
      asked.push(shown);
      return { action: 'approve' };
    },
    generating: () => {},
    streaming: () => {},
    reviewResult: async () => ({ action: 'approve' }),
    done: () => {},
  };
}

async function sampler(vision: boolean, options: { unattended?: boolean } = {}) {
  const config: AppConfig = await testConfig(broker.url, (loaded) => {
    loaded.models[loaded.defaultModel] = { ...loaded.models[loaded.defaultModel]!, vision };
  });
  const asked: SamplingRequest[] = [];
  const reports: string[] = [];
  const handler = createSampler({
    config,
    streamChat,
    env: process.env,
    currentModel: () => config.defaultModel,
    ...(options.unattended ? { unattended: true } : { prompter: approvingPrompter(asked) }),
    report: (_level, text) => reports.push(text),
  });
  return { handler, asked, reports };
}

describe('sampling requests with an image', () => {
  it('are refused before anyone is asked when the model is not marked vision: true, saying why', async () => {
    const { handler, asked, reports } = await sampler(false);
    const before = broker.requests.length;
    const outcome = await handler(request(), new AbortController().signal);
    expect(outcome).toMatchObject({ action: 'deny', code: -1, reason: expect.stringMatching(/carries an image and scripted is not marked vision: true/) });
    expect(asked).toEqual([]);
    expect(broker.requests.length).toBe(before);
    expect(reports.join('\n')).toMatch(/mcp pics: sampling request refused: the request carries an image/);
  });

  it('reach a vision model as an image_url part after approval', async () => {
    const { handler, asked } = await sampler(true);
    const before = broker.requests.length;
    broker.enqueue(textReply('A tiny picture.'));
    const outcome = await handler(request(), new AbortController().signal);
    expect(asked).toHaveLength(1);
    expect(outcome).toMatchObject({ action: 'result', result: { text: 'A tiny picture.' } });
    const sent = JSON.stringify(broker.requests.slice(before).at(-1)?.body);
    expect(sent).toContain(`data:image/png;base64,${PIXEL}`);
  });

  it('a text-only request still reaches a model without vision', async () => {
    const { handler } = await sampler(false);
    broker.enqueue(textReply('Plain.'));
    const outcome = await handler(request({ messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }), new AbortController().signal);
    expect(outcome).toMatchObject({ action: 'result', result: { text: 'Plain.' } });
  });
});

describe('context asked for by a server (includeContext)', () => {
  it('is never added: the client declares sampling without context or tools', () => {
    expect(clientCapabilities({ roots: true, elicitation: true, sampling: true }).sampling).toEqual({});
  });

  it('an unattended answer says the context asked for was not included, and sends only the messages', async () => {
    const { handler, reports } = await sampler(false, { unattended: true });
    const before = broker.requests.length;
    broker.enqueue(textReply('ok'));
    await handler(request({ includeContext: 'allServers', systemPrompt: 'Be brief.', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }] }), new AbortController().signal);
    expect(reports.join('\n')).toMatch(/it asked for context \(allServers\): none is included/);
    const body = broker.requests.slice(before).at(-1)?.body as { messages: Array<{ role: string; content: unknown }> };
    expect(body.messages).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ]);
  });
});

describe('sampling with tools (MCP 2025-11-25)', () => {
  it('is not offered: sampling.tools is never declared, and a request carrying tools is refused before anyone is asked', async () => {
    expect(clientCapabilities({ roots: true, elicitation: true, sampling: true }).sampling).not.toHaveProperty('tools');
    let registered: ((request: unknown, ctx: unknown) => Promise<unknown>) | undefined;
    const client = { setRequestHandler: (_method: string, handler: typeof registered) => void (registered = handler) } as unknown as Parameters<typeof installSampling>[0];
    let asked = 0;
    installSampling(client, 'pics', async () => {
      asked += 1;
      return { action: 'deny', reason: 'no' };
    });
    const params = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10, tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] };
    await expect(registered!({ params }, { mcpReq: { signal: new AbortController().signal } })).rejects.toMatchObject({ code: -32602, message: expect.stringMatching(/does not support tools in sampling requests/) });
    expect(asked).toBe(0);
  });
});
