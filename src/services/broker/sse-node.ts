import type { SseMessage } from './accumulator';
import { DONE, type SseDecoder } from './sse-decoder';

/** A socket's body as node gives it (the chat transport's, see http-post.ts), read in paused mode. */
export interface NodeBody {
  on(event: 'readable', listener: () => void): unknown;
  off(event: 'readable', listener: () => void): unknown;
  once(event: 'end', listener: () => void): unknown;
  once(event: 'error', listener: (error: Error) => void): unknown;
  read(): Uint8Array | string | null;
  resume(): unknown;
  destroy(error?: Error): unknown;
}

/** Parsed messages waiting to be read before the body is left unread (a reader slower than the server). */
const MAX_WAITING_MESSAGES = 64;
/**
 * A read at least this large is the stream outrunning the pace already (an answer at full speed, a
 * cached one): the next read comes at once, so a fast answer is never held back a pace at a time.
 */
const UNPACED_READ_BYTES = 16 * 1024;
/**
 * After `[DONE]`, how long the rest of a body may take to end before its connection is closed
 * instead of kept. The end nearly always comes with the `[DONE]` or right after it.
 */
const RELEASE_GRACE_MS = 100;

type Waiting = { resolve: (result: ReadableStreamReadResult<SseMessage[]>) => void; reject: (error: unknown) => void };

/**
 * Messages from a node body, parsed as its reads arrive. No web stream between the socket and the
 * parser: at one small read per token, each stream stage (and its promises) was a measurable part
 * of a streamed answer's CPU (BENCHMARKS.md "The chat transport").
 *
 * The body is read in paused mode: `read()` hands over everything node holds as one piece. With a
 * pace (SseSource.pace), what arrives between two reads stays in the socket: the transport's
 * sockets keep almost nothing in node's buffers (http-post.ts), so the socket stops being read and
 * the next read takes everything the kernel collected meanwhile, in one wake-up instead of one per
 * token (BENCHMARKS.md, "Reading at the pace of the screen").
 */
export function nodeSource(body: NodeBody, decoder: SseDecoder): {
  read(): Promise<ReadableStreamReadResult<SseMessage[]>>;
  pace(ms: number): void;
  cancel(): Promise<void>;
  release(): Promise<void>;
} {
  let ended = false;
  let broken: unknown;
  let waiting: Waiting | undefined;
  let paceMs = 0;
  /** The next read, held back by the pace. */
  let held: NodeJS.Timeout | undefined;
  /** A paced read that let the socket go on: what it brings arrives in this turn of the event loop. */
  let collecting: NodeJS.Immediate | undefined;

  /** The size of the last read that brought something. */
  let lastRead = 0;
  const failure = () => decoder.failure ?? broken;
  const take = (): ReadableStreamReadResult<SseMessage[]> | undefined => {
    if (decoder.parsed.length > 0) return { done: false, value: decoder.parsed.splice(0) };
    return ended ? DONE : undefined;
  };
  const settle = () => {
    if (!waiting) return;
    const error = failure();
    if (error !== undefined) {
      const { reject } = waiting;
      waiting = undefined;
      decoder.parsed.length = 0;
      reject(error);
      return;
    }
    const result = take();
    if (!result) return;
    const { resolve } = waiting;
    waiting = undefined;
    resolve(result);
  };
  /** Parses what the body holds now (the reader is told by `settle`); returns how many bytes that was. */
  const drain = (): number => {
    let got = 0;
    let chunk: Uint8Array | string | null;
    while (!ended && decoder.parsed.length < MAX_WAITING_MESSAGES && (chunk = body.read()) !== null) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      got += bytes.byteLength;
      decoder.bytes(bytes);
      if (decoder.failure) {
        ended = true;
        body.destroy();
      }
    }
    if (got > 0) lastRead = got;
    return got;
  };
  const stopTimers = () => {
    clearTimeout(held);
    clearImmediate(collecting);
    held = undefined;
    collecting = undefined;
  };
  /** After a read of `bytes`: the next one waits for the pace, unless there is none or the read was large. */
  const hold = (bytes: number) => {
    if (paceMs <= 0 || ended || held || bytes === 0 || bytes >= UNPACED_READ_BYTES) return;
    held = setTimeout(paced, paceMs);
  };
  function paced(): void {
    held = undefined;
    const got = drain();
    // Reading the body let the socket read again: what the kernel kept arrives before the immediate,
    // and the reader gets it all as one read.
    collecting = setImmediate(() => {
      collecting = undefined;
      const bytes = got + drain();
      settle();
      hold(bytes);
    });
  }
  const readable = () => {
    if (held || collecting) return;
    const bytes = drain();
    settle();
    hold(bytes);
  };

  body.on('readable', readable);
  body.once('end', () => {
    if (ended) return;
    ended = true;
    stopTimers();
    decoder.end();
    settle();
  });
  body.once('error', (error) => {
    if (ended) return;
    ended = true;
    stopTimers();
    broken = error;
    settle();
  });

  return {
    read() {
      if (decoder.parsed.length === 0 && !held && !collecting) drain();
      const error = failure();
      if (error !== undefined) {
        decoder.parsed.length = 0;
        return Promise.reject(error);
      }
      const result = take();
      if (result) return Promise.resolve(result);
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
      });
    },
    pace(ms) {
      paceMs = ms;
      // Paced from the read just handed over (the reader decides on the pace once it has seen it).
      if (ms > 0 && !held && !collecting) hold(lastRead);
      if (ms > 0 || !held) return;
      // No pace any more: what was held back is read now.
      clearTimeout(held);
      held = undefined;
      drain();
      settle();
    },
    async cancel() {
      stopTimers();
      if (!ended) body.destroy();
      ended = true;
      decoder.parsed.length = 0;
      waiting?.resolve(DONE);
      waiting = undefined;
    },
    release() {
      stopTimers();
      decoder.parsed.length = 0;
      waiting?.resolve(DONE);
      waiting = undefined;
      if (ended) return Promise.resolve();
      ended = true;
      // The rest is dropped unread and the connection goes back to the pool when the body ends (the
      // next request, sent right after, can take it); one that does not end soon is closed instead.
      return new Promise<void>((resolve) => {
        const closing = setTimeout(() => {
          body.destroy();
          resolve();
        }, RELEASE_GRACE_MS);
        body.once('end', () => {
          clearTimeout(closing);
          resolve();
        });
        body.off('readable', readable);
        body.resume();
      });
    },
  };
}
