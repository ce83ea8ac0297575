import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

// A streamable-HTTP MCP server on loopback, written against the raw wire (plain JSON answers, no
// sessions), whose one tool `huge` answers with a text result of `bytes` bytes (default 50 MB):
// for checking that such a result is kept bounded in memory and in the session log.
//
// Standalone, for measuring by hand: node --import tsx test/helpers/huge-result-mcp-server.ts [--port N] [--bytes N]

export interface HugeResultServer {
  url: string;
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** `bytes` of short numbered lines, ending in a marker line so a test can see the end. */
export function hugeText(bytes: number): string {
  const line = 'the quick brown fox jumps over the lazy dog 0123456789\n';
  return `${line.repeat(Math.max(0, Math.floor((bytes - 20) / line.length)))}END OF HUGE RESULT\n`;
}

/**
 * `events`: answers as an event stream (one `message` event, written in pieces) instead of a JSON
 * body; `text`: the result's text instead of hugeText(bytes).
 */
export async function startHugeResultServer(options: { port?: number; bytes?: number; events?: boolean; text?: string } = {}): Promise<HugeResultServer> {
  const text = options.text ?? hugeText(options.bytes ?? 50 * 1024 * 1024);
  const server = createServer(async (request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405).end();
      return;
    }
    const message = JSON.parse(await readBody(request)) as { id?: string | number; method: string; params?: Record<string, unknown> };
    if (message.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    const reply = (result: unknown) => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
      if (!options.events) {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(': a comment line first\n\nevent: message\nid: 1\ndata: ');
      // In pieces of uneven size, as a server flushing as it goes would send it.
      for (let at = 0, size = 1; at < body.length; at += size, size = (size * 7 + 13) % 99_991) response.write(body.slice(at, at + size));
      response.end('\n\n');
    };
    switch (message.method) {
      case 'initialize':
        return reply({ protocolVersion: message.params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'huge-result', version: '1.0.0' } });
      case 'tools/list':
        return reply({ tools: [{ name: 'huge', description: 'answers with a very large text', inputSchema: { type: 'object', properties: {} } }] });
      case 'tools/call':
        return reply({ content: [{ type: 'text', text }] });
      case 'ping':
        return reply({});
      default: {
        const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'method not found' } });
        response.writeHead(200, { 'content-type': 'application/json' }).end(body);
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const arg = (name: string) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? Number(process.argv[at + 1]) : undefined;
  };
  const started = await startHugeResultServer({ port: arg('--port'), bytes: arg('--bytes') });
  console.log(started.url);
}
