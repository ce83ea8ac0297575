import { createServer, type Server } from 'node:http';
import { applyMiddlewares } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitMessageSize, MessageTooLargeError, recordStatus } from '../../../src/services/mcp/fetch-middleware';

// The steps every request to an HTTP server goes through, composed the way connection.ts composes
// them, against a real loopback server.

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url?.startsWith('/mcp')) {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'x'.repeat(4096) }));
    } else {
      response.writeHead(404);
      response.end('not here');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('the HTTP fetch middleware', () => {
  it('records the status of the MCP URL only, and bounds the body it hands on', async () => {
    const statuses: number[] = [];
    const url = new URL(`${base}/mcp`);
    const fetchImpl = applyMiddlewares(recordStatus(url, (status) => statuses.push(status)), limitMessageSize(1024))(fetch);

    const answer = await fetchImpl(`${base}/mcp?session=1`, { method: 'POST', body: '{}' });
    expect(answer.status).toBe(401);
    await expect(answer.text()).rejects.toBeInstanceOf(MessageTooLargeError);
    // OAuth discovery and the like are not the server's answers.
    expect((await fetchImpl(new URL(`${base}/.well-known/oauth-protected-resource`))).status).toBe(404);
    expect(statuses).toEqual([401]);
  });
});
