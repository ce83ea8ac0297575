/**
 * Scripted broker: a real loopback HTTP server (node:http, port 0 by default) that stands in for an
 * OpenAI-compatible model server. Tests tell it what to answer; it answers over real HTTP with the
 * shapes real servers send, and records every request it received.
 *
 * ```ts
 * const broker = await startScriptedBroker();
 * broker.enqueue(textReply('Hello'));                      // next request gets this
 * broker.route((req) => isToolResultTurn(req) ? textReply('42') : undefined);
 * // model config: { baseUrl: broker.url, model: 'scripted' }  (broker.url ends in /v1)
 * ...
 * expect(broker.requests[0].body.tools).toBeUndefined();
 * await broker.close();
 * ```
 *
 * Choosing a response for `POST /v1/chat/completions`: the queue first (`enqueue`, in order), then
 * the router (`route(fn)`; `fn` returns a response or undefined), then `options.fallback`, else a
 * loud HTTP 500 naming the request, so a test that forgot a script fails clearly.
 * `GET /v1/models` lists one model (`scripted`) unless `models(...)` says otherwise. Like llama-server,
 * `GET /props` reports a context window (`n_ctx` 131072) unless `serve('GET', '/props', …)` says
 * otherwise. The app's window probes (`/props`, `/api/…`) and token counts (`/tokenize`) are recorded in `probes`, not in
 * `requests`, so a test's request indexes do not depend on when the window was asked. Anything
 * else is 404.
 *
 * Responses (./broker-scripts/replies.ts; plain data, so they can come from a JSON file):
 * - `textReply(text, { chunkSize, tokensPerSecond, delayMs, reasoning, reasoningField, usage,
 *   finishReason, lineEnding, noSpace })`: role chunk, reasoning deltas, content deltas, finish
 *   chunk, optional usage-only chunk (`choices: []`), `data: [DONE]`.
 * - `toolCallReply([{ name, arguments, id }], { textBefore, fragmentSize, usage })`: arguments
 *   arrive in fragments; finish_reason `tool_calls`.
 * - `sse(items, options)`: any list of chunk objects, `{ sse: 'data', data, event }`,
 *   `{ sse: 'comment', text }`, `{ sse: 'raw', text }`; `chunk(delta, opts)`, `usageChunk(usage)`.
 * - `errorReply(status, body, { contentType, retryAfter, headers, delayMs })`,
 *   `jsonReply(body, { status })` (a non-SSE 200), `hangReply()` (never a first byte),
 *   `resetReply()` (connection destroyed, no response).
 * - Modifiers: `dropAfter(reply, k)` (cut the connection after k frames), `stallAfter(reply, k)`
 *   (go silent after k frames), `delayFirstByte(reply, ms)`, `rechunk(reply, bytes)` (re-cut the
 *   writes, e.g. one byte per write, also inside multi-byte characters).
 * - Routing helpers: `lastMessage(req)`, `lastUserText(req)`, `isToolResultTurn(req)`.
 *
 * Each received request is recorded in `requests` (method, path, search, headers, parsed JSON body, raw
 * body, and `disconnected`: the client went away before the response ended, e.g. an abort).
 * `waitForRequests(n)` resolves once n requests arrived.
 *
 * Standalone, for trying the app by hand:
 *   node --import tsx test/helpers/scripted-broker.ts [--port 18080] [--script file.json]
 * serves a small demo conversation (markdown answers; asked to calculate, it calls
 * `builtin__calculator`; asked to think, it reasons first; "error", "slow", "drop" and "stall" show
 * those failures) and prints its URL. A script file is a JSON array of responses (or the shorthands
 * in ./broker-scripts/demo.ts) served in order before the demo takes over.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type { ScriptedResponse } from './broker-scripts/replies';

export * from './broker-scripts/replies';

export interface ReceivedRequest {
  /** 0-based arrival order. */
  index: number;
  method: string;
  path: string;
  /** The query string with its `?`, or ''. */
  search: string;
  headers: http.IncomingHttpHeaders;
  /** The JSON body, or undefined when the body was empty or not JSON. */
  body: ChatRequestBody | undefined;
  rawBody: string;
  /** True once the client closed the connection before the response was complete. */
  disconnected: boolean;
  /** performance.now() in this process when the request body had arrived (benchmarks time with it). */
  receivedAt: number;
  /** performance.now() when the response's last byte was handed to the socket; undefined until then. */
  respondedAt?: number;
}

