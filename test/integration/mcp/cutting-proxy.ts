import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A loopback reverse proxy in front of a real MCP server, doing what proxies in the field do to
// event streams: it drops the `id:` lines (no resumption), and it can end one call's answer stream
// early, as an idle timeout would. When the server behind it is gone it answers 502.

export interface ProxiedRequest {
  httpMethod: string;
  rpcMethod?: string;
}

export interface CuttingProxy {
  url: string;
  requests: ProxiedRequest[];
  /** JSON-RPC methods of the POSTs seen, in order. */
  rpcMethods(): string[];
  close(): Promise<void>;
}

export interface CuttingProxyOptions {
  /** Ends the answer stream of a request this matches after `cutAfterMs`, cleanly (a proxy timeout). */
  cut?: (rpc: { method?: string; params?: Record<string, unknown> }, httpMethod: string) => boolean;
  cutAfterMs?: number;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Passes an event stream on without its `id:` lines; partial lines wait for their end. */
function withoutEventIds(): (chunk: Buffer | undefined) => string {
  let pending = '';
  return (chunk) => {
    pending += chunk ? chunk.toString('utf8') : '';
    const end = chunk ? pending.lastIndexOf('\n') + 1 : pending.length;
    const complete = pending.slice(0, end);
    pending = pending.slice(end);
    return complete.replace(/^id:[^\n]*\n/gm, '');
  };
}

export async function startCuttingProxy(upstream: string, options: CuttingProxyOptions = {}): Promise<CuttingProxy> {
  const target = new URL(upstream);
  const requests: ProxiedRequest[] = [];
  const server: Server = createServer(async (request: IncomingMessage, response: ServerResponse) => {
    const body = await readBody(request);
    let rpc: { method?: string; params?: Record<string, unknown> } = {};
    try {
      rpc = body.length > 0 ? (JSON.parse(body.toString('utf8')) as typeof rpc) : {};
    } catch {
      // Not JSON: passed on as it is.
    }
    requests.push({ httpMethod: request.method ?? 'GET', ...(typeof rpc.method === 'string' ? { rpcMethod: rpc.method } : {}) });
    const headers = { ...request.headers, host: target.host };
    const upstreamRequest = httpRequest({ hostname: target.hostname, port: target.port, path: request.url, method: request.method, headers }, (upstreamResponse) => {
      response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
      const eventStream = /event-stream/i.test(String(upstreamResponse.headers['content-type'] ?? ''));
      if (!eventStream) {
        upstreamResponse.pipe(response);
        return;
      }
      const strip = withoutEventIds();
      let cut = false;
      upstreamResponse.on('data', (chunk: Buffer) => cut || response.write(strip(chunk)));
      upstreamResponse.on('end', () => cut || response.end(strip(undefined)));
      // The server died mid-stream: the client sees its stream break, as it would without us.
      const broken = () => cut || response.destroy();
      upstreamResponse.on('error', broken);
      upstreamResponse.on('aborted', broken);
      if (options.cut?.(rpc, request.method ?? 'GET')) {
        setTimeout(() => {
          cut = true;
          response.end();
          upstreamResponse.destroy();
        }, options.cutAfterMs ?? 500);
      }
    });
    upstreamRequest.on('error', () => {
      if (!response.headersSent) {
        response.writeHead(502, { 'content-type': 'text/plain' });
        response.end('bad gateway');
      } else {
        response.destroy();
      }
    });
    response.on('close', () => upstreamRequest.destroy());
    upstreamRequest.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${target.pathname}`,
    requests,
    rpcMethods: () => requests.filter((entry) => entry.httpMethod === 'POST' && entry.rpcMethod).map((entry) => entry.rpcMethod!),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
