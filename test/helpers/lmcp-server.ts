import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

// An MCP server with the quirks of lmcp v0.5.4 (docs/ARCHITECTURE.md, Conversation rules: servers with quirks), the servers aish-tui meets in the
// field: only the synchronous POST flavour of streamable HTTP, `Connection: close` on every answer,
// HTTP 202 with an empty body for notifications, a GET /mcp that sends one `endpoint` event and
// hangs up, a fixed protocolVersion whatever the client offers, `listChanged: false`, no session id,
// Bearer auth answered with a non-JSON-RPC 401 body, -32601 for an unknown tool, and `isError:
// false` on a failed read (the error is only in the text).
//
// Run by hand: npx tsx test/helpers/lmcp-server.ts [--port 8931] [--token secret]

export const LMCP_PROTOCOL_VERSION = '2025-03-26';

export interface LmcpRequestLog {
  httpMethod: string;
  path: string;
  rpcMethod?: string;
  sessionHeader?: string;
  authorization?: string;
  protocolHeader?: string;
}

export interface LmcpServer {
  url: string;
  port: number;
  requests: LmcpRequestLog[];
  /** Number of GET /mcp requests seen. */
  gets(): number;
  close(): Promise<void>;
}

export interface LmcpOptions {
  port?: number;
  host?: string;
  token?: string;
  /** Files `read_file` can read: path -> content. */
  files?: Record<string, string>;
}

const TOOLS = [
  {
    name: 'echo',
    description: 'Echo the given text back.',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
  },
  {
    name: 'read_file',
    description: 'Read a text file.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
  {
    name: 'list_dir',
    description: 'List a directory.',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  },
];

function send(response: ServerResponse, status: number, body?: unknown): void {
  const text = body === undefined ? '' : JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    connection: 'close',
  });
  response.end(text);
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function handleRpc(message: Record<string, unknown>, files: Record<string, string>): unknown {
  const id = message.id;
  const params = (message.params ?? {}) as Record<string, unknown>;
  const result = (value: unknown) => ({ jsonrpc: '2.0', id, result: value });
  const error = (code: number, text: string) => ({ jsonrpc: '2.0', id, error: { code, message: text } });
  switch (message.method) {
    case 'initialize':
      // lmcp answers with its compiled-in version, whatever the client offered.
      return result({
        protocolVersion: LMCP_PROTOCOL_VERSION,
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'lmcp', version: '0.5.4' },
      });
    case 'ping':
      return result({});
    case 'tools/list':
      return result({ tools: TOOLS });
    case 'tools/call': {
      const name = params.name;
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      if (name === 'echo') return result({ content: [{ type: 'text', text: String(args.text) }], isError: false });
      if (name === 'read_file') {
        const path = String(args.path);
        const content = files[path];
        // The baseline finding: a failed read is reported in the text with isError false.
        if (content === undefined) return result({ content: [{ type: 'text', text: `Error: cannot open ${path}: No such file or directory` }], isError: false });
        return result({ content: [{ type: 'text', text: content }], isError: false });
      }
      if (name === 'list_dir') return result({ content: [{ type: 'text', text: Object.keys(files).join('\n') }], isError: false });
      return error(-32601, 'Tool not found');
    }
    default:
      return error(-32601, 'Method not found');
  }
}

export async function startLmcpServer(options: LmcpOptions = {}): Promise<LmcpServer> {
  const requests: LmcpRequestLog[] = [];
  const files = options.files ?? { '/etc/hostname': 'boltzmann\n' };
  const server: Server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const log: LmcpRequestLog = {
      httpMethod: request.method ?? '',
      path: url.pathname,
      sessionHeader: request.headers['mcp-session-id'] as string | undefined,
      authorization: request.headers.authorization,
      protocolHeader: request.headers['mcp-protocol-version'] as string | undefined,
    };
    requests.push(log);
    if (url.pathname !== '/mcp') return send(response, 404, { error: 'not found' });
    if (options.token && request.headers.authorization !== `Bearer ${options.token}`) {
      await readBody(request);
      return send(response, 401, { error: 'unauthorized' });
    }
    if (request.method === 'GET') {
      // One endpoint announcement, then the stream ends: there is no notification channel.
      response.writeHead(200, { 'content-type': 'text/event-stream', connection: 'close' });
      response.end('event: endpoint\ndata: /mcp\n\n');
      return;
    }
    if (request.method !== 'POST') return send(response, 405, { error: 'method not allowed' });
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(await readBody(request)) as Record<string, unknown>;
    } catch {
      return send(response, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    log.rpcMethod = String(message.method);
    if (message.id === undefined) return send(response, 202);
    return send(response, 200, handleRpc(message, files));
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    port,
    requests,
    gets: () => requests.filter((entry) => entry.httpMethod === 'GET' && entry.path === '/mcp').length,
    close: () =>
      new Promise<void>((resolve) => {
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
  const lmcp = await startLmcpServer({ port: Number(argument('--port') ?? 8931), token: argument('--token') });
  process.stdout.write(`lmcp-style server on ${lmcp.url}${argument('--token') ? ' (Bearer auth)' : ''}\n`);
  const stop = () => void lmcp.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
