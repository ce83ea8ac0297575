import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A streamable-HTTP MCP server with sessions (Mcp-Session-Id), written against the raw wire so
// that a test can see what the client sends when a call is cancelled and when it goes away: every
// notification it receives and every DELETE of a session. Its `wait` tool answers only when the
// client cancels it (never, otherwise), like a long-running operation.

export interface ReceivedNotification {
  method: string;
  params: Record<string, unknown>;
  sessionId: string | undefined;
}

export interface SessionHttpMcpServer {
  url: string;
  /** Session ids handed out, in order. */
  sessions: string[];
  notifications: ReceivedNotification[];
  /** The Mcp-Session-Id of every DELETE received. */
  deleted: Array<string | undefined>;
  /** JSON-RPC ids of the `wait` calls now running. */
  waiting: Array<string | number>;
  /** Everything in the order it arrived, e.g. `notifications/cancelled`, `DELETE`. */
  log: string[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

export async function startSessionHttpMcpServer(): Promise<SessionHttpMcpServer> {
  const sessions: string[] = [];
  const notifications: ReceivedNotification[] = [];
  const deleted: Array<string | undefined> = [];
  const waiting: Array<string | number> = [];
  const log: string[] = [];
  const open = new Set<ServerResponse>();

  const server = createServer(async (request, response) => {
    const sessionId = request.headers['mcp-session-id'] as string | undefined;
    if (request.method === 'DELETE') {
      log.push('DELETE');
      deleted.push(sessionId);
      response.writeHead(200).end();
      return;
    }
    if (request.method === 'GET') return sendJson(response, 405, { error: 'no notification stream' });
    if (request.method !== 'POST') return sendJson(response, 405, { error: 'method not allowed' });
    const message = JSON.parse(await readBody(request)) as { id?: string | number; method: string; params?: Record<string, unknown> };
    log.push(message.method);
    if (message.method !== 'initialize' && (!sessionId || !sessions.includes(sessionId))) return sendJson(response, 404, { error: 'unknown session' });
    if (message.id === undefined) {
      notifications.push({ method: message.method, params: message.params ?? {}, sessionId });
      response.writeHead(202).end();
      return;
    }
    const reply = (result: unknown, headers: Record<string, string> = {}) => sendJson(response, 200, { jsonrpc: '2.0', id: message.id, result }, headers);
    if (message.method === 'initialize') {
      const id = randomUUID();
      sessions.push(id);
      return reply(
        { protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'session-http', version: '1.0.0' } },
        { 'mcp-session-id': id },
      );
    }
    if (message.method === 'tools/list') return reply({ tools: [{ name: 'wait', description: 'Answers only when cancelled.', inputSchema: { type: 'object' } }] });
    if (message.method === 'ping') return reply({});
    if (message.method === 'tools/call') {
      // The answer never comes: the request stays open until the client gives up on it.
      waiting.push(message.id);
      open.add(response);
      response.on('close', () => open.delete(response));
      return;
    }
    sendJson(response, 200, { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Method not found' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sessions,
    notifications,
    deleted,
    waiting,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of open) response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
