import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import { Readable } from 'node:stream';

/**
 * Requests to the model's server over node:http instead of the global fetch: the chat request (a
 * streamed answer is one small socket read per token, a tool loop one request per call) and the
 * small documents around it (http-text.ts: window probes, token counts, the model list). On this
 * project's bench machine a bare client reading 2,000 tokens at 200 a second spends 0.70 s of CPU
 * with fetch and 0.44 s with node:http, and a bare 20-call loop waits 3.7 ms per call with fetch
 * and 1.6 ms with node:http (`npm run bench -- --only floor`, BENCHMARKS.md).
 *
 * The answer is not a web Response either: Response, Headers and Request are undici's, and the
 * first of them a process touches loads it, about 85 ms of CPU and 9 MB of memory (the first fetch
 * about 90-150 ms and 14 MB), for nothing the app reads. An HttpAnswer is the status, a header
 * lookup and node's body stream.
 *
 * What fetch does for these requests, they do too: a kept-alive connection per host, a compressed
 * body decompressed, a redirect followed (credentials kept only on the same origin; a 303, or a
 * 301/302 after a POST, continues as a GET) or refused, an abort that ends the connection, and
 * failures in fetch's shape: a TypeError "fetch failed" whose cause is the socket error (what
 * errors.ts reads).
 */

/** A server's answer: its status, its headers and its body (decompressed), before the body is read. */
export interface HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  /** A 2xx status. */
  readonly ok: boolean;
  /** A header's value (names in any case), or null; repeated headers joined with ", " as fetch does. */
  readonly headers: { get(name: string): string | null };
  /** The body, read or destroyed by whoever takes the answer; undefined for a status without one. */
  readonly body: Readable | undefined;
}

export interface SendInit {
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  /** As fetch's: follow (the default), refuse with a failure, or hand back the 3xx answer itself. */
  redirect?: 'follow' | 'error' | 'manual';
}

/**
 * How long a kept-alive connection may sit unused before it is closed (undici's default too). A
 * connection a NAT or a proxy dropped silently would otherwise be reused much later and hold the
 * next request until TCP gives up; a connection in use is not affected.
 */
export const IDLE_CONNECTION_MS = 4000;

type Agents = { 'http:': http.Agent; 'https:': https.Agent };

/**
 * Node keeps up to 16 KiB of a socket's unread bytes, and of a response's, reading the socket on
 * until that is full. A streamed answer read at the screen's pace (sse-node.ts) would then still
 * wake the process for every token (some 130 of them fit). With nothing kept, a socket nobody reads
 * stops being read, and the kernel holds what arrives until the next read takes it all at once.
 * Reads while someone is reading are as before: node hands each straight on.
 */
const SOCKET_OPTIONS = { keepAlive: true, readableHighWaterMark: 1 };

function agentsClosingIdleAfter(idleMs: number): Agents {
  return { 'http:': new http.Agent({ ...SOCKET_OPTIONS, timeout: idleMs }), 'https:': new https.Agent({ ...SOCKET_OPTIONS, timeout: idleMs }) };
}

const sharedAgents = agentsClosingIdleAfter(IDLE_CONNECTION_MS);

const REDIRECT = new Set([301, 302, 303, 307, 308]);
/** Statuses a Response may not carry a body with. */
const NULL_BODY = new Set([204, 205, 304]);


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

/** Like fetch: at most this many redirects, then a failure. */
const MAX_REDIRECTS = 20;
/**
 * Headers dropped when a redirect leads to another origin: the credentials were for the first one.
 * fetch drops the first three; the API-key headers providers use instead (`api-key`, `x-api-key`,
 * see errors.ts) carry the same secret and go too.
 */
const ORIGIN_BOUND = ['authorization', 'proxy-authorization', 'cookie', 'api-key', 'x-api-key'];

const ok = (status: number) => status >= 200 && status < 300;

