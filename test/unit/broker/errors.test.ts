import { describe, expect, it } from 'vitest';
import { credentialSource, httpErrorMessage, networkReason, oneLine, unreachableMessage } from '../../../src/services/broker/errors';
import { formatDuration } from '../../../src/services/shared/duration';
import { redact } from '../../../src/services/shared/redact';
import { backoffMs, isRetryableStatus, parseRetryAfter } from '../../../src/services/broker/retry';

const context = { modelId: 'gpt-x', url: 'http://127.0.0.1:8080/v1' };

describe('error text', () => {
  it('redacts every occurrence of a secret and leaves short values alone', () => {
    expect(redact('Incorrect API key provided: sk-abc123456. Key sk-abc123456 invalid', ['sk-abc123456'])).toBe(
      'Incorrect API key provided: [redacted]. Key [redacted] invalid',
    );
    expect(redact('a b c', ['a'])).toBe('a b c');
  });

  it('HTTP errors: code, the server message on one line, at most 400 characters', () => {
    expect(httpErrorMessage(400, '{"error":{"message":"bad\\nrequest"}}', context)).toBe('HTTP 400: bad request');
    const long = httpErrorMessage(500, 'z'.repeat(2000), context);
    expect(long).toBe(`HTTP 500: ${'z'.repeat(399)}…`);
    expect(httpErrorMessage(502, '', context)).toBe('HTTP 502: (empty body)');
  });

  it('HTTP 401/403 with a key sent name where the key came from; without one, ask whether the server needs one', () => {
    expect(httpErrorMessage(401, 'unauthorized', { ...context, keySource: '$OPENAI_API_KEY' })).toBe('HTTP 401: unauthorized (the server rejected the key from $OPENAI_API_KEY)');
    expect(httpErrorMessage(403, 'forbidden', { ...context, keySource: 'apiKey of model "cloud"' })).toBe(
      'HTTP 403: forbidden (the server refused access with the key from apiKey of model "cloud": a wrong key, or one without access to model "gpt-x")',
    );
    expect(httpErrorMessage(401, 'unauthorized', context)).toBe(
      'HTTP 401: unauthorized (no API key was sent: does this server need one? set keyEnv or apiKey for the model, or pass --api-key-env)',
    );
    expect(httpErrorMessage(404, 'not found', context)).toContain('ending in /v1');
  });

  it('names the source of the credential a request carries, as request.ts sends it', () => {
    const model = { name: 'm', baseUrl: 'http://127.0.0.1:8080/v1' };
    expect(credentialSource({ ...model, apiKey: 'sk-123456', keyEnv: 'K' })).toBe('apiKey of model "m"');
    expect(credentialSource({ ...model, keyEnv: 'OPENAI_API_KEY' })).toBe('$OPENAI_API_KEY');
    expect(credentialSource({ ...model, keyEnv: 'K', headers: { Authorization: 'Bearer x' } })).toBe('the Authorization header of model "m"');
    expect(credentialSource({ ...model, headers: { 'x-api-key': 'abcdef' } })).toBe('the x-api-key header of model "m"');
    expect(credentialSource({ ...model, baseUrl: 'http://user:pass@proxy.example/v1' })).toBe('the user and password in the base URL');
    expect(credentialSource({ ...model, headers: { 'x-trace': '1' } })).toBeUndefined();
  });

  it('names network failures by their code', () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });
    expect(networkReason(refused)).toBe('connection refused');
    const dns = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('getaddrinfo ENOTFOUND nope.invalid'), { code: 'ENOTFOUND' }) });
    expect(networkReason(dns)).toBe('host not found (DNS)');
    expect(networkReason(new Error('weird'))).toBe('weird');
    expect(unreachableMessage('local', 'http://127.0.0.1:8080/v1', refused)).toBe(
      'cannot reach local at http://127.0.0.1:8080/v1: connection refused (is llama-server, Ollama or LM Studio running there? --base-url points elsewhere)',
    );
    expect(unreachableMessage('cloud', 'https://api.example.com/v1', dns)).toContain('check the URL and the network');
  });

  it('formats durations and single lines', () => {
    expect(formatDuration(1500, 'rounded')).toBe('1.5s');
    expect(formatDuration(300_000, 'rounded')).toBe('5min');
    expect(formatDuration(45_000, 'rounded')).toBe('45s');
    expect(oneLine('a\n\tb  c')).toBe('a b c');
  });
});

describe('retry policy', () => {
  it('retries rate limits and server failures, not client errors', () => {
    expect([429, 500, 502, 503, 504, 529].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 404, 422, 501, 505].some(isRetryableStatus)).toBe(false);
  });

  it('reads Retry-After as seconds or a date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter('3', now)).toBe(3000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:07 GMT', now)).toBe(7000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect([1, 2, 3].map(backoffMs)).toEqual([1000, 2000, 4000]);
  });
});
