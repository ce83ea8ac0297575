import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { accumulate, createAccumulator, finalize, type AccumulatorState } from '../../../src/services/broker/accumulator';
import { redact } from '../../../src/services/shared/redact';
import { StreamRedactor } from '../../../src/services/broker/redact-stream';
import type { BrokerEvent } from '../../../src/services/broker/types';
import { BODY_KINDS, cut, eventsOf as eventsOfBody, joinText } from './pipeline';

// Property tests of the streaming path (issue 7, point 8). The recorded transcripts
// (transcripts.test.ts) check known bodies under random splits; these generate the bodies:
// - garbage: random bytes and random SSE-looking text never make the path throw, and a stream
//   always ends with exactly one `finish`;
// - valid answers: random text, reasoning (any Unicode, multi-byte characters cut anywhere), tool
//   calls with fragmented arguments, CRLF or LF, comments and `data:` without a space, cut at
//   random byte offsets: nothing is lost, nothing duplicated, and the events are the same however
//   the bytes were cut;
// - the accumulator fed arbitrary JSON chunks never throws and emits well-formed events;
// - the stream redactor hides a secret whatever the cuts, and loses no other character.

const encoder = new TextEncoder();

function expectWellFormed(events: BrokerEvent[]) {
  expect(events.filter((event) => event.type === 'finish')).toHaveLength(1);
  expect(events.at(-1)?.type).toBe('finish');
  for (const event of events) {
    if (event.type === 'text-delta' || event.type === 'reasoning-delta') expect(typeof event.text).toBe('string');
    if (event.type === 'tool-call') {
      expect(typeof event.call.id).toBe('string');
      expect(typeof event.call.name).toBe('string');
      expect(typeof event.call.arguments).toBe('string');
    }
    if (event.type === 'error') {
      expect(typeof event.message).toBe('string');
      // eventsOf reports an exception caught while reading as `failure: …`: none may happen.
      expect(event.message).not.toMatch(/^failure: /);
    }
  }
}

const offsetsFor = (length: number) => fc.array(fc.integer({ min: 1, max: Math.max(1, length - 1) }), { maxLength: 30 });

/** Pieces of text that look like SSE and chunks, to reach deeper than random bytes do. */
const SSE_PIECES = [
  'data: ', 'data:', 'event: error\n', ': ping\n\n', '\n', '\r\n', '\r', '\n\n', '[DONE]', '{', '}', '"choices":', '[{"delta":',
  '{"content":"', '"tool_calls":[{"index":', '0', '1', '"function":{"name":"x","arguments":"', '"}}]}]}', 'null', '"finish_reason":"stop"',
  '"usage":{"prompt_tokens":1}', 'é', '😀', '\u0000', '\ud800', 'error: {"message":"x"}\n', 'retry: 10\n', 'id: 3\n',
];

describe.each(BODY_KINDS)('the SSE path fed garbage, %s body', (kind) => {
  const eventsOf = (pieces: Uint8Array[], options: { maxEventChars?: number } = {}) => eventsOfBody(pieces, { ...options, body: kind });

  it('random bytes in random reads: no exception, exactly one finish at the end', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), fc.array(fc.integer({ min: 1, max: 600 }), { maxLength: 20 }), async (bytes, offsets) => {
        expectWellFormed(await eventsOf(cut(bytes, offsets)));
      }),
      { numRuns: 300 },
    );
  });

  it('random SSE-looking text in random reads: no exception, exactly one finish at the end', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constantFrom(...SSE_PIECES), fc.string({ maxLength: 8 })), { maxLength: 80 }), fc.array(fc.integer({ min: 1, max: 2000 }), { maxLength: 20 }), async (pieces, offsets) => {
        const bytes = encoder.encode(pieces.join(''));
        expectWellFormed(await eventsOf(cut(bytes, offsets)));
      }),
      { numRuns: 300 },
    );
  });

  it('the accumulator takes any JSON chunk without throwing', () => {
    const delta = fc.record(
      {
        content: fc.oneof(fc.string(), fc.constant(null), fc.array(fc.record({ type: fc.constantFrom('text', 'thinking'), text: fc.string() })), fc.anything()),
        reasoning_content: fc.oneof(fc.string(), fc.anything()),
        tool_calls: fc.oneof(
          fc.array(fc.record({ index: fc.oneof(fc.nat(5), fc.anything()), id: fc.oneof(fc.string(), fc.anything()), function: fc.oneof(fc.record({ name: fc.oneof(fc.string(), fc.anything()), arguments: fc.oneof(fc.string(), fc.object(), fc.anything()) }), fc.anything()) }, { requiredKeys: [] })),
          fc.anything(),
        ),
      },
      { requiredKeys: [] },
    );
    const chunk = fc.oneof(
      fc.record({ choices: fc.oneof(fc.array(fc.record({ delta, finish_reason: fc.oneof(fc.constantFrom('stop', 'tool_calls', 'length', 'error'), fc.constant(null), fc.anything()) }, { requiredKeys: [] }), { maxLength: 3 }), fc.anything()), usage: fc.anything(), error: fc.anything(), object: fc.anything() }, { requiredKeys: [] }),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.array(fc.record({ event: fc.option(fc.constantFrom('error', 'message', 'x'), { nil: undefined }), data: chunk.map((value) => JSON.stringify(value) ?? 'null') }), { maxLength: 20 }), (messages) => {
        let state: AccumulatorState = createAccumulator();
        const events: BrokerEvent[] = [];
        for (const message of messages) {
          const step = accumulate(state, message.event === undefined ? { data: message.data } : { event: message.event, data: message.data });
          state = step.state;
          events.push(...step.events);
        }
        events.push(...finalize(state, 'complete'));
        expectWellFormed(events);
      }),
      { numRuns: 500 },
    );
  });
});

