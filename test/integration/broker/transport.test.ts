import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { readLimited } from '../../../src/services/broker/body';
import { httpPostClosingIdleAfter, IDLE_CONNECTION_MS, type HttpAnswer } from '../../../src/services/broker/http-post';
import { collect, errorsOf, finishOf, hello, modelAt, textOf } from './collect';
import { listenCounted } from './counted-server';

// The chat request goes over node:http (src/services/broker/http-post.ts), not the global fetch.
// What fetch did for it must still happen: a kept-alive connection, a compressed answer read, a
// redirect followed, a failure named. A plain node:http server, so each of these is under the
// test's control.

const execFileAsync = promisify(execFile);

const bodyText = async (answer: HttpAnswer) => (await readLimited(answer, 1024 * 1024)).text;

const SSE_ANSWER = ['{"choices":[{"delta":{"role":"assistant","content":"Hello"}}]}', '{"choices":[{"delta":{"content":" there"}}]}', '{"choices":[{"delta":{},"finish_reason":"stop"}]}', '[DONE]']
  .map((data) => `data: ${data}\n\n`)
  .join('');

interface Seen {
  path: string;
  body: string;
  authorization: string | undefined;
  apiKey: string | undefined;
}

const servers: Array<http.Server | https.Server> = [];

function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handle: (request: http.IncomingMessage, response: http.ServerResponse, body: string) => void): Promise<{ url: string; seen: Seen[]; connections: () => number; closed: () => number }> {
  const seen: Seen[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (text: string) => (body += text));
    request.on('end', () => {
      seen.push({ path: request.url ?? '', body, authorization: request.headers.authorization, apiKey: request.headers['api-key'] as string | undefined });
      handle(request, response, body);
    });
  });
  servers.push(server);
  return { ...(await listenCounted(server)), seen };
}

/**
 * Streams from a server that sends one word and never ends (written by `start`), stops at that
 * word, and checks that the answer was cancelled and that the server saw its connection close.
 */
