import { ReadBuffer } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { LineReadBuffer } from '../../../src/services/mcp/line-buffer';
import { cut, readAll } from '../../helpers/chunked-reading';

// The stdio transport's read buffer must read exactly what the SDK's ReadBuffer reads, however
// the bytes are cut into chunks (src/services/mcp/line-buffer.ts).

const STREAM = Buffer.from(
  [
    JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: `grüße 😀 ${'long line '.repeat(500)}` }] } }),
    'a log line that is not JSON',
    `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'über' } })}\r`,
    '',
    JSON.stringify({ jsonrpc: '2.0', id: 2, result: {} }),
    '',
  ].join('\n'),
  'utf8',
);

describe('the stdio read buffer', () => {
  it('reads the same messages as the SDK buffer, however the bytes are cut (also inside a character)', () => {
    const expected = readAll(new ReadBuffer(), [STREAM]);
    expect(expected).toHaveLength(3);
    for (const sizes of [[STREAM.length], [1], [7, 1, 64], [3], [1000, 2]]) {
      expect(readAll(new LineReadBuffer(1024 * 1024), cut(STREAM, sizes))).toEqual(expected);
      expect(readAll(new ReadBuffer(), cut(STREAM, sizes))).toEqual(expected);
    }
  });

  it('reads a line of hundreds of kilobytes arriving in small chunks as the SDK buffer does', () => {
    const long = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'grüße 😀 '.repeat(30_000) }] } })}\n`, 'utf8');
    const expected = readAll(new ReadBuffer({ maxBufferSize: 1024 * 1024 }), [long]);
    expect(expected).toHaveLength(1);
    for (const sizes of [[1000], [65_536], [4093, 7]]) expect(readAll(new LineReadBuffer(1024 * 1024), cut(long, sizes))).toEqual(expected);
  });

  it('stops at a line longer than the limit with the SDK buffer\'s error, and reads on after clear()', () => {
    const reader = new LineReadBuffer(100);
    expect(() => readAll(reader, [Buffer.from('x'.repeat(60)), Buffer.from('y'.repeat(60))])).toThrow(/ReadBuffer exceeded maximum size of 100 bytes/);
    reader.clear();
    expect(readAll(reader, [Buffer.from('{"jsonrpc":"2.0","id":5,"result":{}}\n')])).toEqual([{ jsonrpc: '2.0', id: 5, result: {} }]);
    // A whole line in one chunk counts too.
    expect(() => readAll(new LineReadBuffer(10), [Buffer.from(`${'z'.repeat(20)}\n`)])).toThrow(/ReadBuffer exceeded/);
  });
});