/** The parts of a chat-completions request tests look at; anything else is kept too. */
export interface ChatRequestBody {
  model?: string;
  messages?: Array<{ role: string; content?: unknown; tool_call_id?: string; tool_calls?: unknown[]; [key: string]: unknown }>;
  tools?: unknown[];
  stream?: boolean;
  [key: string]: unknown;
}

export type Router = (request: ReceivedRequest) => ScriptedResponse | undefined;

export interface ScriptedBrokerOptions {
  port?: number;
  host?: string;
  /** Used when the queue is empty and the router returns nothing. */
  fallback?: Router;
  /** Called for every request (standalone mode logs with it). */
  onRequest?: (request: ReceivedRequest) => void;
}

export interface ScriptedBroker {
  /** Base URL ending in `/v1`, as a model's `baseUrl`. */
  url: string;
  port: number;
  requests: ReceivedRequest[];
  /** Context-window probes (`/props`, `/api/ps`, `/api/show`, `/api/v0/…`) and `/tokenize`, kept apart from `requests`. */
  probes: ReceivedRequest[];
  enqueue(...responses: ScriptedResponse[]): void;
  /** Sets (or with undefined, clears) the router consulted when the queue is empty. */
  route(fn: Router | undefined): void;
  /** What `GET /v1/models` answers from now on: these ids, or any response; undefined: the default (`scripted`). */
  models(answer: string[] | ScriptedResponse | undefined): void;
  /**
   * Answers another endpoint (`GET /props`, `POST /api/show`, …) the way a real server kind does;
   * `path` is matched exactly (without the query). A response, or a function of the request.
   */
  serve(method: string, path: string, answer: ScriptedResponse | ((request: ReceivedRequest) => ScriptedResponse)): void;
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const MAX_REQUEST_BYTES = 32 * 1024 * 1024;
/** The context window `GET /props` reports by default: large, so no ordinary test compacts. */
export const DEFAULT_WINDOW = 131_072;

export function lastMessage(request: ReceivedRequest): NonNullable<ChatRequestBody['messages']>[number] | undefined {
  return request.body?.messages?.at(-1);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('');
  return '';
}

/** The text of the last user message (string or content parts), '' when there is none. */
export function lastUserText(request: ReceivedRequest): string {
  const messages = request.body?.messages ?? [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'user') return textOf(message.content);
  }
  return '';
}

/** True when the request follows tool results (the last message has role `tool`). */
export function isToolResultTurn(request: ReceivedRequest): boolean {
  return lastMessage(request)?.role === 'tool';
}

function sleep(ms: number | undefined, signal: AbortSignal): Promise<void> {
  if (!ms || ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function write(res: http.ServerResponse, text: string, binary: boolean | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed) return resolve();
    res.write(binary ? Buffer.from(text, 'latin1') : text, () => resolve());
  });
}

async function respond(script: ScriptedResponse, req: http.IncomingMessage, res: http.ServerResponse, gone: AbortSignal): Promise<void> {
  switch (script.kind) {
    case 'hang':
      return;
    case 'reset':
      req.socket.destroy();
      return;
    case 'body': {
      await sleep(script.delayMs, gone);
      if (gone.aborted) return;
      res.writeHead(script.status, { 'content-type': script.contentType ?? 'application/json', ...script.headers });
      res.end(script.body);
      return;
    }
    case 'stream': {
      await sleep(script.firstByteDelayMs, gone);
      if (gone.aborted) return;
      res.writeHead(script.status ?? 200, {
        'content-type': script.contentType ?? 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        ...script.headers,
      });
      res.flushHeaders();
      for (const frame of script.frames) {
        await sleep(frame.delayMs, gone);
        if (gone.aborted) return;
        await write(res, frame.text, frame.binary);
      }
      if (script.end === 'drop') req.socket.destroy();
      else if (script.end !== 'stall') res.end();
      return;
    }
  }
}

function noScriptReply(request: ReceivedRequest): ScriptedResponse {
  const message = `scripted broker: no response scripted for ${request.method} ${request.path} (request #${request.index})`;
  return { kind: 'body', status: 500, contentType: 'application/json', body: JSON.stringify({ error: { message, type: 'scripted_broker' } }) };
}