function headerLookup(response: IncomingMessage): HttpAnswer['headers'] {
  return {
    get(name) {
      const value = response.headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/**
 * An abort when the answer's body has all arrived but is not read to its end (its reader takes it
 * at the screen's pace, or stopped reading): the request's own abort would have node read the body
 * to its end while it destroys the socket, so the socket goes back to the pool with the destroy's
 * error still to come, and that error then reaches no listener (an uncaught exception). Ending
 * the body first, with the abort as its failure, keeps the socket out of the pool; its reader hears
 * the failure as it would have.
 */
function endUnreadBody(response: IncomingMessage | undefined, reason: unknown): void {
  if (!response || !response.complete || response.readableEnded || response.destroyed) return;
  // A body nobody reads any more (a reader that was released or cancelled) must not throw either.
  response.once('error', () => {});
  response.destroy(fetchFailed(reason));
}

/** What fetch answers, as an HttpAnswer (a scheme node:http does not speak is fetch's to refuse). */
async function viaFetch(url: string, init: SendInit): Promise<HttpAnswer> {
  const response = await fetch(url, { method: init.method ?? 'POST', headers: init.headers, ...(init.body !== undefined ? { body: init.body } : {}), signal: init.signal, redirect: init.redirect ?? 'follow' });
  return {
    status: response.status,
    statusText: response.statusText,
    ok: response.ok,
    headers: response.headers,
    body: response.body ? Readable.fromWeb(response.body as import('node:stream/web').ReadableStream<Uint8Array>) : undefined,
  };
}

/** The request a redirect leads to, as fetch would make it. */
function redirected(from: URL, location: string, status: number, init: SendInit): { url: string; init: SendInit } {
  const next = new URL(location, from);
  const headers = { ...init.headers };
  const drop = (names: readonly string[]) => {
    for (const name of Object.keys(headers)) if (names.includes(name.toLowerCase())) delete headers[name];
  };
  if (next.origin !== from.origin) drop(ORIGIN_BOUND);
  const method = init.method ?? 'POST';
  if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
    drop(['content-type']);
    const { body: _dropped, ...rest } = init;
    return { url: next.href, init: { ...rest, method: 'GET', headers } };
  }
  return { url: next.href, init: { ...init, headers } };
}

/** Sends one request; resolves with the answer once its headers arrive. */
export function httpSend(url: string, init: SendInit): Promise<HttpAnswer> {
  return send(sharedAgents, url, init, 0);
}

/** POSTs `body` to `url` (the chat request). */
export function httpPost(url: string, init: Omit<SendInit, 'method' | 'body'> & { body: string }): Promise<HttpAnswer> {
  return send(sharedAgents, url, { ...init, method: 'POST' }, 0);
}

/** `httpPost` over connections of their own, closed after `idleMs` unused (tests of the idle limit). */
export function httpPostClosingIdleAfter(idleMs: number): (url: string, init: Omit<SendInit, 'method' | 'body'> & { body: string }) => Promise<HttpAnswer> {
  const agents = agentsClosingIdleAfter(idleMs);
  return (url, init) => send(agents, url, { ...init, method: 'POST' }, 0);
}

function send(agents: Agents, url: string, init: SendInit, hops: number): Promise<HttpAnswer> {
  const target = new URL(url);
  const agent = Object.hasOwn(agents, target.protocol) ? agents[target.protocol as keyof Agents] : undefined;
  if (!agent) return viaFetch(url, init);
  if (init.signal.aborted) return Promise.reject(init.signal.reason);
  const payload = init.body === undefined ? undefined : Buffer.from(init.body, 'utf8');
  const headers: Record<string, string> = { accept: '*/*' };
  for (const [name, value] of Object.entries(init.headers)) headers[name.toLowerCase()] = value;
  if (payload) headers['content-length'] = String(payload.byteLength);
  return new Promise<HttpAnswer>((resolve, reject) => {
    // The abort is handled here rather than by node (`signal` in the options), one listener either
    // way: a body that has all arrived but waits unread is ended first (endUnreadBody).
    const request = (target.protocol === 'https:' ? https : http).request(target, { method: init.method ?? 'POST', agent, headers });
    let answer: IncomingMessage | undefined;
    const onAbort = () => {
      endUnreadBody(answer, init.signal.reason);
      request.destroy(Object.assign(new Error('The operation was aborted'), { name: 'AbortError', code: 'ABORT_ERR', cause: init.signal.reason }));
    };
    init.signal.addEventListener('abort', onAbort, { once: true });
    request.once('close', () => init.signal.removeEventListener('abort', onAbort));
    // The idle limit is for a connection in the pool (the agent sets it again when the answer ends):
    // on one in use, node would refresh its timer on every read, one per streamed token.
    request.once('socket', (socket) => {
      socket.setNoDelay(true);
      socket.setTimeout(0);
    });
    request.once('error', (error) => reject(init.signal.aborted ? init.signal.reason : fetchFailed(error)));
    request.once('response', (response) => {
      answer = response;
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECT.has(status) && location && init.redirect !== 'manual') {
        response.resume();
        if (init.redirect === 'error') reject(fetchFailed(new Error(`unexpected redirect to ${location}`)));
        else if (hops >= MAX_REDIRECTS) reject(fetchFailed(new Error('redirect count exceeded')));
        else {
          let next: ReturnType<typeof redirected>;
          try {
            next = redirected(target, location, status, init);
          } catch (error) {
            // A Location that is no URL at all: a failure of this request, as in fetch.
            reject(fetchFailed(error));
            return;
          }
          resolve(send(agents, next.url, next.init, hops + 1));
        }
        return;
      }
      const body = NULL_BODY.has(status) ? undefined : nodeBody(response);
      if (!body) response.resume();
      resolve({ status, statusText: response.statusMessage ?? '', ok: ok(status), headers: headerLookup(response), body });
    });
    request.end(payload);
  });
}
