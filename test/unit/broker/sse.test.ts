import { describe, expect, it } from 'vitest';
import type { BrokerEvent } from '../../../src/services/broker/types';
import { BODY_KINDS, cut, eventsOf as eventsOfBody } from './pipeline';

const encode = (text: string) => new TextEncoder().encode(text);
const data = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

function text(events: BrokerEvent[]): string {
  return events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('');
}

describe.each(BODY_KINDS)('SSE decoding, %s body', (kind) => {
  const eventsOf = (pieces: Uint8Array[], options: { maxEventChars?: number } = {}) => eventsOfBody(pieces, { ...options, body: kind });

  it('keeps a character whose UTF-8 bytes are split across reads', async () => {
    const body = encode(data({ content: '🌍' }, 'stop'));
    const emoji = body.indexOf(0xf0);
    for (const offset of [emoji + 1, emoji + 2, emoji + 3]) {
      expect(text(await eventsOf(cut(body, [offset])))).toBe('🌍');
    }
  });

  it('handles a read that ends between \\r and \\n', async () => {
    const body = encode(`data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: 'a' } }] })}\r\n\r\ndata: [DONE]\r\n\r\n`);
    const cr = body.indexOf(0x0d);
    const events = await eventsOf(cut(body, [cr + 1, cr + 3]));
    expect(events).toEqual([
      { type: 'text-delta', text: 'a' },
      { type: 'finish', reason: 'incomplete' },
    ]);
  });

  it('reads several events from one read, their text as one delta', async () => {
    const body = encode(data({ content: 'a' }) + data({ content: 'b' }) + data({ content: 'c' }, 'stop') + 'data: [DONE]\n\n');
    expect(await eventsOf([body])).toEqual([
      { type: 'text-delta', text: 'abc' },
      { type: 'finish', reason: 'stop' },
    ]);
    // Read apart (a web stream hands over one read at a time; node hands over all it holds), each
    // read's text is its own delta.
    if (kind === 'node') return;
    expect(await eventsOf(cut(body, [encode(data({ content: 'a' })).length]))).toEqual([
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: 'bc' },
      { type: 'finish', reason: 'stop' },
    ]);
  });

  it('reads a 200 KB single line, whole and in 1 KB reads', async () => {
    const big = 'x'.repeat(200 * 1024);
    const body = encode(data({ content: big }, 'stop'));
    expect(text(await eventsOf([body]))).toBe(big);
    const offsets = Array.from({ length: Math.ceil(body.length / 1024) }, (_, i) => i * 1024);
    expect(text(await eventsOf(cut(body, offsets)))).toBe(big);
  });

  it('refuses an event larger than the cap instead of buffering without end', async () => {
    // The cap bounds what waits for the end of a line, so the line arrives in small reads.
    const body = encode(data({ content: 'y'.repeat(5000) }, 'stop'));
    const offsets = Array.from({ length: 60 }, (_, i) => i * 100);
    const events = await eventsOf(cut(body, offsets), { maxEventChars: 1000 });
    expect(events.at(-1)).toMatchObject({ type: 'error', message: expect.stringContaining('max buffer size') });
    expect(events.some((event) => event.type === 'finish' && event.reason === 'incomplete')).toBe(true);
  });

  it('delivers a legacy `error:` line after the text that preceded it, before [DONE]', async () => {
    const body = encode(data({ content: 'one' }) + data({ content: ' two' }) + 'error: {"message":"boom"}\n\n' + 'data: [DONE]\n\n');
    expect(await eventsOf([body])).toEqual([
      { type: 'text-delta', text: 'one two' },
      { type: 'error', kind: 'stream', message: 'the server reported an error during the answer: boom' },
      { type: 'finish', reason: 'error' },
    ]);
  });

  it('a legacy `error:` line at the very end of the body (no [DONE]) is still reported', async () => {
    const body = encode(data({ content: 'x' }) + 'error: {"error":{"message":"died"}}\n\n');
    const events = await eventsOf([body]);
    expect(events.slice(-2)).toEqual([
      { type: 'error', kind: 'stream', message: 'the server reported an error during the answer: died' },
      { type: 'finish', reason: 'error' },
    ]);
  });

  it('skips a UTF-8 byte order mark at the start of the body', async () => {
    const body = new Uint8Array([0xef, 0xbb, 0xbf, ...encode(data({ content: 'bom' }, 'stop'))]);
    expect(text(await eventsOf([body]))).toBe('bom');
  });
});
