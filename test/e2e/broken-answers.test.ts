import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunk, sse, startScriptedBroker, textReply, type ScriptedBroker } from '../helpers/scripted-broker';
import { CLI, makeScratchHome, testEnv } from '../helpers/terminal';

// The built binary, headless, against answers that are broken in ways real servers break them:
// an empty 200, and a tool call cut off by finish_reason "length" (then resumed from its log).
let broker: ScriptedBroker;
beforeAll(async () => {
  broker = await startScriptedBroker();
});
afterAll(async () => {
  await broker.close();
});

function aish(args: string[], home: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, '--base-url', broker.url, '--model', 'scripted', ...args], { env: testEnv(home), cwd: home });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 25_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end('');
  });
}

const isJsonObject = (text: string) => {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
};

describe('headless, an empty answer', () => {
  it('text: exit 1 and the error on stderr; json: exit 1 with error set', async () => {
    const home = makeScratchHome('aish-empty-');
    broker.enqueue({ kind: 'stream', frames: [] });
    const text = await aish(['-p', 'e1'], home);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain('the server sent an empty answer');

    broker.enqueue(sse([chunk({}, { finishReason: 'stop' })]));
    const json = await aish(['-p', 'e1', '--output-format', 'json'], home);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: 'the server sent an empty answer', finish_reason: 'error', text: '' });
    expect(json.stderr).toContain('the server sent an empty answer');
  });
});

describe('headless, a tool call cut off by "length"', () => {
  it('runs none of the calls, and the next run (--continue) sends only JSON-object arguments', async () => {
    const home = makeScratchHome('aish-cut-');
    broker.enqueue(
      sse([
        chunk({ tool_calls: [{ index: 0, id: 'c1', type: 'function', function: { name: 'builtin__calculator', arguments: '{"expression":"1+1"}' } }] }),
        chunk({ tool_calls: [{ index: 1, id: 'c2', type: 'function', function: { name: 'builtin__calculator', arguments: '{"expression":"2*' } }] }),
        chunk({}, { finishReason: 'length' }),
      ]),
    );
    const first = await aish(['-p', 'compute', '--output-format', 'json', '--auto-approve', 'builtin__*'], home);
    const output = JSON.parse(first.stdout);
    expect(output.finish_reason).toBe('length');
    expect(output.tool_calls.map((call: { decision: string; result: string }) => call.decision)).toEqual(['skipped', 'skipped']);
    expect(output.tool_calls.every((call: { result: string }) => call.result.includes('cut off'))).toBe(true);
    expect(first.stderr).toContain('the answer was cut off (finish_reason "length"): its 2 tool calls were not run');
    const before = broker.requests.length;

    broker.enqueue(textReply('fine now'));
    const second = await aish(['-p', 'go on', '--continue'], home);
    expect(second).toMatchObject({ code: 0, stdout: 'fine now\n' });
    const sent = (broker.requests[before]!.body!.messages ?? []).flatMap((message) => ((message.tool_calls as Array<{ function: { arguments: string } }> | undefined) ?? []).map((call) => call.function.arguments));
    expect(sent).toEqual(['{"expression":"1+1"}', '{}']);
    expect(sent.every(isJsonObject)).toBe(true);
  });

  it('a session log written before the fix (raw cut arguments in it) resumes with --resume and works', async () => {
    const home = makeScratchHome('aish-oldlog-');
    const dir = path.join(home, '.local', 'state', 'aish', 'sessions');
    mkdirSync(dir, { recursive: true });
    const at = '2026-01-01T00:00:00.000Z';
    const records = [
      { type: 'session', version: 1, id: 'old-cut', createdAt: at },
      { type: 'message', message: { id: 'u1', role: 'user', content: 'date?', at } },
      { type: 'message', message: { id: 'a1', role: 'assistant', content: '', toolCalls: [{ id: 'x1', name: 'time__now', arguments: '{"format":"date' }], finishReason: 'length', at } },
      { type: 'message', message: { id: 't1', role: 'tool', toolCallId: 'x1', name: 'time__now', content: '[aish] tool arguments not parseable as JSON', isError: true, outcome: 'skipped', at } },
    ];
    writeFileSync(path.join(dir, 'old-cut.jsonl'), records.map((record) => `${JSON.stringify(record)}\n`).join(''));
    const before = broker.requests.length;
    broker.enqueue(textReply('resumed fine'));
    const result = await aish(['-p', 'again', '--resume', 'old-cut'], home);
    expect(result).toMatchObject({ code: 0, stdout: 'resumed fine\n' });
    const messages = broker.requests[before]!.body!.messages!;
    expect(messages.flatMap((message) => ((message.tool_calls as Array<{ function: { arguments: string } }> | undefined) ?? []).map((call) => call.function.arguments))).toEqual(['{}']);
    expect(messages.find((message) => message.role === 'tool')?.content).toContain('as received: {"format":"date');
  });
});
