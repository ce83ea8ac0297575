import { describe, expect, it } from 'vitest';
import { streamChat } from '../../../src/services/broker/index';
import type { BrokerEvent } from '../../../src/services/broker/types';
import { useScriptedBrokerPerTest } from '../../helpers/lifecycle';
import {
  chunk,
  dropAfter,
  errorReply,
  jsonReply,
  rechunk,
  sse,
  stallAfter,
  textReply,
  toolCallReply,
} from '../../helpers/scripted-broker';
import { collect, finishOf, hello, modelAt, reasoningOf, textOf } from './collect';

// streamChat against the scripted broker over real loopback HTTP: what goes on the wire and what
// comes back as events.

const broker = useScriptedBrokerPerTest();

describe('streamChat request', () => {
  it('posts model, messages and stream to <baseUrl>/chat/completions, with usage requested and no tools field', async () => {
    broker.enqueue(textReply('hi'));
    await collect({ model: modelAt(broker.url), messages: hello });
    const [request] = broker.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(request!.body).toEqual({ model: 'scripted-model', messages: hello, stream: true, stream_options: { include_usage: true } });
    expect(request!.rawBody).not.toContain('"tools"');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers.authorization).toBeUndefined();
  });

  it('sends tools, temperature and max_tokens when there are some', async () => {
    broker.enqueue(textReply('hi'), textReply('again'));
    const tools = [{ type: 'function' as const, function: { name: 'builtin__calculator', parameters: { type: 'object', properties: { expression: { type: 'string' } } } } }];
    await collect({ model: modelAt(broker.url, { temperature: 0.2, maxTokens: 64 }), messages: hello, tools });
    expect(broker.requests[0]!.body).toMatchObject({ tools, temperature: 0.2, max_tokens: 64 });
    await collect({ model: modelAt(broker.url), messages: hello, tools: [] });
    expect(broker.requests[1]!.rawBody).not.toContain('"tools"');
  });

  it('takes the bearer key from the variable keyEnv names in request.env, and sends extra headers', async () => {
    broker.enqueue(textReply('hi'));
    await collect({
      model: modelAt(broker.url, { keyEnv: 'SCRIPTED_KEY', headers: { 'HTTP-Referer': 'https://example.org', 'X-Title': 'aish-tui' } }),
      messages: hello,
      env: { SCRIPTED_KEY: 'sk-scripted-123456' },
    });
    const { headers } = broker.requests[0]!;
    expect(headers.authorization).toBe('Bearer sk-scripted-123456');
    expect(headers['http-referer']).toBe('https://example.org');
    expect(headers['x-title']).toBe('aish-tui');
  });

  it('keeps a query in the base URL and turns URL credentials into Basic auth', async () => {
    broker.enqueue(textReply('hi'));
    const url = broker.url.replace('http://', 'http://proxy-user:proxy-pass@') + '?api-version=2024-10-21';
    await collect({ model: modelAt(url), messages: hello });
    const [request] = broker.requests;
    expect(request!.path).toBe('/v1/chat/completions');
    expect(request!.search).toBe('?api-version=2024-10-21');
    expect(request!.headers.authorization).toBe(`Basic ${Buffer.from('proxy-user:proxy-pass').toString('base64')}`);
  });

  it('uses apiKey before keyEnv', async () => {
    broker.enqueue(textReply('hi'));
    await collect({ model: modelAt(broker.url, { apiKey: 'direct-key-123', keyEnv: 'SCRIPTED_KEY' }), messages: hello, env: { SCRIPTED_KEY: 'env-key-456' } });
    expect(broker.requests[0]!.headers.authorization).toBe('Bearer direct-key-123');
  });

  it('stops before sending when keyEnv names an unset variable', async () => {
    const events = await collect({ model: modelAt(broker.url, { keyEnv: 'UNSET_SCRIPTED_KEY' }), messages: hello, env: {} });
    expect(events).toEqual([
      { type: 'error', kind: 'config', message: 'model "local" takes its API key from $UNSET_SCRIPTED_KEY, which is not set' },
      { type: 'finish', reason: 'error' },
    ]);
    expect(broker.requests).toHaveLength(0);
  });
});

