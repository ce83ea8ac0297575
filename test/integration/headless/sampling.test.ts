import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isToolResultTurn, lastMessage, startScriptedBroker, textReply, toolCallReply, type ReceivedRequest, type ScriptedBroker } from '../../helpers/scripted-broker';
import { runAish } from './run-headless';

// `-p` and a server that asks for sampling (server-everything's trigger-sampling-request), through
// the built binary: refused unless --allow-sampling, then answered within the limits and noted on stderr.

const require = createRequire(import.meta.url);
const everything = { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };
let broker: ScriptedBroker;

beforeAll(async () => {
  broker = await startScriptedBroker();
  broker.route((request: ReceivedRequest) => {
    if ((request.body?.messages ?? []).some((message) => message.role === 'system' && message.content === 'You are a helpful test server.')) return textReply('sampled text');
    if (isToolResultTurn(request)) return textReply(`RESULT ${String(lastMessage(request)?.content).replace(/\s+/g, ' ')}`);
    return toolCallReply([{ id: 'c1', name: 'everything__trigger-sampling-request', arguments: { prompt: 'hi', maxTokens: 900 } }]);
  });
});
afterAll(async () => {
  await broker.close();
});

const run = (extra: string[]) =>
  runAish(['--base-url', broker.url, '--model', 'scripted', '-p', 'go', '--auto-approve', 'everything__trigger-sampling-request', ...extra], {
    config: { builtin: false, mcp: { servers: { everything }, sampling: { maxTokens: 50 } } },
  });

describe('-p and sampling', () => {
  it('refuses without --allow-sampling, saying how to allow it', async () => {
    const result = await run([]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('RESULT');
    expect(result.stdout).not.toContain('sampled text');
    expect(result.stderr).toContain('sampling request refused');
    expect(result.stderr).toContain('--allow-sampling');
  });

  it('with --allow-sampling: answered within mcp.sampling.maxTokens, and stderr says what was sampled', async () => {
    const start = broker.requests.length;
    const result = await run(['--allow-sampling']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('sampled text');
    expect(result.stderr).toMatch(/mcp everything: sampling with scripted without asking \(1 message, up to 50 tokens\)/);
    expect(result.stderr).toMatch(/mcp everything: sampled 12 characters from scripted/);
    const sampled = broker.requests.slice(start).find((request) => request.body?.messages?.[0]?.role === 'system' && request.body.messages[0].content === 'You are a helpful test server.');
    expect(sampled?.body).toMatchObject({ max_tokens: 50 });
  });
});
