import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { httpSend } from '../../../src/services/broker/http-post';
import { httpText } from '../../../src/services/broker/http-text';
import { startContextServer, windowedRouter } from '../../helpers/context-servers';
import { errorReply, type ScriptedBroker } from '../../helpers/scripted-broker';

// Every request the app makes to a model's server goes over node:http (http-post.ts), the small
// documents through httpText (http-text.ts): no fetch, no web Response. What fetch did for them
// must still happen; and a process that made them all must not have loaded undici at all, which
// cost every start about 85 ms of CPU and 9-14 MB of memory (BENCHMARKS.md).

const execFileAsync = promisify(execFile);
const open: Array<{ close(): Promise<void> | void }> = [];
afterEach(async () => {
  for (const thing of open.splice(0)) await thing.close();
});

interface Seen {
  method: string;
  path: string;
  body: string;
  authorization: string | undefined;
  contentType: string | undefined;
}

async function serve(handler: (request: http.IncomingMessage, response: http.ServerResponse, body: string) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({ method: request.method ?? '', path: request.url ?? '', body, authorization: request.headers.authorization, contentType: request.headers['content-type'] });
      handler(request, response, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  open.push({ close: () => new Promise<void>((resolve) => server.close(() => resolve())) });
  server.unref();
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const signal = () => new AbortController().signal;

describe('requests to the model server without fetch', () => {
  it('a process that streamed an answer (one retried), probed the window, counted tokens and listed the models never loaded undici', async () => {
    const server: ScriptedBroker = await startContextServer('llama.cpp', 3000);
    open.push(server);
    const answer = windowedRouter('llama.cpp', 3000);
    let chats = 0;
    server.route((request) => (request.path.endsWith('/chat/completions') && chats++ === 0 ? errorReply(503, { error: { message: 'loading model' } }, { retryAfter: 0 }) : answer(request)));
    const probe = fileURLToPath(new URL('../../helpers/undici-free-probe.ts', import.meta.url));
    const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', probe, server.url], { timeout: 30_000 });
    const report = JSON.parse(stdout.trim().split('\n').at(-1)!);
    expect(report.finish).toBe('stop');
    expect(report.text.length).toBeGreaterThan(0);
    expect(report.statuses).toEqual([expect.stringMatching(/^HTTP 503: loading model; retrying in .* \(1\/1\)$/)]);
    expect(report.window).toBe(3000);
    expect(report.models).toContain('local-model');
    expect(report.counted).toBeGreaterThan(0);
    expect(report.undici).toEqual([]);
  });

  it('reads a small document up to its bound, decompressed, and says when it was cut', async () => {
    const { url } = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      response.end(zlib.gzipSync(JSON.stringify({ data: 'x'.repeat(5000) })));
    });
    const whole = await httpText(`${url}/v1/models`, { method: 'GET', headers: {}, signal: signal(), maxBytes: 1 << 20 });
    expect(whole).toMatchObject({ status: 200, ok: true, truncated: false });
    expect(JSON.parse(whole.text).data).toHaveLength(5000);
    const cut = await httpText(`${url}/v1/models`, { method: 'GET', headers: {}, signal: signal(), maxBytes: 100 });
    expect(cut.truncated).toBe(true);
    expect(cut.text).toHaveLength(100);
  });

  it('refuses a redirect when asked to, in the words fetch used', async () => {
    const { url, seen } = await serve((_request, response) => {
      response.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' });
      response.end();
    });
    const failure = await httpText(`${url}/props`, { method: 'GET', headers: { authorization: 'Bearer sk-test-secret' }, signal: signal(), maxBytes: 1024, redirect: 'error' }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
    expect(seen).toHaveLength(1);
  });

  it('fails a redirect to an address that is no URL, as fetch does, instead of throwing out of the socket', async () => {
    const { url } = await serve((_request, response) => {
      response.writeHead(302, { location: 'http://[not-a-host' });
      response.end();
    });
    const failure = await httpText(`${url}/v1/models`, { method: 'GET', headers: {}, signal: signal(), maxBytes: 1024 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
  });

  it('follows a 303 after a POST as a GET without the body, and keeps the key on its own origin only', async () => {
    const other = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"elsewhere":true}');
    });
    const first = await serve((request, response) => {
      if (request.url === '/start') {
        response.writeHead(303, { location: '/same' });
      } else if (request.url === '/same') {
        response.writeHead(307, { location: `${other.url}/end` });
      }
      response.end();
    });
    const answer = await httpText(`${first.url}/start`, { method: 'POST', headers: { authorization: 'Bearer sk-test-secret', 'content-type': 'application/json' }, body: '{"a":1}', signal: signal(), maxBytes: 1024 });
    expect(answer.text).toBe('{"elsewhere":true}');
    expect(first.seen.map(({ method, path, body, authorization, contentType }) => ({ method, path, body, authorization, contentType }))).toEqual([
      { method: 'POST', path: '/start', body: '{"a":1}', authorization: 'Bearer sk-test-secret', contentType: 'application/json' },
      { method: 'GET', path: '/same', body: '', authorization: 'Bearer sk-test-secret', contentType: undefined },
    ]);
    // A 307 keeps the method (GET by now); the other origin gets no key.
    expect(other.seen).toEqual([{ method: 'GET', path: '/end', body: '', authorization: undefined, contentType: undefined }]);
  });

  it('hands back an answer without a body for a status that has none, and its headers in any case', async () => {
    const { url } = await serve((_request, response) => {
      response.writeHead(204, { 'X-Request-Id': 'abc' });
      response.end();
    });
    const answer = await httpSend(`${url}/x`, { method: 'GET', headers: {}, signal: signal() });
    expect(answer.status).toBe(204);
    expect(answer.ok).toBe(true);
    expect(answer.body).toBeUndefined();
    expect(answer.headers.get('x-request-id')).toBe('abc');
    expect(answer.headers.get('X-REQUEST-ID')).toBe('abc');
    expect(answer.headers.get('missing')).toBeNull();
  });
});
