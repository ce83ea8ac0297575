import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { isToolResultTurn, lastMessage, textReply, toolCallReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { makeScratchHome, ROOT, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// A server's sampling request, through the built binary in a pseudo-terminal: the model calls
// server-everything's `trigger-sampling-request`, the server asks this client to sample, the
// person approves the request and then the answer in the sampling frame, the scripted model
// answers, and the server's tool result (which quotes what the client returned) reaches the model.

const EVERYTHING = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
/** The frame keys are dead for this long after a frame appears (plus margin). */
const FRAME_DELAY_MS = 600;

const { broker, track } = useBrokerAndTerminals();

const isSamplingRequest = (request: ReceivedRequest) => (request.body?.messages ?? []).some((message) => message.role === 'system' && message.content === 'You are a helpful test server.');

describe('end to end: sampling', () => {
  it('the model calls the sampling tool, the person approves request and answer, the server gets the answer', async () => {
    const home = makeScratchHome();
    writeHomeConfig(home, {
      models: { scripted: { baseUrl: broker.url, model: 'scripted' } },
      defaultModel: 'scripted',
      builtin: false,
      mcp: { servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } },
    });
    const term = track(new TerminalSession({ cols: 120, rows: 40, home }));
    await term.waitFor('mcp 1/1', 20_000);
    const from = broker.requests.length;
    broker.route((request) => {
      if (isSamplingRequest(request)) return textReply('A haiku from the scripted model.');
      if (isToolResultTurn(request)) return textReply(`Tool said: ${String(lastMessage(request)?.content).includes('A haiku from the scripted model.') ? 'got the haiku' : 'no haiku'}`);
      return toolCallReply([{ id: 'call_s1', name: 'everything__trigger-sampling-request', arguments: { prompt: 'a haiku', maxTokens: 40 } }]);
    });
    await term.typeSlowly('sample please');
    await term.waitFor('sample please');
    term.write('\r');
    await term.waitFor('Run this tool?');
    await sleep(FRAME_DELAY_MS);
    term.write('y');
    const request = await term.waitFor('Sampling request: send to your model?', 20_000);
    expect(request).toContain('server everything asks your model for an answer');
    expect(request).toContain('model scripted · up to 40 tokens · temperature 0.7');
    expect(request).toContain('Resource trigger-sampling-request context: a haiku');
    await sleep(FRAME_DELAY_MS);
    term.write('y');
    const answer = await term.waitFor("return the model's answer to the server?", 20_000);
    expect(answer).toContain('A haiku from the scripted model.');
    await sleep(FRAME_DELAY_MS);
    term.write('y');
    await term.waitFor('Tool said: got the haiku', 20_000);
    const sampled = broker.requests.slice(from).find(isSamplingRequest)!;
    expect(sampled.body).toMatchObject({ max_tokens: 40, messages: [{ role: 'system' }, { role: 'user', content: 'Resource trigger-sampling-request context: a haiku' }] });
  }, 90_000);
});
