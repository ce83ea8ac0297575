import { describe, expect, it } from 'vitest';
import { streamChat } from '../../../src/services/broker/index';
import type { BrokerEvent } from '../../../src/services/broker/types';
import { useScriptedBrokerPerTest } from '../../helpers/lifecycle';
import {
  delayFirstByte,
  dropAfter,
  errorReply,
  hangReply,
  resetReply,
  sse,
  chunk,
  stallAfter,
  textReply,
} from '../../helpers/scripted-broker';
import { collect, errorsOf, finishOf, hello, modelAt, statusesOf, textOf } from './collect';

// Everything that goes wrong with real servers, over real loopback HTTP. Every failure must end
// in one clear error event and a finish, keep the text received so far, and never show the key.

const broker = useScriptedBrokerPerTest();

const BEDROCK_400 = {
  error: {
    code: 400,
    message: 'Provider returned error',
    metadata: { provider_name: 'Amazon Bedrock', raw: "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'" },
  },
};

describe('HTTP errors', () => {
  it('shows the provider message inside OpenRouter envelopes', async () => {
    broker.enqueue(errorReply(400, BEDROCK_400));
    const events = await collect({ model: modelAt(broker.url), messages: hello });
    expect(events).toEqual([
      {
        type: 'error',
        kind: 'http',
        status: 400,
        message: "HTTP 400: Provider returned error (Amazon Bedrock): tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'",
      },
      { type: 'finish', reason: 'error' },
    ]);
    expect(broker.requests).toHaveLength(1);
  });

  it('cuts a long non-JSON body to 400 characters on one line', async () => {
    broker.enqueue(errorReply(418, `<html>\n${'teapot '.repeat(200)}</html>`, { contentType: 'text/html' }));
    const [error] = errorsOf(await collect({ model: modelAt(broker.url), messages: hello }));
    // An HTML page is shown as its text (tags dropped), still cut to 400 characters.
    expect(error!.message.startsWith('HTTP 418: teapot teapot')).toBe(true);
    expect(error!.message.length).toBe('HTTP 418: '.length + 400);
    expect(error!.message).not.toContain('\n');
  });

  it('never shows the API key, even when the server echoes it', async () => {
    const key = 'sk-live-abcdef0123456789';
    broker.enqueue(
      errorReply(503, { error: { message: `overloaded for key ${key}` } }, { retryAfter: 0 }),
      errorReply(401, { error: { message: `Incorrect API key provided: ${key}. You can find your API key at ...`, code: 'invalid_api_key' } }),
    );
    const events = await collect({ model: modelAt(broker.url, { keyEnv: 'SCRIPTED_KEY' }), messages: hello, env: { SCRIPTED_KEY: key } });
    expect(broker.requests[0]!.headers.authorization).toBe(`Bearer ${key}`);
    expect(JSON.stringify(events)).not.toContain(key);
    expect(statusesOf(events)[0]).toContain('overloaded for key [redacted]');
    expect(errorsOf(events)[0]!.message).toBe(
      'HTTP 401: Incorrect API key provided: [redacted]. You can find your API key at ... (the server rejected the key from $SCRIPTED_KEY)',
    );
  });

  it('redacts the key from a mid-stream error too', async () => {
    const key = 'sk-mid-stream-987654321';
    broker.enqueue(sse([chunk({ content: 'partial' }), { sse: 'data', event: 'error', data: { error: { message: `bad key ${key}` } } }]));
    const events = await collect({ model: modelAt(broker.url, { apiKey: key }), messages: hello });
    expect(textOf(events)).toBe('partial');
    expect(JSON.stringify(events)).not.toContain(key);
    expect(errorsOf(events)[0]!.message).toBe('the server reported an error during the answer: bad key [redacted]');
  });
});

