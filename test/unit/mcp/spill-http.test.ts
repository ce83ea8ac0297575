import { getEventListeners } from 'node:events';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { spillingBody } from '../../../src/services/mcp/spill-http';
import { pendingRestCount, resolveSpilledText, spilledPieces } from '../../../src/services/shared/spilled-text';

// An HTTP server's answer body passes through the spilling scanner (src/services/mcp/spill-http.ts):
// read back, an event stream or a JSON body must say exactly what the server sent, however it is
// cut into chunks, with lines ending in LF or CRLF.

const text = fc.array(fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('"', '\\', '\n', 'é', '😀', '\ud83d')), { maxLength: 30 }).map((parts) => parts.join(''));
const wellFormed = (value: string) => value.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

function bodyOf(bytes: Buffer, sizes: number[]): ReadableStream<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for (let start = 0, index = 0; start < bytes.length; index++) {
    const end = Math.min(bytes.length, start + sizes[index % sizes.length]!);
    chunks.push(new Uint8Array(bytes.subarray(start, end)));
    start = end;
  }
  return new ReadableStream({
    pull(controller) {
      const next = chunks.shift();
      if (next) controller.enqueue(next);
      else controller.close();
    },
  });
}

const resultMessage = (id: number, texts: string[]) => ({ jsonrpc: '2.0', id, result: { content: texts.map((value) => ({ type: 'text', text: value })) } });

/** The texts of a message's content blocks, rests read back. */
function textsOf(message: { result?: { content?: Array<{ text?: string }> } }): { texts: string[]; spilled: number } {
  const blocks = message.result?.content ?? [];
  const spilled = blocks.filter((block) => spilledPieces(block.text ?? '').length > 1).length;
  return { texts: blocks.map((block) => wellFormed(resolveSpilledText(block.text ?? ''))), spilled };
}

describe('an HTTP answer read through the spilling scanner', () => {
  it('an event stream says exactly what was sent, spilled or not, however it is cut', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(text, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 40 }), fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 4 }), fc.boolean(), async (messages, threshold, sizes, crlf) => {
        const before = pendingRestCount();
        const eol = crlf ? '\r\n' : '\n';
        const stream = messages.map((texts, index) => `: keep-alive${eol}event: message${eol}id: ${index}${eol}data: ${JSON.stringify(resultMessage(index, texts))}${eol}${eol}`).join('');
        const read = await new Response(spillingBody(bodyOf(Buffer.from(stream), sizes), threshold, true)).text();
        // Everything but the data lines passes as sent.
        expect(read.split(/\r?\n/).filter((line) => !line.startsWith('data: '))).toEqual(stream.split(/\r?\n/).filter((line) => !line.startsWith('data: ')));
        const data = read.split(/\r?\n/).filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)));
        expect(data).toHaveLength(messages.length);
        let spilled = 0;
        for (const [index, message] of data.entries()) {
          const got = textsOf(message);
          spilled += got.spilled;
          expect(got.texts).toEqual(messages[index]!.map(wellFormed));
        }
        // Every text that goes on past the head (and a surrogate pair's escapes) was spilled. A text
        // is cut only where a character is whole, and after a high surrogate's escape only once the
        // next character shows it was not half of a pair: a run of lone high halves at a text's
        // end leaves no such place, so that run does not count.
        const cuttable = (value: string) => value.replace(/[\ud800-\udbff]+$/, '');
        expect(spilled).toBeGreaterThanOrEqual(messages.flat().filter((value) => Buffer.byteLength(JSON.stringify(cuttable(value))) - 2 >= threshold + 12).length);
        expect(pendingRestCount()).toBe(before);
      }),
      { numRuns: 200 },
    );
  });

  it('a JSON body (even pretty-printed over lines) spills its long text and says the rest exactly', async () => {
    const long = `${'line of the result "quoted" é 😀\n'.repeat(3000)}END`;
    const body = JSON.stringify(resultMessage(7, ['short', long]), null, 2);
    const read = JSON.parse(await new Response(spillingBody(bodyOf(Buffer.from(body), [1000, 3]), 5000, false)).text());
    const got = textsOf(read);
    expect(got.spilled).toBe(1);
    expect(got.texts).toEqual(['short', long]);
  });

  it('a request aborted in the middle of a long text gives up the rest being written', async () => {
    const before = pendingRestCount();
    const start = Buffer.from(`{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"${'w'.repeat(20_000)}`);
    // The server stops sending in the middle of the text; the call is then cancelled.
    const stalled = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new Uint8Array(start)) });
    const controller = new AbortController();
    const reader = spillingBody(stalled, 1000, false, controller.signal).getReader();
    const first = reader.read();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pendingRestCount()).toBe(before + 1);
    controller.abort();
    expect(pendingRestCount()).toBe(before);
    await reader.cancel();
    await first.catch(() => undefined);
  });

  it('leaves no listener on a signal shared by many requests (the transport\'s), long texts or not', async () => {
    const shared = new AbortController();
    const long = JSON.stringify(resultMessage(2, ['x'.repeat(5000)]));
    for (let request = 0; request < 12; request++) {
      const body = request % 2 === 0 ? JSON.stringify(resultMessage(request, ['small'])) : long;
      const read = JSON.parse(await new Response(spillingBody(bodyOf(Buffer.from(body), [700]), 1000, false, shared.signal)).text());
      expect(textsOf(read).texts).toEqual(JSON.parse(body).result.content.map((block: { text: string }) => block.text));
    }
    expect(getEventListeners(shared.signal, 'abort')).toHaveLength(0);
  });

  it('a small body passes through as it is', async () => {
    const body = JSON.stringify(resultMessage(1, ['a', 'b']));
    expect(await new Response(spillingBody(bodyOf(Buffer.from(body), [5]), 5000, false)).text()).toBe(body);
  });
});
