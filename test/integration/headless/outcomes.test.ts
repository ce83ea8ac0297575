// How a headless run ends is never silent: every ending but a clean answer gets a line on stderr,
// and finish_reason / exit code follow the table in README.md ("Headless mode").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunk, sse, startScriptedBroker, textReply, toolCallReply, type ScriptedBroker } from '../../helpers/scripted-broker';
import { runAish, streamLines, type HeadlessRun, type HeadlessRunOptions } from './run-headless';

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

describe('headless outcomes', () => {
  it('stopping at the tool-depth limit without a final answer: finish_reason tool_depth, exit 3, a note in every format', async () => {
    broker.enqueue(toolCallReply([calc('1+1')]), toolCallReply([calc('2+2')]));
    const text = await aish(['-p', 'loop', '--auto-approve', 'builtin__*', '--max-tool-depth', '1']);
    expect(text.code).toBe(3);
    expect(text.stdout).toBe('');
    expect(text.stderr).toBe('aish-tui: tool-call depth limit reached (--max-tool-depth 1): the run stopped without a final answer; raise it with --max-tool-depth\n');

    broker.enqueue(toolCallReply([calc('1+1')]));
    const stream = await aish(['-p', 'loop', '--auto-approve', 'builtin__*', '--max-tool-depth', '0', '--output-format', 'stream-json']);
    expect(stream.code).toBe(3);
    expect(streamLines(stream.stdout).at(-1)).toEqual({ type: 'done', finish_reason: 'tool_depth' });
    expect(stream.stderr).toContain('tool-call depth limit reached (--max-tool-depth 0)');
  });

  it('an answer cut at the token limit: the partial text, finish_reason length, exit 3 and a note', async () => {
    broker.enqueue(textReply('The first half of', { finishReason: 'length' }));
    const text = await aish(['-p', 'long']);
    expect(text.code).toBe(3);
    expect(text.stdout).toBe('The first half of\n');
    expect(text.stderr).toBe('aish-tui: the answer was cut at the token limit (finish_reason "length"): it is incomplete; raise maxTokens for the model or the server\'s limit\n');

    broker.enqueue(textReply('The first half of', { finishReason: 'length' }));
    const json = await aish(['-p', 'long', '--output-format', 'json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ text: 'The first half of', finish_reason: 'length', error: null });
    expect(json.stderr).toContain('finish_reason "length"');
  });

  it('an empty answer is an error: finish_reason error, exit 1, the error on stderr also for json', async () => {
    broker.enqueue(textReply(''));
    const json = await aish(['-p', 'hi', '--output-format', 'json']);
    expect(json.code).toBe(1);
    const output = JSON.parse(json.stdout);
    expect(output).toMatchObject({ text: '', finish_reason: 'error' });
    expect(output.error).toContain('empty answer');
    expect(json.stderr).toBe(`aish-tui: ${output.error}\n`);
  });

  it('content_filter, a stream that ends without a finish_reason, and a finish reason the server made up each say so', async () => {
    broker.enqueue(textReply('I cannot', { finishReason: 'content_filter' }));
    const filtered = await aish(['-p', 'x', '--output-format', 'json']);
    expect(filtered.code).toBe(3);
    expect(JSON.parse(filtered.stdout).finish_reason).toBe('content_filter');
    expect(filtered.stderr).toContain("the server's content filter stopped the answer");

    broker.enqueue(sse([chunk({ role: 'assistant', content: '' }), chunk({ content: 'half an ans' })], { done: false }));
    const cut = await aish(['-p', 'x', '--output-format', 'json']);
    expect(cut.code).toBe(1);
    expect(JSON.parse(cut.stdout)).toMatchObject({ text: 'half an ans', finish_reason: 'incomplete' });
    expect(cut.stderr).toContain('no finish_reason');

    broker.enqueue(textReply('Partly', { finishReason: 'recitation' }));
    const odd = await aish(['-p', 'x']);
    expect(odd.code).toBe(3);
    expect(odd.stderr).toBe('aish-tui: the server ended the answer with finish_reason "recitation"\n');
  });

  it('a clean answer says nothing on stderr and exits 0', async () => {
    broker.enqueue(textReply('Fine.', { finishReason: 'stop' }));
    expect(await aish(['-p', 'x', '--output-format', 'json'])).toMatchObject({ code: 0, stderr: '' });
  });

  it('stream-json: a request\'s tool_call lines, then its usage, then the calls\' results', async () => {
    broker.enqueue(
      toolCallReply([calc('2+2', 'a'), calc('3+3', 'b')], { textBefore: 'Adding. ', usage: { prompt_tokens: 7, completion_tokens: 4 } }),
      textReply('4 and 6.', { usage: { prompt_tokens: 20, completion_tokens: 3 } }),
    );
    const result = await aish(['-p', 'sums', '--auto-approve', 'builtin__*', '--output-format', 'stream-json']);
    expect(result.code).toBe(0);
    const lines = streamLines(result.stdout);
    const shape = lines.map((line) => (line.type === 'tool_call' || line.type === 'tool_result' ? `${line.type}:${String(line.id)}` : String(line.type)));
    expect(shape.filter((entry, index) => entry !== 'text' || shape[index - 1] !== 'text')).toEqual([
      'text',
      'tool_call:a',
      'tool_call:b',
      'usage',
      'tool_result:a',
      'tool_result:b',
      'text',
      'usage',
      'done',
    ]);
    expect(lines.filter((line) => line.type === 'usage')).toEqual([
      { type: 'usage', prompt_tokens: 7, completion_tokens: 4, total_tokens: 11 },
      { type: 'usage', prompt_tokens: 20, completion_tokens: 3, total_tokens: 23 },
    ]);
    expect(lines.find((line) => line.type === 'tool_call')).toEqual({ type: 'tool_call', id: 'a', name: 'builtin__calculator', arguments: { expression: '2+2' } });
  });

  it('json usage carries tokens_per_second when the answer streamed long enough to time it, as README shows', async () => {
    broker.enqueue(textReply('one two three four five', { delayMs: 30, usage: { prompt_tokens: 5, completion_tokens: 5 } }));
    const timed = JSON.parse((await aish(['-p', 'count', '--output-format', 'json'])).stdout);
    expect(timed.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 });
    expect(timed.usage.tokens_per_second).toBeGreaterThan(0);

    broker.enqueue(textReply('at once', { usage: { prompt_tokens: 5, completion_tokens: 2 } }));
    const instant = JSON.parse((await aish(['-p', 'count', '--output-format', 'json'])).stdout);
    expect(instant.usage).toEqual({ prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 });
  });
});