describe('retries', () => {
  it('retries a 429 after the Retry-After wait, visibly, then streams', async () => {
    broker.enqueue(errorReply(429, { error: { message: 'Rate limit reached' } }, { retryAfter: 1 }), textReply('after the wait'));
    const events = await collect({ model: modelAt(broker.url), messages: hello });
    expect(statusesOf(events)).toEqual(['HTTP 429: Rate limit reached; retrying in 1s (1/2)']);
    expect(textOf(events)).toBe('after the wait');
    expect(finishOf(events)).toBe('stop');
    expect(broker.requests).toHaveLength(2);
    // The same request again.
    expect(broker.requests[1]!.rawBody).toBe(broker.requests[0]!.rawBody);
  });

  it('honours an HTTP-date Retry-After', async () => {
    const inOneSecond = new Date(Date.now() + 1000).toUTCString();
    broker.enqueue(errorReply(503, 'Service Unavailable', { retryAfter: inOneSecond }), textReply('ok'));
    const events = await collect({ model: modelAt(broker.url), messages: hello });
    expect(statusesOf(events)).toHaveLength(1);
    expect(statusesOf(events)[0]).toMatch(/^HTTP 503: Service Unavailable; retrying in (0(\.\d)?|1)s \(1\/2\)$/);
    expect(textOf(events)).toBe('ok');
  });

  it('gives up after maxRetries and reports the last status', async () => {
    broker.enqueue(
      errorReply(502, 'bad gateway 1', { retryAfter: 0 }),
      errorReply(503, 'bad gateway 2', { retryAfter: 0 }),
      errorReply(500, { error: { message: 'still broken' } }, { retryAfter: 0 }),
      textReply('never reached'),
    );
    const events = await collect({ model: modelAt(broker.url), messages: hello, maxRetries: 2 });
    expect(statusesOf(events)).toEqual(['HTTP 502: bad gateway 1; retrying in 0s (1/2)', 'HTTP 503: bad gateway 2; retrying in 0s (2/2)']);
    expect(errorsOf(events)).toEqual([{ type: 'error', kind: 'http', status: 500, message: 'HTTP 500: still broken' }]);
    expect(broker.requests).toHaveLength(3);
  });

  it('says what an HTML error page says while retrying, not its markup', async () => {
    broker.enqueue(
      errorReply(502, '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>', { retryAfter: 0, contentType: 'text/html' }),
      textReply('fine now'),
    );
    const events = await collect({ model: modelAt(broker.url), messages: hello, maxRetries: 1 });
    expect(statusesOf(events)).toEqual(['HTTP 502: 502 Bad Gateway (HTML page); retrying in 0s (1/1)']);
  });

  it('does not retry with maxRetries 0, nor a client error', async () => {
    broker.enqueue(errorReply(500, 'boom'), errorReply(400, 'bad request'), textReply('unused'));
    expect(errorsOf(await collect({ model: modelAt(broker.url), messages: hello, maxRetries: 0 }))[0]!.message).toBe('HTTP 500: boom');
    expect(errorsOf(await collect({ model: modelAt(broker.url), messages: hello }))[0]!.message).toBe('HTTP 400: bad request');
    expect(broker.requests).toHaveLength(2);
  });

  it('does not wait out a Retry-After of an hour; it says so', async () => {
    broker.enqueue(errorReply(429, { error: { message: 'daily quota' } }, { retryAfter: 3600 }), textReply('unused'));
    const events = await collect({ model: modelAt(broker.url), messages: hello });
    expect(statusesOf(events)).toEqual([]);
    expect(errorsOf(events)[0]!.message).toBe('HTTP 429: daily quota (the server asks to retry in 60min)');
    expect(broker.requests).toHaveLength(1);
  });

  it('never retries once streaming began: a dropped stream keeps its text and ends incomplete', async () => {
    broker.enqueue(dropAfter(textReply('one two three four five'), 3), textReply('would duplicate'));
    const events = await collect({ model: modelAt(broker.url), messages: hello });
    expect(textOf(events)).toBe('one two ');
    expect(errorsOf(events)).toEqual([
      { type: 'error', kind: 'stream', message: expect.stringMatching(/^the connection to local broke during the answer: /) },
    ]);
    expect(finishOf(events)).toBe('incomplete');
    expect(broker.requests).toHaveLength(1);
  });

  it('a wait can be cancelled', async () => {
    broker.enqueue(errorReply(429, 'slow down', { retryAfter: 60 }));
    const abort = new AbortController();
    const events = await collect({ model: modelAt(broker.url), messages: hello, signal: abort.signal }, (event) => {
      if (event.type === 'status') abort.abort();
    });
    expect(statusesOf(events)).toEqual(['HTTP 429: slow down; retrying in 60s (1/2)']);
    expect(finishOf(events)).toBe('cancelled');
    expect(errorsOf(events)).toEqual([]);
    expect(broker.requests).toHaveLength(1);
  });
});

