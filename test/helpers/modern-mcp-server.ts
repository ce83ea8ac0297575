import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { acceptedContent, createMcpHandler, inputRequired, McpServer, type McpHttpHandler } from '@modelcontextprotocol/server';
import { z } from 'zod';

// A server that speaks only the 2026-07-28 revision (`legacy: 'reject'`: an `initialize` is
// refused), built with the official @modelcontextprotocol/server over loopback HTTP. Stateless:
// one server instance per request. Its tools:
//   echo      -> the text back
//   confirm   -> asks a yes/no question as a multi-round-trip answer (`input_required` with an
//                elicitation), then says what was answered
//   shout     -> only listed after `addShout()` (tools/list_changed through subscriptions/listen)
// Every request's method is recorded.

export interface ModernServer {
  url: string;
  methods: string[];
  /** Adds the `shout` tool and tells subscribed clients the tool list changed. */
  addShout(): void;
  close(): Promise<void>;
}

export async function startModernServer(): Promise<ModernServer> {
  let shout = false;
  const methods: string[] = [];
  const factory = () => {
    const server = new McpServer({ name: 'modern-test', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
    server.registerTool('echo', { description: 'Echoes the text', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
    server.registerTool('confirm', { description: 'Asks the user to confirm, then says what was answered', inputSchema: z.object({ question: z.string() }) }, async ({ question }, ctx) => {
      const answer = acceptedContent(ctx.mcpReq.inputResponses, 'confirm', z.object({ ok: z.boolean() }));
      if (answer === undefined) {
        return inputRequired({
          inputRequests: { confirm: inputRequired.elicit({ message: question, requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', title: 'OK?' } }, required: ['ok'] } }) },
        });
      }
      return { content: [{ type: 'text', text: `confirmed: ${answer.ok}` }] };
    });
    if (shout) server.registerTool('shout', { description: 'Upper-cases the text', inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }));
    return server;
  };
  const handler: McpHttpHandler = createMcpHandler(factory, { legacy: 'reject' });

  const http = createServer((request: IncomingMessage, response: ServerResponse) => {
    void serve(handler, request, response, methods).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    methods,
    addShout() {
      shout = true;
      handler.notify.toolsChanged();
    },
    async close() {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

/** node:http -> web Request -> the handler -> node:http, streaming the answer (SSE stays open). */
async function serve(handler: McpHttpHandler, request: IncomingMessage, response: ServerResponse, methods: string[]): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks);
  if (body.length > 0) {
    try {
      const parsed = JSON.parse(body.toString('utf8')) as { method?: unknown };
      if (typeof parsed.method === 'string') methods.push(parsed.method);
    } catch {
      // Not JSON: the handler answers it.
    }
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) if (typeof value === 'string') headers.set(name, value);
  const abort = new AbortController();
  response.on('close', () => abort.abort());
  const answer = await handler.fetch(
    new Request(`http://127.0.0.1${request.url ?? '/'}`, { method: request.method ?? 'GET', headers, signal: abort.signal, ...(body.length > 0 ? { body } : {}) }),
  );
  const answerHeaders: Record<string, string> = {};
  answer.headers.forEach((value, name) => {
    answerHeaders[name] = value;
  });
  response.writeHead(answer.status, answerHeaders);
  if (!answer.body) return void response.end();
  const reader = answer.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      response.write(value);
    }
  } catch {
    // The client went away.
  }
  response.end();
}
