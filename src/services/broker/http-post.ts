import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';

/**
 * The chat request's POST over node:http instead of the global fetch. A streamed answer is one
 * small socket read per token and a tool loop one request per call; on this project's bench
 * machine a bare client reading 2,000 tokens at 200 a second spends 0.70 s of CPU with fetch and
 * 0.44 s with node:http, and a bare 20-call loop waits 3.7 ms per call with fetch and 1.6 ms with
 * node:http (`npm run bench -- --only floor`, BENCHMARKS.md). It resolves with a standard Response,
 * so ky's retries and everything that reads the answer stay as they are.
 *
 * What fetch does for this request, it does too: a kept-alive connection per host, a compressed
 * body decompressed, a redirect followed (credentials kept only on the same origin), an abort that
 * ends the connection, and failures in fetch's shape: a TypeError "fetch failed" whose cause is the
 * socket error (what errors.ts reads).
 */

/**
 * How long a kept-alive connection may sit unused before it is closed (undici's default too). A
 * connection a NAT or a proxy dropped silently would otherwise be reused much later and hold the
 * next request until TCP gives up; a connection in use is not affected.
 */
export const IDLE_CONNECTION_MS = 4000;

type Agents = { 'http:': http.Agent; 'https:': https.Agent };

function agentsClosingIdleAfter(idleMs: number): Agents {
  return { 'http:': new http.Agent({ keepAlive: true, timeout: idleMs }), 'https:': new https.Agent({ keepAlive: true, timeout: idleMs }) };
}

const sharedAgents = agentsClosingIdleAfter(IDLE_CONNECTION_MS);

const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** Statuses a Response may not carry a body with. */
const NULL_BODY = new Set([204, 205, 304]);

export interface PostInit {
  headers: Headers;
  body: string;
  signal: AbortSignal;
  redirect?: RequestRedirect;
}

function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

function decoded(response: IncomingMessage): Readable {
  const coding = String(response.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (coding === 'gzip' || coding === 'x-gzip') return response.pipe(zlib.createGunzip());
  if (coding === 'deflate') return response.pipe(zlib.createInflate());
  if (coding === 'br') return response.pipe(zlib.createBrotliDecompress());
  return response;
}

/** The connection closed before the body's end, in the words fetch uses (errors.ts names it). */
const closedEarly = () => Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });

/**
 * The body as node reads it, decompressed, its failures in fetch's shape: a connection that closes
 * before the end is an error here (node reports it as `aborted`, not always as an error).
 */
function nodeBody(response: IncomingMessage): Readable {
  const source = decoded(response);
  const fail = (error: Error) => {
    if (!source.destroyed) source.destroy(fetchFailed(error));
  };
  if (source !== response) {
    response.once('error', fail);
    // A reader that stops early destroys the decompressor; the connection under it goes too.
    source.once('close', () => {
      if (!response.complete) response.destroy();
    });
  }
  response.once('aborted', () => fail(closedEarly()));
  response.once('close', () => {
    if (!response.complete) fail(closedEarly());
  });
  return source;
}

/**
 * The same body as a web stream, for the Response (ky, error bodies, JSON answers). It holds at
 * most one read, so a slow reader slows the server instead of buffering the answer; it starts
 * listening only when first read, so a body read through `nodeBodyOf` never passes through it.
 */
