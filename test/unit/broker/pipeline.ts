import { Readable } from 'node:stream';
import { createAccumulator, finalize } from '../../../src/services/broker/accumulator';
import { parseSse } from '../../../src/services/broker/sse';
import { accumulateStream } from '../../../src/services/broker/stream';
import type { BrokerEvent } from '../../../src/services/broker/types';

/** Cuts `bytes` at the given offsets (sorted, deduplicated, within range) into separate reads. */
export function cut(bytes: Uint8Array, offsets: number[]): Uint8Array[] {
  const points = [...new Set(offsets.filter((n) => n > 0 && n < bytes.length))].sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let start = 0;
  for (const point of points) {
    pieces.push(bytes.subarray(start, point));
    start = point;
  }
  pieces.push(bytes.subarray(start));
  return pieces;
}

/** A body that delivers each piece as its own read, as a socket would. */
export function bodyOf(pieces: Uint8Array[]): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream({
    pull(controller) {
      const piece = pieces[next++];
      if (piece === undefined) controller.close();
      else controller.enqueue(piece);
    },
  });
}

/** The two bodies the parser reads: fetch's web stream, and node's socket stream (the chat transport's). */
export const BODY_KINDS = ['web', 'node'] as const;
export type BodyKind = (typeof BODY_KINDS)[number];

/** A node stream that delivers each piece as its own `data` event, as a socket would. */
export function nodeBodyOf(pieces: Uint8Array[]): Readable {
  return Readable.from(pieces);
}

/**
 * The broker's parsing path without HTTP, exactly as streamChat runs it: bytes -> UTF-8 ->
 * eventsource-parser -> accumulator -> finalize.
 */
export async function eventsOf(pieces: Uint8Array[], options: { maxEventChars?: number; body?: BodyKind } = {}): Promise<BrokerEvent[]> {
  const events: BrokerEvent[] = [];
  const body = options.body === 'node' ? nodeBodyOf(pieces) : bodyOf(pieces);
  const run = accumulateStream(parseSse(body, options), createAccumulator({ idPrefix: 'call_test' }));
  for (;;) {
    const step = await run.next();
    if (step.done) {
      events.push(...finalize(step.value.state, step.value.failure === undefined ? 'complete' : 'cut'));
      if (step.value.failure !== undefined) events.push({ type: 'error', kind: 'stream', message: `failure: ${(step.value.failure as Error).message}` });
      return events;
    }
    events.push(step.value);
  }
}

/**
 * Events with neighbouring text deltas (or reasoning deltas) joined: the text of one read is one
 * delta, so how deltas are cut depends on how the bytes arrived; what they say does not.
 */
export function joinText(events: readonly BrokerEvent[]): BrokerEvent[] {
  const joined: BrokerEvent[] = [];
  for (const event of events) {
    const last = joined[joined.length - 1];
    if ((event.type === 'text-delta' || event.type === 'reasoning-delta') && last?.type === event.type) joined[joined.length - 1] = { ...last, text: last.text + event.text };
    else joined.push(event);
  }
  return joined;
}
