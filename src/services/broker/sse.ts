import { createParser } from 'eventsource-parser';
import type { SseMessage } from './accumulator';

/**
 * Response body bytes -> SSE messages: a byte count (activity for the idle timer, a size cap),
 * a streaming UTF-8 decoder (a character split across reads is held until complete), then
 * eventsource-parser, which handles CRLF, `data:` without a space, comments and keep-alives.
 */

export interface SseOptions {
  /** Called with the size of every read, before decoding (keep-alive comments count as activity). */
  onBytes?: (bytes: number) => void;
  /** The whole body may not exceed this many bytes. */
  maxBytes?: number;
  /** One event (or line) may not exceed this many characters. */
  maxEventChars?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 256 * 1024 * 1024;
export const DEFAULT_MAX_EVENT_CHARS = 16 * 1024 * 1024;

export class ResponseTooLargeError extends Error {
  constructor(readonly limit: number, what: string) {
    super(`${what} exceeds ${Math.round(limit / (1024 * 1024))} MiB`);
    this.name = 'ResponseTooLargeError';
  }
}

/**
 * The parsed stream, plus what eventsource-parser reports outside it: older llama.cpp servers send
 * a failure during streaming as an `error: {...}` line, a field the SSE spec ignores and the parser
 * reports as an unknown field. Its exact place among the messages cannot be known (the parser
 * reports it synchronously while its messages wait in the stream), so the reader takes these just
 * before `[DONE]` or at the end of the body — which is where those servers send it anyway.
 */
export interface SseSource {
  messages: ReadableStream<SseMessage>;
  /** The data of `error:` lines seen so far, each returned once, as `event: error` messages. */
  takeFieldErrors(): SseMessage[];
}

export function parseSse(body: ReadableStream<Uint8Array>, options: SseOptions = {}): SseSource {
  const fieldErrors: string[] = [];
  const limit = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parsed: SseMessage[] = [];
  let failure: Error | undefined;
  const parser = createParser({
    maxBufferSize: options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS,
    onEvent: (event) => parsed.push(event.event === undefined ? { data: event.data } : { event: event.event, data: event.data }),
    onError(error) {
      if (error.type === 'max-buffer-size-exceeded') failure ??= error;
      else if (error.type === 'unknown-field' && error.field === 'error' && error.value !== undefined) fieldErrors.push(error.value);
    },
  });
  let total = 0;
  // The reader stops at `[DONE]` and cancels while a read of the body may still be pending: when
  // that read returns, the stream is closed already, and closing it again would throw (a thrown
  // error costs a stack trace, on every answer).
  let cancelled = false;
  // One stream stage instead of a chain of TransformStreams (byte count, decoder, parser): each
  // stage costs promise hops per read, which at one small read per token is most of the work.
  const messages = new ReadableStream<SseMessage>({
    async pull(controller) {
      while (parsed.length === 0) {
        const { value, done } = await reader.read();
        if (cancelled) return;
        if (done) {
          // A body that ends without the final blank line still carries its last event; the SSE
          // spec would drop it, a user would not want to. A blank line at the end completes it.
          parser.feed(`${decoder.decode()}\n\n`);
          for (const message of parsed.splice(0)) controller.enqueue(message);
          if (failure) controller.error(failure);
          else controller.close();
          return;
        }
        total += value.byteLength;
        options.onBytes?.(value.byteLength);
        if (total > limit) failure = new ResponseTooLargeError(limit, 'the response');
        else parser.feed(decoder.decode(value, { stream: true }));
        if (failure) {
          reader.cancel(failure).catch(() => {});
          controller.error(failure);
          return;
        }
      }
      for (const message of parsed.splice(0)) controller.enqueue(message);
    },
    cancel(reason) {
      cancelled = true;
      return reader.cancel(reason);
    },
  });
  return {
    messages,
    takeFieldErrors: () => fieldErrors.splice(0).map((data) => ({ event: 'error', data })),
  };
}
