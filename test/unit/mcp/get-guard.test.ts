import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { guardGetStream } from '../../../src/services/mcp/fetch-middleware';

// The notification stream of a server that hangs up at once (lmcp) is not re-opened; one that
// stayed open a while is.

const url = new URL('http://127.0.0.1:1/mcp');

function streamFor(lifeMs: number): ReadableStream<Uint8Array> {
  return new ReadableStream({
    async start(controller) {
      controller.enqueue(new TextEncoder().encode('event: endpoint\ndata: /mcp\n\n'));
      await sleep(lifeMs);
      controller.close();
    },
  });
}

async function drain(response: Response): Promise<void> {
  await response.text();
}

describe('guardGetStream', () => {
  it('answers 405 for a second GET after a stream that closed at once', async () => {
    let calls = 0;
    const guarded = guardGetStream(url, 200)(async () => (calls++, new Response(streamFor(0), { status: 200 })));
    await drain(await guarded(url.href, { method: 'GET' }));
    const second = await guarded(url.href, { method: 'GET' });
    expect(second.status).toBe(405);
    expect(calls).toBe(1);
  });

  it('re-opens a stream that stayed open long enough', async () => {
    let calls = 0;
    const guarded = guardGetStream(url, 200)(async () => (calls++, new Response(streamFor(300), { status: 200 })));
    await drain(await guarded(url.href, { method: 'GET' }));
    expect((await guarded(url.href, { method: 'GET' })).status).toBe(200);
    expect(calls).toBe(2);
  });

  it('leaves POSTs, resumptions and other URLs alone', async () => {
    let calls = 0;
    const guarded = guardGetStream(url, 200)(async () => (calls++, new Response('{}', { status: 200 })));
    await drain(await guarded(url.href, { method: 'GET' }));
    expect((await guarded(url.href, { method: 'POST' })).status).toBe(200);
    expect((await guarded(url.href, { method: 'GET', headers: { 'last-event-id': '7' } })).status).toBe(200);
    expect((await guarded('http://127.0.0.1:1/.well-known/oauth-protected-resource', { method: 'GET' })).status).toBe(200);
    expect(calls).toBe(4);
  });
});