describe('timeouts', () => {
  it('gives up when no byte arrives within the first-byte timeout', async () => {
    broker.enqueue(hangReply());
    const events = await collect({ model: modelAt(broker.url), messages: hello, timeouts: { firstByteMs: 300 } });
    expect(events).toEqual([
      {
        type: 'error',
        kind: 'timeout',
        message: `no answer from local at ${broker.url} within 0.3s (broker.firstByteTimeoutMs); is the model still loading?`,
      },
      { type: 'finish', reason: 'error' },
    ]);
    await expect.poll(() => broker.requests[0]?.disconnected).toBe(true);
  });

  it('the first-byte timeout also covers headers without a body', async () => {
    broker.enqueue(stallAfter(textReply('never'), 0));
    const events = await collect({ model: modelAt(broker.url), messages: hello, timeouts: { firstByteMs: 300 } });
    expect(errorsOf(events)[0]).toMatchObject({ kind: 'timeout', message: expect.stringContaining('broker.firstByteTimeoutMs') });
  });

  it('waits for a slow first byte within the timeout', async () => {
    broker.enqueue(delayFirstByte(textReply('loaded'), 300));
    const events = await collect({ model: modelAt(broker.url), messages: hello, timeouts: { firstByteMs: 5000 } });
    expect(textOf(events)).toBe('loaded');
  });

  it('falls back to the defaults for missing timeouts and caps huge ones instead of firing at once', async () => {
    broker.enqueue(delayFirstByte(textReply('patient'), 100), delayFirstByte(textReply('very patient'), 100));
    const missing = await collect({ model: modelAt(broker.url), messages: hello, timeouts: { firstByteMs: undefined, idleMs: undefined } });
    expect(textOf(missing)).toBe('patient');
    const huge = await collect({ model: modelAt(broker.url), messages: hello, timeouts: { firstByteMs: 1e12, idleMs: 1e12 } });
    expect(textOf(huge)).toBe('very patient');
  });

  it('gives up on a stream that goes silent, keeping its text', async () => {
    broker.enqueue(stallAfter(textReply('alpha beta gamma delta'), 3));
    const events = await collect({ model: modelAt(broker.url), messages: hello, timeouts: { idleMs: 300 } });
    expect(textOf(events)).toBe('alpha beta ');
    expect(errorsOf(events)).toEqual([
      { type: 'error', kind: 'timeout', message: 'local sent nothing for 0.3s in the middle of the answer; gave up (broker.idleTimeoutMs)' },
    ]);
    expect(finishOf(events)).toBe('error');
  });
});

describe('connection failures', () => {
  it('says it cannot reach a server that is not running, with a hint', async () => {
    const url = broker.url;
    await broker.close();
    const events = await collect({ model: modelAt(url), messages: hello });
    expect(events).toEqual([
      {
        type: 'error',
        kind: 'network',
        message: `cannot reach local at ${url}: connection refused (is llama-server, Ollama or LM Studio running there? --base-url points elsewhere)`,
      },
      { type: 'finish', reason: 'error' },
    ]);
  });

  it('names a DNS failure', async () => {
    const events = await collect({ model: modelAt('http://no-such-host.invalid/v1', { name: 'cloud' }), messages: hello });
    expect(errorsOf(events)[0]!.message).toMatch(/^cannot reach cloud at http:\/\/no-such-host\.invalid\/v1: (host not found \(DNS\)|DNS lookup failed) \(check the URL/);
  });

  it('never shows credentials or a query string from the URL', async () => {
    const url = broker.url.replace('http://', 'http://user:pw-secret-99@') + '?key=query-secret-42';
    await broker.close();
    const events = await collect({ model: modelAt(url), messages: hello });
    expect(JSON.stringify(events)).not.toMatch(/pw-secret-99|query-secret-42/);
  });

  it('reports a server that closes the connection without answering', async () => {
    broker.enqueue(resetReply(), resetReply());
    const events = await collect({ model: modelAt(broker.url), messages: hello });
    expect(errorsOf(events)[0]).toMatchObject({ kind: 'network', message: expect.stringContaining(`cannot reach local at ${broker.url}: `) });
    expect(finishOf(events)).toBe('error');
  });
});

describe('abort', () => {
  it('cancels mid-stream: the text so far was delivered, the server sees the disconnect', async () => {
    broker.enqueue(textReply('a b c d e f g h i j', { delayMs: 30 }));
    const abort = new AbortController();
    const events: BrokerEvent[] = [];
    for await (const event of streamChat({ model: modelAt(broker.url), messages: hello, signal: abort.signal })) {
      events.push(event);
      if (textOf(events) === 'a b c ') abort.abort();
    }
    expect(textOf(events)).toBe('a b c ');
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'cancelled' });
    expect(errorsOf(events)).toEqual([]);
    await expect.poll(() => broker.requests[0]!.disconnected).toBe(true);
  });

  it('cancels while waiting for the first byte', async () => {
    broker.enqueue(hangReply());
    const abort = new AbortController();
    const pending = collect({ model: modelAt(broker.url), messages: hello, signal: abort.signal });
    await broker.waitForRequests(1);
    abort.abort();
    expect(await pending).toEqual([{ type: 'finish', reason: 'cancelled' }]);
  });

  it('does not send anything when already aborted', async () => {
    const events = await collect({ model: modelAt(broker.url), messages: hello, signal: AbortSignal.abort() });
    expect(events).toEqual([{ type: 'finish', reason: 'cancelled' }]);
    expect(broker.requests).toHaveLength(0);
  });
});
