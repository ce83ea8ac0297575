import type { SseMessage } from './accumulator';
import { DONE, SseDecoder, type SseOptions } from './sse-decoder';
import { nodeSource, type NodeBody } from './sse-node';

// Response body bytes -> SSE messages, from fetch's web stream or straight from node's socket.

export { DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_EVENT_CHARS, ResponseTooLargeError, type SseOptions } from './sse-decoder';
export type { NodeBody } from './sse-node';

/**
 * The parsed messages, read as they arrive, plus what eventsource-parser reports outside them: older
 * llama.cpp servers send a failure during streaming as an `error: {...}` line, a field the SSE spec
 * ignores and the parser reports as an unknown field. Its exact place among the messages cannot be
 * known (the parser reports it while its messages wait to be read), so the reader takes these just
 * before `[DONE]` or at the end of the body, which is where those servers send it anyway.
 */
export interface SseSource {
  /**
   * Every message parsed and not yet read (at least one), waiting for the body when there is none;
   * `done` at the end of the body; rejects with the read's failure.
   */
  read(): Promise<ReadableStreamReadResult<SseMessage[]>>;
  /**
   * While `ms` > 0 the body is read at most once every `ms` (the rest of the time what arrives waits
   * in the socket, and the next read takes it all at once); 0 reads whatever arrives as it arrives,
   * beginning with anything held back. A web stream body is always read as it arrives.
   */
  pace(ms: number): void;
  /** Stops the body (and with it the connection); reads after it are `done`. */
  cancel(reason?: unknown): Promise<void>;
  /**
   * The reader has what it wanted (the answer's `[DONE]`): what is left of the body is read and
   * dropped, so its connection can carry the next request; resolves once the body ended (or was
   * closed, when its end did not come soon). Reads after it are `done`.
   */
  release(): Promise<void>;
  /** The data of `error:` lines seen so far, each returned once, as `event: error` messages. */
  takeFieldErrors(): SseMessage[];
}

export function parseSse(body: ReadableStream<Uint8Array> | NodeBody, options: SseOptions = {}): SseSource {
  const decoder = new SseDecoder(options);
  const source = body instanceof ReadableStream ? webSource(body, decoder) : nodeSource(body, decoder);
  return { ...source, takeFieldErrors: () => decoder.fieldErrors.splice(0).map((data) => ({ event: 'error', data })) };
}

/** Messages from a web stream body (fetch's), read as they are asked for. */
function webSource(body: ReadableStream<Uint8Array>, decoder: SseDecoder): Omit<SseSource, 'takeFieldErrors'> {
  const reader = body.getReader();
  let ended = false;
  // The reader stops at `[DONE]` and cancels while a read of the body may still be pending: the
  // read that returns after it is not parsed.
  let cancelled = false;
  return {
    async read() {
      while (decoder.parsed.length === 0 && !decoder.failure) {
        if (ended || cancelled) return DONE;
        const { value, done } = await reader.read();
        if (cancelled) return DONE;
        if (done) {
          ended = true;
          decoder.end();
        } else {
          decoder.bytes(value);
        }
      }
      if (decoder.failure) {
        decoder.parsed.length = 0;
        if (!ended) reader.cancel(decoder.failure).catch(() => {});
        ended = true;
        throw decoder.failure;
      }
      return { done: false, value: decoder.parsed.splice(0) };
    },
    pace() {},
    async cancel(reason) {
      cancelled = true;
      await reader.cancel(reason);
    },
    async release() {
      cancelled = true;
      await reader.cancel().catch(() => {});
    },
  };
}