describe('streamChat answers', () => {
  it('streams reasoning, text and usage', async () => {
    broker.enqueue(textReply('The **answer** is 42.', { reasoning: 'Let me think.', usage: { prompt_tokens: 12, completion_tokens: 8 } }));
    const events = await collect({ model: modelAt(broker.url), messages: hello });
    expect(reasoningOf(events)).toBe('Let me think.');
    expect(textOf(events)).toBe('The **answer** is 42.');
    expect(events.slice(-2)).toEqual([
      { type: 'usage', usage: { promptTokens: 12, completionTokens: 8, totalTokens: 20 } },
      { type: 'finish', reason: 'stop' },
    ]);
    // Reasoning came first and separately.
    expect(events.findIndex((e) => e.type === 'reasoning-delta')).toBeLessThan(events.findIndex((e) => e.type === 'text-delta'));
  });

  it('delivers text while the stream is still open', async () => {
    broker.enqueue(stallAfter(textReply('one two three four'), 3));
    const abort = new AbortController();
    const seen: BrokerEvent[] = [];
    for await (const event of streamChat({ model: modelAt(broker.url), messages: hello, signal: abort.signal })) {
      seen.push(event);
      if (event.type === 'text-delta') abort.abort();
    }
    // The server never finished; the first words still arrived (the words of one read in one delta).
    expect(textOf(seen)).toMatch(/^one (two )?$/);
    expect(finishOf(seen)).toBe('cancelled');
  });

  it('assembles tool calls whose arguments arrive in fragments, with text before them', async () => {
    broker.enqueue(
      toolCallReply(
        [
          { name: 'builtin__calculator', arguments: { expression: '2+3*4' }, id: 'call_1' },
          { name: 'builtin__get_time', arguments: { timezone: 'Europe/Berlin' }, id: 'call_2' },
        ],
        { textBefore: 'Let me check.', fragmentSize: 3 },
      ),
    );
    const events = await collect({ model: modelAt(broker.url), messages: hello });
    expect(textOf(events)).toBe('Let me check.');
    expect(events.filter((e) => e.type === 'tool-call')).toEqual([
      { type: 'tool-call', call: { id: 'call_1', name: 'builtin__calculator', arguments: '{"expression":"2+3*4"}' } },
      { type: 'tool-call', call: { id: 'call_2', name: 'builtin__get_time', arguments: '{"timezone":"Europe/Berlin"}' } },
    ]);
    expect(finishOf(events)).toBe('tool_calls');
  });

  it('reads one byte per socket write, including inside multi-byte characters', async () => {
    broker.enqueue(rechunk(textReply('Grüße, 世界 🌍!', { reasoning: 'ünïcode' }), 1));
    const events = await collect({ model: modelAt(broker.url), messages: hello });
    expect(textOf(events)).toBe('Grüße, 世界 🌍!');
    expect(reasoningOf(events)).toBe('ünïcode');
    expect(finishOf(events)).toBe('stop');
  });

  it('treats a connection closed after the finish chunk (no [DONE]) as a complete answer', async () => {
    const reply = textReply('done here', { done: false });
    broker.enqueue(dropAfter(reply, reply.frames.length));
    const events = await collect({ model: modelAt(broker.url), messages: hello });
    expect(textOf(events)).toBe('done here');
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    expect(finishOf(events)).toBe('stop');
  });

  it('keeps the idle timer alive with keep-alive comments', async () => {
    const comments = Array.from({ length: 6 }, () => ({ sse: 'comment' as const, text: 'OPENROUTER PROCESSING' }));
    broker.enqueue(sse([...comments, chunk({ content: 'finally' }), chunk({}, { finishReason: 'stop' })], { delayMs: 100 }));
    const events = await collect({ model: modelAt(broker.url), messages: hello, timeouts: { idleMs: 400 } });
    expect(textOf(events)).toBe('finally');
    expect(finishOf(events)).toBe('stop');
  });
});

describe('streamChat with servers that do not stream', () => {
  it('reports the error in a 200 JSON body (LM Studio)', async () => {
    broker.enqueue(jsonReply({ error: 'No models loaded. Please load a model in the developer page or use the `lms load` command.' }));
    const events = await collect({ model: modelAt(broker.url), messages: hello });
    expect(events).toEqual([
      {
        type: 'error',
        kind: 'http',
        status: 200,
        message: 'local answered with an error: No models loaded. Please load a model in the developer page or use the `lms load` command.',
      },
      { type: 'finish', reason: 'error' },
    ]);
  });

  it('turns a whole chat.completion (stream ignored) into the same events', async () => {
    broker.enqueue(
      jsonReply({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: 'Whole answer',
              reasoning_content: 'thought',
              tool_calls: [{ id: 'call_w', type: 'function', function: { name: 'a__b', arguments: '{"k":1}' } }],
            },
            finish_reason: 'tool_calls',
          },
        ],
        usage: { prompt_tokens: 5, completion_tokens: 6, total_tokens: 11 },
      }),
    );
    const events = await collect({ model: modelAt(broker.url), messages: hello });
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'thought' },
      { type: 'text-delta', text: 'Whole answer' },
      { type: 'tool-call', call: { id: 'call_w', name: 'a__b', arguments: '{"k":1}' } },
      { type: 'usage', usage: { promptTokens: 5, completionTokens: 6, totalTokens: 11 } },
      { type: 'finish', reason: 'tool_calls' },
    ]);
  });

  it('parses an event stream sent with the wrong content type', async () => {
    const reply = textReply('mislabelled');
    broker.enqueue({ ...reply, contentType: 'text/plain; charset=utf-8' });
    const events = await collect({ model: modelAt(broker.url), messages: hello });
    expect(textOf(events)).toBe('mislabelled');
    expect(finishOf(events)).toBe('stop');
  });

  it('reports a 200 that is neither JSON nor SSE, with a snippet', async () => {
    broker.enqueue(errorReply(200, '<html><body>Welcome to nginx!</body></html>', { contentType: 'text/html' }));
    const events = await collect({ model: modelAt(broker.url), messages: hello });
    expect(events[0]).toEqual({
      type: 'error',
      kind: 'protocol',
      status: 200,
      message: 'unexpected answer from local (text/html): <html><body>Welcome to nginx!</body></html>',
    });
    expect(finishOf(events)).toBe('error');
  });
});

describe('stream_options', () => {
  it('asks again without stream_options when the server rejects the field, and remembers', async () => {
    const url = broker.url;
    broker.route((request) =>
      request.body?.stream_options
        ? errorReply(422, { detail: [{ loc: ['body', 'stream_options'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }] })
        : textReply('plain'),
    );
    const model = modelAt(url, { model: 'strict-model' });
    const events = await collect({ model, messages: hello });
    expect(textOf(events)).toBe('plain');
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    expect(broker.requests.map((r) => 'stream_options' in (r.body ?? {}))).toEqual([true, false]);
    await collect({ model, messages: hello });
    expect(broker.requests).toHaveLength(3);
    expect(broker.requests[2]!.body).not.toHaveProperty('stream_options');
  });

  it('never sends stream_options when the model says streamUsage: false', async () => {
    broker.enqueue(textReply('x'));
    await collect({ model: modelAt(broker.url, { streamUsage: false }), messages: hello });
    expect(broker.requests[0]!.body).not.toHaveProperty('stream_options');
  });
});
