import { ReadBuffer } from '@modelcontextprotocol/client';
import fc from 'fast-check';
import { existsSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { LineReadBuffer } from '../../../src/services/mcp/line-buffer';
import { cut, readAll } from '../../helpers/chunked-reading';
import { pendingRestCount, resolveSpilledText, spilledPieces, spilledTextSize, UNCLAIMED_REST_MS } from '../../../src/services/shared/spilled-text';

// A tool result's long text is read into a file past its head (src/services/mcp/result-text-scanner.ts,
// src/services/shared/spilled-text.ts): read back, every message must be exactly what the SDK's own
// buffer reads, however the bytes are cut, whatever the text holds.

const asciiJson = (value: unknown) => JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Lines as the cut notice counts them: a line end as the last character starts no line. */
function linesOf(text: string): number {
  let lines = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < text.length - 1; at = text.indexOf('\n', at + 1)) lines++;
  return lines;
}

/** Every string in `value` mapped by `change`. */
function mapStrings(value: unknown, change: (text: string) => string): unknown {
  if (typeof value === 'string') return change(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, change));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, change)]));
  return value;
}

/**
 * A lone surrogate is not text: a rest in its file (UTF-8) holds U+FFFD for it, as the side file
 * always did. Both sides are compared with that one difference taken out.
 */
const wellFormed = (text: string) => text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
const resolved = (value: unknown) => mapStrings(value, (text) => wellFormed(resolveSpilledText(text)));

/** How many strings in `value` stand for a rest in a file. */
function spilledStrings(value: unknown): number {
  if (typeof value === 'string') return spilledPieces(value).length > 1 ? 1 : 0;
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + spilledStrings(item), 0);
  if (value && typeof value === 'object') return Object.values(value).reduce((sum: number, item) => sum + spilledStrings(item), 0);
  return 0;
}

// Text with what makes the escaped form differ from the text: quotes, backslashes, control
// characters, multi-byte characters, surrogate pairs and lone surrogates.
const awkward = fc.array(fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('"', '\\', '\n', '\t', '\u0001', 'é', '😀', '\ud83d', '\ude00', '\u2028', '/'), fc.string()), { maxLength: 40 }).map((parts) => parts.join(''));

const resultMessage = fc.record({
  id: fc.integer({ min: 1, max: 1000 }),
  texts: fc.array(awkward, { minLength: 1, maxLength: 3 }),
  other: awkward,
});

function messageOf({ id, texts, other }: { id: number; texts: string[]; other: string }): object {
  return {
    jsonrpc: '2.0',
    id,
    result: {
      content: [...texts.map((text) => ({ type: 'text', text })), { type: 'resource', resource: { uri: 'file:///x', text: other } }],
      // Long strings elsewhere stay in the message.
      structuredContent: { text: other, content: [{ text: other }] },
      _meta: { note: other },
    },
  };
}