export async function startScriptedBroker(options: ScriptedBrokerOptions = {}): Promise<ScriptedBroker> {
  const queue: ScriptedResponse[] = [];
  const requests: ReceivedRequest[] = [];
  const probes: ReceivedRequest[] = [];
  const waiters = new Set<() => void>();
  const closing = new AbortController();
  let router: Router | undefined;
  let modelsAnswer: string[] | ScriptedResponse | undefined;
  const endpoints = new Map<string, ScriptedResponse | ((request: ReceivedRequest) => ScriptedResponse)>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (data: Buffer) => {
      size += data.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(data);
    });
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: ChatRequestBody | undefined;
      try {
        body = rawBody ? (JSON.parse(rawBody) as ChatRequestBody) : undefined;
      } catch {
        body = undefined;
      }
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const isProbe = /^\/(props$|tokenize$|api\/)/.test(url.pathname);
      const request: ReceivedRequest = {
        index: isProbe ? probes.length : requests.length,
        method: req.method ?? 'GET',
        path: url.pathname,
        search: url.search,
        headers: req.headers,
        body,
        rawBody,
        disconnected: false,
        receivedAt: performance.now(),
      };
      if (isProbe) {
        probes.push(request);
      } else {
        requests.push(request);
        options.onRequest?.(request);
        for (const wake of waiters) wake();
      }

      const gone = new AbortController();
      const onClose = () => {
        if (!res.writableFinished) request.disconnected = true;
        gone.abort();
      };
      res.on('close', onClose);
      const stopOnClose = () => gone.abort();
      closing.signal.addEventListener('abort', stopOnClose, { once: true });
      res.on('close', () => closing.signal.removeEventListener('abort', stopOnClose));

      let script: ScriptedResponse;
      const endpoint = endpoints.get(`${request.method} ${request.path}`);
      if (endpoint) {
        script = typeof endpoint === 'function' ? endpoint(request) : endpoint;
      } else if (request.method === 'GET' && request.path === '/props') {
        script = { kind: 'body', status: 200, contentType: 'application/json', body: JSON.stringify({ default_generation_settings: { n_ctx: DEFAULT_WINDOW }, total_slots: 1 }) };
      } else if (request.method === 'GET' && /\/models$/.test(request.path)) {
        const listed = Array.isArray(modelsAnswer) ? modelsAnswer : ['scripted'];
        script =
          modelsAnswer && !Array.isArray(modelsAnswer)
            ? modelsAnswer
            : { kind: 'body', status: 200, body: JSON.stringify({ object: 'list', data: listed.map((id) => ({ id, object: 'model', owned_by: 'scripted' })) }) };
      } else if (request.method === 'POST' && /\/chat\/completions$/.test(request.path)) {
        script = queue.shift() ?? router?.(request) ?? options.fallback?.(request) ?? noScriptReply(request);
      } else {
        script = { kind: 'body', status: 404, body: JSON.stringify({ error: { message: `not found: ${request.path}` } }) };
      }
      respond(script, req, res, gone.signal).then(
        () => {
          request.respondedAt = performance.now();
        },
        () => res.destroy(),
      );
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';

  return {
    url: `http://${host}:${port}/v1`,
    port,
    requests,
    probes,
    enqueue(...responses) {
      queue.push(...responses);
    },
    route(fn) {
      router = fn;
    },
    models(answer) {
      modelsAnswer = answer;
    },
    serve(method, path, answer) {
      endpoints.set(`${method.toUpperCase()} ${path}`, answer);
    },
    waitForRequests(count, timeoutMs = 10_000) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`scripted broker: ${requests.length} of ${count} requests after ${timeoutMs}ms`));
        }, timeoutMs);
        function check() {
          if (requests.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        }
        waiters.add(check);
      });
    },
    async close() {
      closing.abort();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '18080' },
      host: { type: 'string', default: '127.0.0.1' },
      script: { type: 'string' },
      quiet: { type: 'boolean', default: false },
    },
  });
  const { demoConversation, loadScriptFile } = await import('./broker-scripts/demo');
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port: expected a port number, got ${JSON.stringify(values.port)}`);
  const broker = await startScriptedBroker({
    port,
    host: values.host,
    fallback: demoConversation,
    onRequest: values.quiet
      ? undefined
      : (request) => {
          const text = lastUserText(request).replace(/\s+/g, ' ').slice(0, 60);
          const tools = request.body?.tools?.length ?? 0;
          process.stderr.write(`#${request.index} ${request.method} ${request.path} tools=${tools} last=${lastMessage(request)?.role ?? '-'} ${JSON.stringify(text)}\n`);
        },
  });
  if (values.script) broker.enqueue(...(await loadScriptFile(values.script)));
  process.stdout.write(`scripted broker listening on ${broker.url}\n`);
  process.stdout.write(`try: node dist/cli.js --base-url ${broker.url}\n`);
  const stop = () => {
    void broker.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`scripted broker: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