interface Answer {
  text: string[];
  reasoning: string[];
  calls: Array<{ name: string; args: string; fragments: number[] }>;
  finish: 'stop' | 'length';
  crlf: boolean;
  noSpace: boolean;
  comments: boolean[];
}

const toolName = fc.stringMatching(/^[a-z][a-z0-9_]{0,20}__[a-z0-9_]{1,20}$/);
const answer: fc.Arbitrary<Answer> = fc.record({
  text: fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), { maxLength: 12 }),
  reasoning: fc.array(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }), { maxLength: 6 }),
  calls: fc.array(fc.record({ name: toolName, args: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify({ value })), fragments: fc.array(fc.integer({ min: 1, max: 40 }), { maxLength: 6 }) }), { maxLength: 3 }),
  finish: fc.constantFrom('stop', 'length'),
  crlf: fc.boolean(),
  noSpace: fc.boolean(),
  comments: fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }),
});

/** The SSE body a server would send for `answer`. */
function bodyOf(answer: Answer): string {
  const end = answer.crlf ? '\r\n' : '\n';
  const data = answer.noSpace ? 'data:' : 'data: ';
  const frames: string[] = [];
  const push = (value: unknown) => {
    if (answer.comments[frames.length % answer.comments.length]) frames.push(`: keep-alive${end}${end}`);
    frames.push(`${data}${JSON.stringify(value)}${end}${end}`);
  };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
  push(chunk({ role: 'assistant', content: '' }));
  for (const piece of answer.reasoning) push(chunk({ reasoning_content: piece }));
  for (const piece of answer.text) push(chunk({ content: piece }));
  answer.calls.forEach((call, index) => {
    push(chunk({ tool_calls: [{ index, id: `id_${index}`, type: 'function', function: { name: call.name, arguments: '' } }] }));
    let at = 0;
    for (const size of [...call.fragments, call.args.length]) {
      if (at >= call.args.length) break;
      push(chunk({ tool_calls: [{ index, function: { arguments: call.args.slice(at, at + size) } }] }));
      at += size;
    }
  });
  push(chunk({}, answer.calls.length > 0 ? 'tool_calls' : answer.finish));
  frames.push(`${data}[DONE]${end}${end}`);
  return frames.join('');
}

describe.each(BODY_KINDS)('the SSE path fed valid answers cut anywhere, %s body', (kind) => {
  const eventsOf = (pieces: Uint8Array[], options: { maxEventChars?: number } = {}) => eventsOfBody(pieces, { ...options, body: kind });

  it('nothing lost, nothing duplicated, the same events however the bytes are cut', async () => {
    await fc.assert(
      fc.asyncProperty(answer, fc.array(fc.nat(), { maxLength: 40 }), async (generated, rawOffsets) => {
        const bytes = encoder.encode(bodyOf(generated));
        const whole = await eventsOf([bytes]);
        const split = await eventsOf(cut(bytes, rawOffsets.map((offset) => offset % bytes.length)));
        expect(joinText(split)).toEqual(joinText(whole));
        expectWellFormed(whole);
        const joined = (type: 'text-delta' | 'reasoning-delta') => whole.flatMap((event) => (event.type === type ? [event.text] : [])).join('');
        expect(joined('text-delta')).toBe(generated.text.join(''));
        expect(joined('reasoning-delta')).toBe(generated.reasoning.join(''));
        const calls = whole.flatMap((event) => (event.type === 'tool-call' ? [event.call] : []));
        expect(calls).toEqual(generated.calls.map((call, index) => ({ id: `id_${index}`, name: call.name, arguments: call.args })));
        expect(whole.at(-1)).toEqual({ type: 'finish', reason: generated.calls.length > 0 ? 'tool_calls' : generated.finish });
        expect(whole.filter((event) => event.type === 'error')).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });

  it('one byte per read gives the same events as one read', async () => {
    await fc.assert(
      fc.asyncProperty(answer, async (generated) => {
        const bytes = encoder.encode(bodyOf(generated));
        const offsets = Array.from({ length: bytes.length }, (_, index) => index);
        expect(joinText(await eventsOf(cut(bytes, offsets)))).toEqual(joinText(await eventsOf([bytes])));
      }),
      { numRuns: 40 },
    );
  });
});

describe('the stream redactor', () => {
  const secretArb = fc.stringMatching(/^[A-Za-z0-9_-]{6,24}$/);
  it('never lets a secret through, whatever the cuts, and keeps every other character', () => {
    fc.assert(
      fc.property(fc.array(secretArb, { minLength: 1, maxLength: 3 }), fc.array(fc.oneof(fc.string({ maxLength: 10 }), fc.constant('SECRET')), { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 10 }), (secrets, parts, offsets) => {
        // The text embeds the secrets (and their halves) among random text.
        const text = parts.map((part, index) => (part === 'SECRET' ? secrets[index % secrets.length]! : part)).join('') + secrets[0]!.slice(0, 3);
        const redactor = new StreamRedactor(secrets);
        const points = [...new Set(offsets.map((offset) => offset % (text.length + 1)))].sort((a, b) => a - b);
        let out = '';
        let start = 0;
        for (const point of [...points, text.length]) {
          out += redactor.push(text.slice(start, point));
          start = point;
        }
        out += redactor.flush();
        expect(out).toBe(redact(text, secrets));
      }),
      { numRuns: 500 },
    );
  });
});
