import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { isToolResultTurn, lastMessage, textReply, toolCallReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { makeScratchHome, ROOT, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// A server's sampling request sent as a task (MCP 2025-11-25), through the built binary in a
// pseudo-terminal: the model calls server-everything's `trigger-sampling-request-async` (offered
// only because the client declares tasks for sampling), the server gets a task id at once and
// polls, the person approves request and answer in the usual sampling frame, and the server's
// tool result (the task's result, fetched with tasks/result) reaches the model.

const EVERYTHING = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
/** The frame keys are dead for this long after a frame appears (plus margin). */
const FRAME_DELAY_MS = 600;

const { broker, track } = useBrokerAndTerminals();

const isSamplingRequest = (request: ReceivedRequest) => (request.body?.messages ?? []).some((message) => message.role === 'system' && message.content === 'You are a helpful test server.');

describe('end to end: sampling as a client task', () => {
  it('the model calls the async sampling tool, the person approves in the frame, the server fetches the task result', async () => {
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
      if (isToolResultTurn(request)) return textReply(`Tool said: ${/\[COMPLETED\][\s\S]*A haiku from the scripted model\./.test(String(lastMessage(request)?.content)) ? 'got the haiku' : 'no haiku'}`);
      return toolCallReply([{ id: 'call_s1', name: 'everything__trigger-sampling-request-async', arguments: { prompt: 'a haiku', maxTokens: 40 } }]);
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
    expect(request).toContain('Resource trigger-sampling-request-async context: a haiku');
    await sleep(FRAME_DELAY_MS);
    term.write('y');
    const answer = await term.waitFor("return the model's answer to the server?", 20_000);
    expect(answer).toContain('A haiku from the scripted model.');
    await sleep(FRAME_DELAY_MS);
    term.write('y');
    await term.waitFor('Tool said: got the haiku', 20_000);
    const sampled = broker.requests.slice(from).find(isSamplingRequest)!;
    expect(sampled.body).toMatchObject({ max_tokens: 40, messages: [{ role: 'system' }, { role: 'user', content: 'Resource trigger-sampling-request-async context: a haiku' }] });
  }, 90_000);
});