async function cancelAfterFirstWord(start: (response: http.ServerResponse) => void): Promise<void> {
  let closed = false;
  const server = await serve((_request, response) => {
    response.on('close', () => (closed = true));
    start(response);
  });
  const stop = new AbortController();
  const events = await collect({ model: modelAt(server.url), messages: hello, signal: stop.signal }, (event) => {
    if (event.type === 'text-delta') stop.abort();
  });
  expect(textOf(events)).toBe('first');
  expect(finishOf(events)).toBe('cancelled');
  for (let wait = 0; wait < 50 && !closed; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(closed).toBe(true);
}

const FIRST_WORD = 'data: {"choices":[{"delta":{"content":"first"}}]}\n\n';

describe('the chat transport', () => {
  it('keeps the connection alive: requests in a row share one, each carrying the whole body', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(SSE_ANSWER);
    });
    for (let turn = 0; turn < 3; turn++) {
      const events = await collect({ model: modelAt(server.url), messages: [{ role: 'user', content: `question ${turn} ${'é'.repeat(3000)}` }] });
      expect(textOf(events)).toBe('Hello there');
      expect(finishOf(events)).toBe('stop');
    }
    expect(server.seen.map((request) => request.path)).toEqual(Array(3).fill('/v1/chat/completions'));
    expect(server.seen.map((request) => JSON.parse(request.body).messages[0].content)).toEqual([0, 1, 2].map((turn) => `question ${turn} ${'é'.repeat(3000)}`));
    expect(server.connections()).toBe(1);
  });

  // The idle limit is 4 s in the app; these two use a transport closing idle connections after
  // IDLE_MS so they take a second, not eight.
  const IDLE_MS = 300;
  const postTo = (url: string) =>
    httpPostClosingIdleAfter(IDLE_MS)(`${url}/chat/completions`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: hello }), signal: new AbortController().signal });

  it('closes a kept-alive connection left unused: one a NAT dropped silently is never reused much later', async () => {
    expect(IDLE_CONNECTION_MS).toBe(4000);
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(SSE_ANSWER);
    });
    expect(await bodyText(await postTo(server.url))).toBe(SSE_ANSWER);
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 2));
    expect(server.closed()).toBe(0);
    for (let wait = 0; wait < 30 && server.closed() === 0; wait++) await new Promise((resolve) => setTimeout(resolve, IDLE_MS / 10));
    expect(server.closed()).toBe(1);
  });

  it('waits for an answer slower than the idle limit: the limit is for connections nobody uses', async () => {
    const server = await serve((_request, response) => {
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write(SSE_ANSWER.slice(0, 20));
        // A pause in the middle of the body longer than the limit too.
        setTimeout(() => response.end(SSE_ANSWER.slice(20)), IDLE_MS * 2);
      }, IDLE_MS * 2);
    });
    expect(await bodyText(await postTo(server.url))).toBe(SSE_ANSWER);
  });

  it('times a connection only while it waits in the pool: one carrying an answer has no timer to refresh on each read', async () => {
    let finish = () => {};
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(SSE_ANSWER.slice(0, 20));
      finish = () => response.end(SSE_ANSWER.slice(20));
    });
    const transport = httpPostClosingIdleAfter(IDLE_MS);
    const send = () => transport(`${server.url}/chat/completions`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ messages: hello }), signal: new AbortController().signal });
    const answer = await send();
    const socket = (answer.body as http.IncomingMessage).socket;
    expect(socket.timeout).toBe(0);
    finish();
    expect(await bodyText(answer)).toBe(SSE_ANSWER);
    for (let wait = 0; wait < 20 && socket.timeout !== IDLE_MS; wait++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(socket.timeout).toBe(IDLE_MS);
    // Taken from the pool for the next request: no timer again while it answers.
    const next = await send();
    expect((next.body as http.IncomingMessage).socket).toBe(socket);
    expect(socket.timeout).toBe(0);
    finish();
    await bodyText(next);
  });

  it('reads an answer the server compressed', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      response.end(zlib.gzipSync(SSE_ANSWER));
    });
    const events = await collect({ model: modelAt(server.url), messages: hello });
    expect(textOf(events)).toBe('Hello there');
    expect(errorsOf(events)).toEqual([]);
  });

  it('stops a compressed answer when the caller stops: the server sees the connection close', async () => {
    await cancelAfterFirstWord((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const gzip = zlib.createGzip();
      gzip.pipe(response);
      gzip.write(FIRST_WORD);
      gzip.flush();
    });
  });

  it('closes the connection when the reader alone stops a compressed answer (the request not aborted)', async () => {
    let closed = false;
    const server = await serve((_request, response) => {
      response.on('close', () => (closed = true));
      response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      const gzip = zlib.createGzip();
      gzip.pipe(response);
      gzip.write(FIRST_WORD);
      gzip.flush();
    });
    const answer = await httpPostClosingIdleAfter(IDLE_MS)(`${server.url}/chat/completions`, { headers: {}, body: '{}', signal: new AbortController().signal });
    const body = answer.body!;
    const first = await new Promise<string>((resolve) => body.once('data', (chunk: Buffer) => resolve(chunk.toString('utf8'))));
    expect(first).toBe(FIRST_WORD);
    // What sse.ts does when the reader stops: the decompressed stream is destroyed, nothing else.
    body.destroy();
    for (let wait = 0; wait < 50 && !closed; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closed).toBe(true);
  });

  it('follows a redirect that keeps the method, body included', async () => {
    const server = await serve((request, response) => {
      if (request.url?.startsWith('/old/')) {
        response.writeHead(307, { location: '/v1/chat/completions' });
        response.end();
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(SSE_ANSWER);
    });
    const events = await collect({ model: modelAt(server.url.replace('/v1', '/old/v1')), messages: hello });
    expect(textOf(events)).toBe('Hello there');
    expect(server.seen.map((request) => request.path)).toEqual(['/old/v1/chat/completions', '/v1/chat/completions']);
    expect(JSON.parse(server.seen[1]!.body).messages).toEqual(hello);
  });

  it('sends the key on to the same origin only, as fetch does', async () => {
    const elsewhere = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.end(SSE_ANSWER);
    });
    const server = await serve((request, response) => {
      const to = request.url?.startsWith('/away/') ? `${elsewhere.url}/chat/completions` : '/v1/chat/completions';
      if (request.url?.startsWith('/v1/')) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(SSE_ANSWER);
        return;
      }
      response.writeHead(308, { location: to });
      response.end();
    });
    const key = 'sk-test-transport-0123456789';
    // An Azure-style key header too: it carries the same kind of secret.
    const headers = { 'api-key': 'azure-key-0123456789' };
    const here = await collect({ model: modelAt(server.url.replace('/v1', '/here/v1'), { apiKey: key, headers }), messages: hello });
    expect(textOf(here)).toBe('Hello there');
    const away = await collect({ model: modelAt(server.url.replace('/v1', '/away/v1'), { apiKey: key, headers }), messages: hello });
    expect(textOf(away)).toBe('Hello there');
    expect(server.seen.map((request) => [request.path, request.authorization, request.apiKey])).toEqual([
      ['/here/v1/chat/completions', `Bearer ${key}`, headers['api-key']],
      ['/v1/chat/completions', `Bearer ${key}`, headers['api-key']],
      ['/away/v1/chat/completions', `Bearer ${key}`, headers['api-key']],
    ]);
    expect(elsewhere.seen.map((request) => [request.path, request.authorization, request.apiKey, JSON.parse(request.body).messages])).toEqual([['/v1/chat/completions', undefined, undefined, hello]]);
  });

  it.skipIf(!hasOpenssl())('an https address whose certificate cannot be trusted: named, and nothing reaches the server', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aish-tls-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1'], { stdio: 'ignore' });
      let reached = false;
      const server = https.createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) }, (_request, response) => {
        reached = true;
        response.end();
      });
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      const [error, ...rest] = errorsOf(await collect({ model: modelAt(url), messages: hello }));
      expect(rest).toEqual([]);
      expect(error!.message).toBe(`cannot reach local at ${url}: self-signed TLS certificate (is llama-server, Ollama or LM Studio running there? --base-url points elsewhere)`);
      expect(reached).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(!hasOpenssl())('streams answers from an https address over one kept-alive TLS connection', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aish-tls-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
      let connections = 0;
      const seen: string[] = [];
      const server = https.createServer({ key: readFileSync(path.join(dir, 'key.pem')), cert: readFileSync(path.join(dir, 'cert.pem')) }, (request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        request.on('end', () => {
          seen.push(`${request.url} ${JSON.parse(body).messages[0].content}`);
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.end(SSE_ANSWER);
        });
      });
      server.keepAliveTimeout = 60_000;
      server.on('secureConnection', () => connections++);
      servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
      // The certificate is trusted only through NODE_EXTRA_CA_CERTS, which node reads at start-up: a child process.
      const env: NodeJS.ProcessEnv = { ...process.env, NODE_EXTRA_CA_CERTS: path.join(dir, 'cert.pem') };
      delete env.NODE_OPTIONS;
      const probe = fileURLToPath(new URL('../../helpers/https-answer-probe.ts', import.meta.url));
      const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', probe, url], { env, encoding: 'utf8' });
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual([
        { text: 'Hello there', errors: [], finish: 'stop' },
        { text: 'Hello there', errors: [], finish: 'stop' },
      ]);
      expect(seen).toEqual(['/v1/chat/completions hello 0', '/v1/chat/completions hello 1']);
      expect(connections).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names a refused connection and the address', async () => {
    const server = await serve(() => {});
    const url = server.url;
    for (const one of servers.splice(0)) await new Promise((resolve) => one.close(resolve));
    const [error, ...rest] = errorsOf(await collect({ model: modelAt(url), messages: hello }));
    expect(rest).toEqual([]);
    expect(error!.kind).toBe('network');
    expect(error!.message).toBe(`cannot reach local at ${url}: connection refused (is llama-server, Ollama or LM Studio running there? --base-url points elsewhere)`);
  });

  it('stops reading when the caller stops: the server sees the connection close', async () => {
    await cancelAfterFirstWord((response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(FIRST_WORD);
    });
  });
});