function webBody(source: Readable): ReadableStream<Uint8Array> {
  let listening = false;
  let settled = false;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (listening) {
          source.resume();
          return;
        }
        listening = true;
        source.on('data', (chunk: Buffer) => {
          if (settled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.once('end', () => {
          if (settled) return;
          settled = true;
          controller.close();
        });
        source.once('error', (error: Error) => {
          if (settled) return;
          settled = true;
          controller.error(error instanceof TypeError ? error : fetchFailed(error));
        });
      },
      cancel() {
        settled = true;
        source.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

const nodeBodies = new WeakMap<Response, Readable>();

/**
 * The node stream behind a Response from `httpPost`, for a reader that wants the socket's reads
 * without web streams between (sse.ts); undefined for any other Response. Read one or the other.
 */
export function nodeBodyOf(response: Response): Readable | undefined {
  return nodeBodies.get(response);
}

function headersOf(response: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) {
    try {
      headers.append(raw[index]!, raw[index + 1]!);
    } catch {
      // A header Headers refuses (an invalid name or value): left out rather than failing the answer.
    }
  }
  return headers;
}

/** Like fetch: at most this many redirects, then a failure. */
const MAX_REDIRECTS = 20;
/**
 * Headers dropped when a redirect leads to another origin: the credentials were for the first one.
 * fetch drops the first three; the API-key headers providers use instead (`api-key`, `x-api-key`,
 * see errors.ts) carry the same secret and go too.
 */
const ORIGIN_BOUND = ['authorization', 'proxy-authorization', 'cookie', 'api-key', 'x-api-key'];

/** Where a redirect leads, as fetch would go: 307/308 POST the same body again, the others GET. */
function followRedirect(agents: Agents, url: URL, location: string, status: number, init: PostInit, hops: number): Promise<Response> {
  if (hops >= MAX_REDIRECTS) return Promise.reject(fetchFailed(new Error('redirect count exceeded')));
  const next = new URL(location, url);
  const headers = new Headers(init.headers);
  if (next.origin !== url.origin) for (const name of ORIGIN_BOUND) headers.delete(name);
  if (status === 307 || status === 308) return post(agents, next.href, { ...init, headers }, hops + 1);
  headers.delete('content-type');
  return globalThis.fetch(next, { method: 'GET', headers, signal: init.signal, redirect: init.redirect });
}

/** POSTs `init.body` to `url`; resolves with the response once its headers arrive. */
export function httpPost(url: string, init: PostInit): Promise<Response> {
  return post(sharedAgents, url, init, 0);
}

/** `httpPost` over connections of their own, closed after `idleMs` unused (tests of the idle limit). */
export function httpPostClosingIdleAfter(idleMs: number): (url: string, init: PostInit) => Promise<Response> {
  const agents = agentsClosingIdleAfter(idleMs);
  return (url, init) => post(agents, url, init, 0);
}

function post(agents: Agents, url: string, init: PostInit, hops: number): Promise<Response> {
  const target = new URL(url);
  const agent = agents[target.protocol as keyof typeof agents];
  if (!agent) return globalThis.fetch(url, { method: 'POST', headers: init.headers, body: init.body, signal: init.signal, redirect: init.redirect });
  if (init.signal.aborted) return Promise.reject(init.signal.reason);
  const payload = Buffer.from(init.body, 'utf8');
  const headers: Record<string, string> = { accept: '*/*' };
  init.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers['content-length'] = String(payload.byteLength);
  return new Promise<Response>((resolve, reject) => {
    const request = (target.protocol === 'https:' ? https : http).request(target, { method: 'POST', agent, headers, signal: init.signal });
    // The idle limit is for a connection in the pool (the agent sets it again when the answer ends):
    // on one in use, node would refresh its timer on every read, one per streamed token.
    request.once('socket', (socket) => {
      socket.setNoDelay(true);
      socket.setTimeout(0);
    });
    request.once('error', (error) => reject(init.signal.aborted ? init.signal.reason : fetchFailed(error)));
    request.once('response', (response) => {
      const status = response.statusCode ?? 0;
      if (REDIRECT.has(status) && response.headers.location && init.redirect !== 'manual') {
        response.resume();
        if (init.redirect === 'error') reject(fetchFailed(new Error(`unexpected redirect to ${response.headers.location}`)));
        else resolve(followRedirect(agents, target, response.headers.location, status, init, hops));
        return;
      }
      try {
        const source = NULL_BODY.has(status) ? undefined : nodeBody(response);
        if (!source) response.resume();
        const answer = new Response(source ? webBody(source) : null, { status, statusText: response.statusMessage ?? '', headers: headersOf(response) });
        if (source) nodeBodies.set(answer, source);
        resolve(answer);
      } catch (error) {
        // A status a Response cannot have (below 200 or above 599).
        response.destroy();
        reject(fetchFailed(new Error(`HTTP status ${status}: ${error instanceof Error ? error.message : String(error)}`)));
      }
    });
    request.end(payload);
  });
}
