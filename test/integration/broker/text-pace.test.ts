import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { collect, finishOf, hello, modelAt, textOf } from './collect';
import { listenCounted } from './counted-server';

// The chat transport reading an answer's text at the screen's pace (BrokerRequest.textPaceMs):
// fewer, fuller reads of the same text over a real socket, and the connection kept or closed
// correctly when the reader stops at [DONE] before the body's end.

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function serve(handle: (response: http.ServerResponse) => void): Promise<{ url: string; connections: () => number; closed: () => number }> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.flushHeaders();
      handle(response);
    });
  });
  servers.push(server);
  return listenCounted(server);
}

const sse = (value: unknown) => `data: ${typeof value === 'string' ? value : JSON.stringify(value)}\n\n`;
const word = (index: number) => sse({ choices: [{ index: 0, delta: { content: `w${index} ` } }] });
const FINISH = sse({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
const WORDS = 60;
const EXPECTED = Array.from({ length: WORDS }, (_, index) => `w${index} `).join('');

/** One word every 10 ms (a model at 100 tokens/s), each its own write; then the finish and [DONE]. */
function trickle(response: http.ServerResponse): void {
  let index = 0;
  const timer = setInterval(() => {
    if (response.destroyed) return clearInterval(timer);
    if (index < WORDS) {
      response.write(word(index++));
      return;
    }
    clearInterval(timer);
    response.end(FINISH + sse('[DONE]'));
  }, 10);
}

describe('reading text at the pace of the screen', () => {
  it('takes the words that arrived meanwhile in one read: the same text in a few deltas', async () => {
    const server = await serve(trickle);
    const asArrived = await collect({ model: modelAt(server.url), messages: hello });
    const started = Date.now();
    const paced = await collect({ model: modelAt(server.url), messages: hello, textPaceMs: 150 });
    const elapsed = Date.now() - started;
    expect(textOf(asArrived)).toBe(EXPECTED);
    expect(textOf(paced)).toBe(EXPECTED);
    expect(finishOf(paced)).toBe('stop');
    const deltas = (events: typeof paced) => events.filter((event) => event.type === 'text-delta').length;
    // 600 ms of words (longer on a busy machine): read as they come they are dozens of deltas; read
    // at most once per 150 ms, one per 150 ms of the answer, and the first read before any pace.
    expect(deltas(asArrived)).toBeGreaterThanOrEqual(20);
    expect(deltas(paced)).toBeLessThanOrEqual(Math.ceil(elapsed / 150) + 1);
    expect(deltas(paced)).toBeLessThan(deltas(asArrived) / 2);
    // Both answers went over the one kept-alive connection.
    expect(server.connections()).toBe(1);
  });

  it('keeps the connection when the body ends a moment after [DONE]', async () => {
    const server = await serve((response) => {
      response.write(word(0) + FINISH + sse('[DONE]'));
      setTimeout(() => response.end(), 30);
    });
    for (let turn = 0; turn < 3; turn++) expect(textOf(await collect({ model: modelAt(server.url), messages: hello, textPaceMs: 33 }))).toBe('w0 ');
    expect(server.connections()).toBe(1);
  });

  it('closes a connection whose body goes on after [DONE], without waiting for it', async () => {
    const server = await serve((response) => {
      response.write(word(0) + FINISH + sse('[DONE]'));
      // Keep-alive comments after the end of the answer, and no end of the body.
      const timer = setInterval(() => (response.destroyed ? clearInterval(timer) : response.write(': ping\n\n')), 20);
    });
    const started = Date.now();
    const events = await collect({ model: modelAt(server.url), messages: hello, textPaceMs: 33 });
    expect(textOf(events)).toBe('w0 ');
    expect(finishOf(events)).toBe('stop');
    // The turn ends within the short grace for the body's end, not whenever the server stops.
    expect(Date.now() - started).toBeLessThan(5_000);
    for (let wait = 0; wait < 100 && server.closed() === 0; wait++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(server.closed()).toBe(1);
  });

  it('an answer stopped while the rest of its body waits unread (held by the pace) ends as cancelled, and the next one is answered', async () => {
    const server = await serve((response) => {
      response.write(word(0));
      setTimeout(() => response.end(word(1) + FINISH + sse('[DONE]')), 30);
    });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 300);
    // The first word is read, then nothing for a second: the rest arrives and waits, all of it, unread.
    const events = await collect({ model: modelAt(server.url), messages: hello, textPaceMs: 1000, signal: stop.signal });
    expect(textOf(events)).toBe('w0 ');
    expect(finishOf(events)).toBe('cancelled');
    const next = await collect({ model: modelAt(server.url), messages: hello });
    expect(textOf(next)).toBe('w0 w1 ');
  });
});
