import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

// A loopback MCP server that speaks only the legacy HTTP+SSE transport, the way Playwright MCP
// does at `/sse`: a POST to the stream URL is answered with an error status (400 by default; 404
// and 405 are what other servers send), a GET opens the event stream, which first names the
// endpoint for the client's messages (`/message?sessionId=...`); each answer to a message
// arrives on the stream. The same server also answers streamable HTTP at `/mcp` (JSON answers,
// no session), so the protocol version a server announces can be set for either transport.
//
// Run by hand: npx tsx test/helpers/legacy-sse-server.ts [--port 8932] [--post-status 400] [--token secret]

export interface LegacyRequest {
  method: string;
  path: string;
  rpcMethod?: string;
  authorization?: string;
}

export interface LegacySseServer {
  /** The legacy transport's stream URL (`/sse`). */
  sseUrl: string;
  /** A streamable HTTP URL (`/mcp`) on the same server. */
  mcpUrl: string;
  requests: LegacyRequest[];
  close(): Promise<void>;
}

export interface LegacySseOptions {
  port?: number;
  /** The status a POST to `/sse` gets (Playwright MCP: 400). */
  postStatus?: number;
  /** The protocol version `initialize` answers with, whatever the client offers. */
  protocolVersion?: string;
  /** Every request must carry `Authorization: Bearer <token>`, or gets a 401. */
  token?: string;
}

export const LEGACY_TOOLS = [
  { name: 'browser_navigate', description: 'Open a URL.', inputSchema: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } },
  { name: 'browser_snapshot', description: 'Describe the page.', inputSchema: { type: 'object', properties: {} } },
];

function answer(message: Record<string, unknown>, protocolVersion: string): unknown {
  const id = message.id;
  const result = (value: unknown) => ({ jsonrpc: '2.0', id, result: value });
  switch (message.method) {
    case 'initialize':
      return result({ protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'legacy-sse', version: '1.0.0' } });
    case 'ping':
      return result({});
    case 'tools/list':
      return result({ tools: LEGACY_TOOLS });
    case 'tools/call': {
      const params = (message.params ?? {}) as { name?: unknown; arguments?: Record<string, unknown> };
      return result({ content: [{ type: 'text', text: `${String(params.name)} ${JSON.stringify(params.arguments ?? {})}` }] });
    }
    default:
      return { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } };
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, { 'content-type': 'text/plain' });
  response.end(text);
}

export async function startLegacySseServer(options: LegacySseOptions = {}): Promise<LegacySseServer> {
  const requests: LegacyRequest[] = [];
  const streams = new Map<string, ServerResponse>();
  const protocolVersion = options.protocolVersion ?? '2024-11-05';
  let sessions = 0;
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const body = request.method === 'POST' ? await readBody(request) : '';
    let message: Record<string, unknown> | undefined;
    try {
      message = body ? (JSON.parse(body) as Record<string, unknown>) : undefined;
    } catch {
      message = undefined;
    }
    requests.push({ method: request.method ?? '', path: url.pathname, rpcMethod: message?.method as string | undefined, authorization: request.headers.authorization });
    if (options.token && request.headers.authorization !== `Bearer ${options.token}`) return plain(response, 401, 'Unauthorized');

    if (url.pathname === '/sse' && request.method === 'GET') {
      const id = `s${++sessions}`;
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      response.write(`event: endpoint\ndata: /message?sessionId=${id}\n\n`);
      streams.set(id, response);
      request.on('close', () => streams.delete(id));
      return;
    }
    if (url.pathname === '/sse') return plain(response, options.postStatus ?? 400, 'Invalid request: this endpoint only serves an event stream (GET)');
    if (url.pathname === '/message' && request.method === 'POST') {
      const stream = streams.get(url.searchParams.get('sessionId') ?? '');
      if (!stream) return plain(response, 404, 'Session not found');
      if (!message) return plain(response, 400, 'Invalid JSON');
      plain(response, 202, 'Accepted');
      if (message.id !== undefined) stream.write(`event: message\ndata: ${JSON.stringify(answer(message, protocolVersion))}\n\n`);
      return;
    }
    if (url.pathname === '/mcp' && request.method === 'POST') {
      if (!message) return plain(response, 400, 'Invalid JSON');
      if (message.id === undefined) return plain(response, 202, '');
      const text = JSON.stringify(answer(message, protocolVersion));
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(text);
      return;
    }
    if (url.pathname === '/mcp') return plain(response, 405, 'Method not allowed');
    plain(response, 404, 'Not found');
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    sseUrl: `http://127.0.0.1:${port}/sse`,
    mcpUrl: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams.values()) stream.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const argument = (name: string) => {
    const index = process.argv.indexOf(name);
    return index > 0 ? process.argv[index + 1] : undefined;
  };
  const postStatus = argument('--post-status');
  const running = await startLegacySseServer({
    port: Number(argument('--port') ?? 8932),
    postStatus: postStatus ? Number(postStatus) : undefined,
    protocolVersion: argument('--protocol-version'),
    token: argument('--token'),
  });
  process.stdout.write(`legacy SSE server on ${running.sseUrl} (streamable HTTP on ${running.mcpUrl})\n`);
  const stop = () => void running.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
