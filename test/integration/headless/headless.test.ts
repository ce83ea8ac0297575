import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorReply, startScriptedBroker, textReply, toolCallReply, type ScriptedBroker } from '../../helpers/scripted-broker';
import { CLI, makeScratchHome, testEnv } from '../../helpers/terminal';
import { runAish, type HeadlessRun, type HeadlessRunOptions } from './run-headless';

// The built binary (`npm run build` first), run as a script would run it.
const require = createRequire(import.meta.url);
let broker: ScriptedBroker;

beforeAll(async () => {
  broker = await startScriptedBroker();
});
afterAll(async () => {
  await broker.close();
});

function aish(args: string[], options: HeadlessRunOptions = {}): Promise<HeadlessRun> {
  return runAish(['--base-url', broker.url, '--model', 'scripted', ...args], options);
}

const calc = (expression: string, id = 'call_1') => ({ id, name: 'builtin__calculator', arguments: { expression } });
const everything = { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };

describe('aish-tui -p (headless)', () => {
  it('text: prints the final answer only, exit 0; "-p -" reads the prompt from stdin', async () => {
    const start = broker.requests.length;
    broker.enqueue(textReply('Hello from the model.'));
    const result = await aish(['-p', '-'], { input: 'say hello\n' });
    expect(result).toMatchObject({ code: 0, stdout: 'Hello from the model.\n' });
    expect(broker.requests[start]!.body!.messages!.at(-1)).toEqual({ role: 'user', content: 'say hello' });
  });

  it('json: one object with the documented keys, after a full tool round trip through the built-in server', async () => {
    broker.enqueue(toolCallReply([calc('6*7')], { textBefore: 'Computing. ' }), textReply('It is 42.', { usage: { prompt_tokens: 50, completion_tokens: 5 } }));
    const result = await aish(['-p', 'what is 6*7?', '--output-format', 'json', '--auto-approve', 'builtin__*']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    const output = JSON.parse(lines[0]!);
    expect(Object.keys(output)).toEqual(expect.arrayContaining(['text', 'reasoning', 'tool_calls', 'finish_reason', 'usage', 'error']));
    expect(output).toMatchObject({
      text: 'It is 42.',
      reasoning: '',
      finish_reason: 'stop',
      error: null,
      tool_calls: [{ id: 'call_1', name: 'builtin__calculator', arguments: { expression: '6*7' }, result: '42', is_error: false, decision: 'allowed' }],
    });
    expect(output.usage).toMatchObject({ prompt_tokens: 50, completion_tokens: 5 });
  });

  it('never asks: a call no rule allows is denied, reported and answered to the model', async () => {
    const start = broker.requests.length;
    broker.enqueue(toolCallReply([calc('1+1')]), textReply('I could not compute.'));
    const result = await aish(['-p', 'add', '--output-format', 'json']);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.tool_calls[0]).toMatchObject({ decision: 'denied', is_error: true });
    expect(output.tool_calls[0].result).toContain('[aish] tool call denied');
    expect(result.stderr).toContain('tool call builtin__calculator denied: no rule allows it');
    expect(broker.requests[start + 1]!.body!.messages!.at(-1)).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
  });

  it('stream-json: one object per line as things happen, ending with done', async () => {
    broker.enqueue(
      toolCallReply([{ id: 'bad', name: 'builtin__calculator', arguments: '{"expression":' }, calc('2+2', 'good')]),
      textReply('Four.', { reasoning: 'easy', usage: { prompt_tokens: 9, completion_tokens: 2 } }),
    );
    const result = await aish(['-p', 'two plus two', '--output-format', 'stream-json', '--auto-approve', 'builtin__calculator']);
    expect(result.code).toBe(0);
    const events = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    const types = events.map((event) => event.type);
    expect(types.at(-1)).toBe('done');
    expect(events.at(-1)).toEqual({ type: 'done', finish_reason: 'stop' });
    expect(events.filter((event) => event.type === 'tool_call')).toEqual([
      { type: 'tool_call', id: 'bad', name: 'builtin__calculator', arguments: null, raw_arguments: '{"expression":' },
      { type: 'tool_call', id: 'good', name: 'builtin__calculator', arguments: { expression: '2+2' } },
    ]);
    const results = events.filter((event) => event.type === 'tool_result');
    expect(results[0]).toMatchObject({ id: 'bad', is_error: true, decision: 'skipped' });
    expect(results[0].content).toContain('[aish] tool arguments not parseable as JSON');
    expect(results[1]).toEqual({ type: 'tool_result', id: 'good', name: 'builtin__calculator', content: '4', is_error: false, decision: 'allowed' });
    expect(types.indexOf('tool_result')).toBeGreaterThan(types.indexOf('tool_call'));
    expect(events.filter((event) => event.type === 'reasoning').map((event) => event.text).join('')).toBe('easy');
    expect(events.filter((event) => event.type === 'text').map((event) => event.text).join('')).toBe('Four.');
    expect(events.find((event) => event.type === 'usage')).toMatchObject({ type: 'usage', prompt_tokens: 9, completion_tokens: 2 });
  });

  it('--max-tool-depth 0 reports the calls without running them (no final answer: exit 3)', async () => {
    broker.enqueue(toolCallReply([calc('3*3')]));
    const result = await aish(['-p', 'nine', '--output-format', 'json', '--auto-approve', 'builtin__*', '--max-tool-depth', '0']);
    expect(result.code).toBe(3);
    const output = JSON.parse(result.stdout);
    expect(output.tool_calls).toEqual([
      { id: 'call_1', name: 'builtin__calculator', arguments: { expression: '3*3' }, result: '[aish] tool call not run: tool-call depth limit reached', is_error: true, decision: 'skipped' },
    ]);
    expect(output.finish_reason).toBe('tool_depth');
    expect(result.stderr).toBe('aish-tui: tool-call depth limit reached (--max-tool-depth 0): the run stopped without a final answer; raise it with --max-tool-depth\n');
  });

  it('a full tool round trip against server-everything over stdio', async () => {
    const start = broker.requests.length;
    broker.enqueue(toolCallReply([{ id: 'e1', name: 'everything__get-sum', arguments: { a: 19, b: 23 } }]), textReply('The sum is 42.'));
    const result = await aish(['-p', 'add 19 and 23', '--output-format', 'json', '--auto-approve', 'everything__get-sum'], { config: { mcp: { servers: { everything } } } });
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output.tool_calls[0]).toMatchObject({ name: 'everything__get-sum', decision: 'allowed', is_error: false });
    expect(output.tool_calls[0].result).toContain('42');
    const tools = (broker.requests[start]!.body!.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
    expect(tools).toEqual(expect.arrayContaining(['everything__echo', 'everything__get-sum', 'builtin__calculator']));
    expect(output.text).toBe('The sum is 42.');
  });

  it('CMD: lines are reported, not run, unless --allow-cmd', async () => {
    const home = makeScratchHome('aish-headless-');
    const marker = path.join(home, 'ran');
    broker.enqueue(textReply(`Run this:\nCMD: touch ${marker} && echo made`));
    const reported = await aish(['-p', 'make a file', '--output-format', 'json'], { home });
    expect(reported.code).toBe(0);
    expect(JSON.parse(reported.stdout).commands).toEqual([{ command: `touch ${marker} && echo made`, ran: false, exit_code: null, output: '' }]);
    expect(reported.stderr).toContain('--allow-cmd');
    expect(() => statSync(marker)).toThrow();

    broker.enqueue(textReply(`Run this:\nCMD: touch ${marker} && echo made`));
    const ran = await aish(['-p', 'make a file', '--output-format', 'json', '--allow-cmd'], { home });
    expect(JSON.parse(ran.stdout).commands).toEqual([{ command: `touch ${marker} && echo made`, ran: true, exit_code: 0, output: 'made\n' }]);
    expect(statSync(marker).isFile()).toBe(true);
  });

  it('exit 1 when the model fails; the error is in the json and on stderr for text', async () => {
    broker.enqueue(errorReply(401, { error: { message: 'bad key' } }));
    const json = await aish(['-p', 'hi', '--output-format', 'json']);
    expect(json.code).toBe(1);
    const output = JSON.parse(json.stdout);
    expect(output.error).toContain('401');
    expect(output.finish_reason).toBe('error');

    broker.enqueue(errorReply(401, { error: { message: 'bad key' } }));
    const text = await aish(['-p', 'hi']);
    expect(text.code).toBe(1);
    expect(text.stdout).toBe('');
    expect(text.stderr).toContain('401');

    broker.enqueue(errorReply(400, { error: { message: 'nope' } }));
    const stream = await aish(['-p', 'hi', '--output-format', 'stream-json']);
    expect(stream.code).toBe(1);
    const events = stream.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(events.map((event) => event.type)).toEqual(['error', 'done']);
    expect(events[1]).toEqual({ type: 'done', finish_reason: 'error' });
  });

  it('exit 2 for usage and config errors, with one clear line', async () => {
    const empty = await aish(['-p', '   ']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe('aish-tui: -p: the prompt is empty\n');
    const noStdin = await aish(['-p', '-'], { input: '' });
    expect(noStdin.stderr).toBe('aish-tui: -p -: no prompt on stdin\n');
    const pattern = await aish(['-p', 'x', '--auto-approve', 'calculator']);
    expect(pattern.code).toBe(2);
    expect(pattern.stderr).toContain('--auto-approve: expected "alias__tool" or "alias__*", got "calculator"');
    const format = await aish(['-p', 'x', '--output-format', 'yaml']);
    expect(format.code).toBe(2);
    const nothing = await aish(['-p', 'x', '--continue']);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('--continue: no saved session');
  });

  it('logs the session (0600) and --continue / --resume send it as context without re-running its tools', async () => {
    const home = makeScratchHome('aish-headless-');
    broker.enqueue(toolCallReply([calc('6*7')]), textReply('It is 42.'));
    const first = await aish(['-p', 'what is 6*7?', '--auto-approve', 'builtin__*'], { home });
    expect(first.code).toBe(0);
    const dir = path.join(home, '.local', 'state', 'aish', 'sessions');
    const [file] = readdirSync(dir);
    expect(statSync(path.join(dir, file!)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    const id = file!.replace(/\.jsonl$/, '');

    const start = broker.requests.length;
    broker.enqueue(textReply('You asked about 6*7.'));
    const second = await aish(['-p', 'what did I ask?', '--continue', '--output-format', 'json'], { home });
    expect(second.code).toBe(0);
    expect(JSON.parse(second.stdout).tool_calls).toEqual([]);
    expect(broker.requests.length - start).toBe(1);
    const sent = broker.requests[start]!.body!.messages!;
    expect(sent.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(sent[3]).toMatchObject({ role: 'tool', content: '42' });
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'what did I ask?' });
    expect(readdirSync(dir)).toEqual([file]);

    broker.enqueue(textReply('third'));
    const third = await aish(['-p', 'again', '--resume', id.slice(0, 15)], { home });
    expect(third.code).toBe(0);
    const lines = readFileSync(path.join(dir, file!), 'utf8').trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line).message?.role ?? 'header')).toEqual(['header', 'user', 'assistant', 'tool', 'assistant', 'user', 'assistant', 'user', 'assistant']);
  });

  it('Ctrl+C (SIGINT) stops the answer: partial text kept, finish_reason cancelled, exit 130', async () => {
    broker.enqueue(textReply('one two three four five six seven eight nine ten eleven twelve', { chunkSize: 4, tokensPerSecond: 10 }));
    let sent = false;
    const result = await aish(['-p', 'count', '--output-format', 'stream-json'], {
      onStdout: (text, child) => {
        if (!sent && text.includes('"type":"text"')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(result.code, `stderr: ${result.stderr}\nstdout: ${result.stdout}`).toBe(130);
    const events = result.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
    expect(events.at(-1)).toEqual({ type: 'done', finish_reason: 'cancelled' });
    const text = events.filter((event) => event.type === 'text').map((event) => event.text).join('');
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThan('one two three four five six seven eight nine ten eleven twelve'.length);
  });

  it('a reader that closes the pipe early does not crash it', async () => {
    broker.enqueue(textReply('x '.repeat(2000), { chunkSize: 2 }));
    const home = makeScratchHome('aish-headless-');
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, '--base-url', broker.url, '--model', 'scripted', '-p', 'many', '--output-format', 'stream-json'], { env: testEnv(home), cwd: home });
      let stderr = '';
      child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
      child.stdout.once('data', () => child.stdout.destroy());
      child.on('close', (code) => resolve({ code, stderr }));
      child.stdin.end();
    });
    expect(result.stderr).not.toContain('EPIPE');
    expect(result.stderr).not.toMatch(/at .*\(.*:\d+:\d+\)/);
    expect([0, 130]).toContain(result.code);
  });
});