describe('a tool result text read into a file past its head', () => {
  it('reads back exactly what the SDK buffer reads, however the bytes are cut, and spills only result.content[i].text', () => {
    fc.assert(
      fc.property(fc.array(resultMessage, { minLength: 1, maxLength: 3 }), fc.integer({ min: 1, max: 40 }), fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 4 }), fc.boolean(), (messages, headBytes, sizes, ascii) => {
        const before = pendingRestCount();
        const notification = { jsonrpc: '2.0', method: 'notifications/message', params: { content: [{ text: 'x'.repeat(100) }] } };
        // Some servers (Python's json.dumps by default) escape every non-ASCII character, surrogate pairs as two escapes.
        const serialize = (message: object) => (ascii ? asciiJson(message) : JSON.stringify(message));
        const bytes = Buffer.from(`${[...messages.map(messageOf), notification].map(serialize).join('\n')}\n`, 'utf8');
        const expected = readAll(new ReadBuffer(), [bytes]);
        const read = readAll(new LineReadBuffer(1024 * 1024, headBytes), cut(bytes, sizes));
        // Only content blocks' texts whose form as sent reaches the head spill, and all that go on
        // past it (a cut waits for a whole character or escape, at most 12 bytes for a surrogate pair).
        const sentBytes = messages.flatMap((message) => message.texts).map((text) => Buffer.byteLength(serialize([text])) - 4);
        expect(spilledStrings(read)).toBeLessThanOrEqual(sentBytes.filter((bytes) => bytes >= headBytes).length);
        // After a high surrogate's escape the cut waits for the next character to show it was not
        // half of a pair: a run of lone high halves at a text's end leaves no place to cut.
        const cuttableBytes = messages.flatMap((message) => message.texts).map((text) => Buffer.byteLength(serialize([text.replace(/[\ud800-\udbff]+$/, '')])) - 4);
        expect(spilledStrings(read)).toBeGreaterThanOrEqual(cuttableBytes.filter((bytes) => bytes >= headBytes + 12).length);
        // A spilled text is measured whole without reading its rest back.
        const blocks = (list: unknown[]) => list.flatMap((message) => (message as { result?: { content: Array<{ text?: string }> } }).result?.content ?? []);
        const sent = blocks(expected);
        for (const [index, block] of blocks(read).entries()) {
          if (typeof block.text !== 'string' || spilledPieces(block.text).length === 1) continue;
          const whole = sent[index]!.text!;
          expect(spilledTextSize(block.text)).toEqual({ bytes: Buffer.byteLength(whole), chars: whole.length, lines: linesOf(whole) });
        }
        expect(resolved(read)).toEqual(mapStrings(expected, wellFormed));
        expect(pendingRestCount()).toBe(before);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps the head in the message and the rest in a 0600 file that is removed once read', () => {
    const text = `${'head '.repeat(20)}${'rest "of" it\\ 😀\n'.repeat(2000)}`;
    const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 9, result: { content: [{ type: 'text', text }] } })}\n`);
    const [message] = readAll(new LineReadBuffer(1024 * 1024, 100), cut(line, [4096])) as Array<{ result: { content: Array<{ text: string }> } }>;
    const kept = message!.result.content[0]!.text;
    const pieces = spilledPieces(kept);
    expect(pieces).toHaveLength(3);
    expect(text.startsWith(pieces[0] as string)).toBe(true);
    expect((pieces[0] as string).length).toBeGreaterThanOrEqual(100);
    expect((pieces[0] as string).length).toBeLessThan(120);
    const rest = pieces[1] as { file: string; bytes: number };
    expect(existsSync(rest.file)).toBe(true);
    expect(rest.bytes).toBe(Buffer.byteLength(text.slice((pieces[0] as string).length)));
    expect(spilledTextSize(kept)).toEqual({ bytes: Buffer.byteLength(text), chars: text.length, lines: 2000 });
    expect(resolveSpilledText(kept)).toBe(text);
    expect(existsSync(rest.file)).toBe(false);
  });

  it('skips a line that is not JSON as before, and gives up the rest it had spilled', () => {
    const before = pendingRestCount();
    const good = JSON.stringify({ jsonrpc: '2.0', id: 2, result: {} });
    // A raw control character in the rest, and a line cut off inside the text: neither is JSON.
    const broken = [
      `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${'a'.repeat(300)}\u0001${'b'.repeat(300)}"}]}}`,
      `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"${'c'.repeat(300)}`,
      `{"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"${'d'.repeat(300)}\\x${'e'.repeat(300)}"}]}}`,
    ];
    const bytes = Buffer.from(`${broken.join('\n')}\n${good}\n`);
    expect(readAll(new ReadBuffer(), [bytes])).toEqual([JSON.parse(good)]);
    for (const sizes of [[bytes.length], [1], [64, 3]]) {
      expect(readAll(new LineReadBuffer(1024 * 1024, 50), cut(bytes, sizes))).toEqual([JSON.parse(good)]);
      expect(pendingRestCount()).toBe(before);
    }
  });

  it('leaves marker-like text from a server as text: only this process knows a rest\'s token', () => {
    const forged = `before\u0000aish-rest:${'0'.repeat(24)}\u0000after`;
    const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: forged }] } })}\n`);
    const [message] = readAll(new LineReadBuffer(1024 * 1024, 1000), [line]) as Array<{ result: { content: Array<{ text: string }> } }>;
    const text = message!.result.content[0]!.text;
    expect(spilledPieces(text)).toEqual([forged]);
    expect(resolveSpilledText(text)).toBe(forged);
  });

  it('removes a rest nobody takes (the answer to a cancelled call) after a while', () => {
    vi.useFakeTimers();
    try {
      const before = pendingRestCount();
      const line = Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: 'z'.repeat(5000) }] } })}\n`);
      const [message] = readAll(new LineReadBuffer(1024 * 1024, 100), [line]) as Array<{ result: { content: Array<{ text: string }> } }>;
      const rest = spilledPieces(message!.result.content[0]!.text)[1] as { file: string };
      expect(pendingRestCount()).toBe(before + 1);
      vi.advanceTimersByTime(UNCLAIMED_REST_MS - 1);
      expect(existsSync(rest.file)).toBe(true);
      vi.advanceTimersByTime(1);
      expect(existsSync(rest.file)).toBe(false);
      expect(pendingRestCount()).toBe(before);
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts spilled bytes against the line limit like kept ones', () => {
    const reader = new LineReadBuffer(1000, 10);
    const line = Buffer.from(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${'x'.repeat(2000)}"}]}}\n`);
    expect(() => readAll(reader, cut(line, [100]))).toThrow(/ReadBuffer exceeded maximum size of 1000 bytes/);
  });
});
