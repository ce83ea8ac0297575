import { describe, expect, it } from 'vitest';
import { useScriptedBrokerPerTest } from '../../helpers/lifecycle';
import {
  dropAfter,
  errorReply,
  hangReply,
  isToolResultTurn,
  jsonReply,
  lastUserText,
  rechunk,
  resetReply,
  textReply,
  toolCallReply,
} from '../../helpers/scripted-broker';

// The scripted broker is what every other integration and e2e test talks to, so its own
// behaviour is pinned here with plain fetch: if it lied about what it sends, those tests would too.

const broker = useScriptedBrokerPerTest();

function post(body: unknown, signal?: AbortSignal): Promise<Response> {
  return fetch(`${broker.url}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer test-key' },
    body: JSON.stringify(body),
    signal,
  });
}

/** The content deltas of an SSE body joined. */
function contentOf(text: string): string {
  return dataLines(text)
    .filter((line) => line !== '[DONE]')
    .map((line) => JSON.parse(line).choices[0]?.delta?.content ?? '')
    .join('');
}

function dataLines(text: string): string[] {
  return text
    .split('\n\n')
    .filter(Boolean)
    .map((frame) => frame.replace(/^data: /, ''));
}

describe('scripted broker', () => {
  it('serves an SSE text reply in chat.completion.chunk shape and records the request', async () => {
    broker.enqueue(textReply('Hello there', { usage: { prompt_tokens: 3, completion_tokens: 2 } }));
    const response = await post({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const lines = dataLines(await response.text());
    expect(lines.at(-1)).toBe('[DONE]');
    const chunks = lines.slice(0, -1).map((line) => JSON.parse(line));
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    const text = chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('');
    expect(text).toBe('Hello there');
    expect(chunks.at(-2).choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } });
    expect(broker.requests).toHaveLength(1);
    expect(broker.requests[0]).toMatchObject({ method: 'POST', path: '/v1/chat/completions', body: { model: 'm', stream: true } });
    expect(broker.requests[0]!.headers.authorization).toBe('Bearer test-key');
  });

  it('streams tool-call arguments in fragments that join to the JSON', async () => {
    broker.enqueue(toolCallReply([{ name: 'builtin__calculator', arguments: { expression: '2+3*4' } }], { fragmentSize: 3 }));
    const lines = dataLines(await (await post({})).text()).slice(0, -1).map((line) => JSON.parse(line));
    const deltas = lines.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []);
    expect(deltas[0]).toMatchObject({ index: 0, id: 'call_scripted_1', function: { name: 'builtin__calculator' } });
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.map((d) => d.function.arguments).join('')).toBe('{"expression":"2+3*4"}');
    expect(lines.at(-1).choices[0].finish_reason).toBe('tool_calls');
  });

  it('sends a status, body, content type and Retry-After', async () => {
    broker.enqueue(errorReply(429, { error: { message: 'slow down' } }, { retryAfter: 7 }), jsonReply({ error: 'model not loaded' }));
    const first = await post({});
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('7');
    expect(await first.json()).toEqual({ error: { message: 'slow down' } });
    const second = await post({});
    expect(second.status).toBe(200);
    expect(second.headers.get('content-type')).toBe('application/json');
    expect(await second.json()).toEqual({ error: 'model not loaded' });
  });

  it('answers a loud 500 when nothing is scripted, and routes by request', async () => {
    const unscripted = await post({ messages: [] });
    expect(unscripted.status).toBe(500);
    expect(await unscripted.text()).toContain('no response scripted');

    broker.route((req) => (isToolResultTurn(req) ? textReply('from tool turn') : textReply(`echo ${lastUserText(req)}`)));
    const echoed = contentOf(await (await post({ messages: [{ role: 'user', content: 'ping' }] })).text());
    expect(echoed).toBe('echo ping');
    const toolTurn = contentOf(
      await (await post({ messages: [{ role: 'user', content: 'x' }, { role: 'tool', tool_call_id: 'a', content: '1' }] })).text(),
    );
    expect(toolTurn).toBe('from tool turn');
  });

  it('cuts the connection after k frames', async () => {
    broker.enqueue(dropAfter(textReply('one two three four five six'), 3));
    const response = await post({});
    await expect(response.text()).rejects.toThrow();
  });

  it('re-cuts writes one byte at a time without corrupting multi-byte characters', async () => {
    broker.enqueue(rechunk(textReply('Grüße 🌍'), 1));
    expect(contentOf(await (await post({})).text())).toBe('Grüße 🌍');
  });

  it('never answers a hang and sees the client disconnect', async () => {
    broker.enqueue(hangReply());
    const abort = new AbortController();
    const pending = post({}, abort.signal);
    await broker.waitForRequests(1);
    abort.abort();
    await expect(pending).rejects.toThrow();
    await expect.poll(() => broker.requests[0]!.disconnected).toBe(true);
  });

  it('resets the connection without a response', async () => {
    broker.enqueue(resetReply());
    await expect(post({})).rejects.toThrow();
  });
});
