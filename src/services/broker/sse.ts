import { EventSourceParserStream, type ParseError } from 'eventsource-parser/stream';
import type { SseMessage } from './accumulator';

/**
 * Response body bytes -> SSE messages: a byte monitor (activity for the idle timer, a size cap),
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

function monitor(options: SseOptions): TransformStream<Uint8Array, Uint8Array> {
  const limit = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  let total = 0;
  return new TransformStream({
    transform(chunk, controller) {
      total += chunk.byteLength;
      options.onBytes?.(chunk.byteLength);
      if (total > limit) {
        controller.error(new ResponseTooLargeError(limit, 'the response'));
        return;
      }
      controller.enqueue(chunk);
    },
  });
}

/**
 * A body that ends without the final blank line (or without any line end) still carries its last
 * event; the SSE spec would drop it, a user would not want to. A blank line at the end completes it.
 */
function terminateLastEvent(): TransformStream<string, string> {
  return new TransformStream({
    transform(chunk, controller) {
      controller.enqueue(chunk);
    },
    flush(controller) {
      controller.enqueue('\n\n');
    },
  });
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
  const maxEventChars = options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS;
  const messages = body
    .pipeThrough(monitor(options))
    // The DOM typings want ArrayBuffer-backed chunks; fetch bodies are typed ArrayBufferLike.
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .pipeThrough(terminateLastEvent())
    .pipeThrough(
      new EventSourceParserStream({
        maxBufferSize: maxEventChars,
        onError(error: Error) {
          const parse = error as ParseError;
          if (parse.type === 'unknown-field' && parse.field === 'error' && parse.value !== undefined) fieldErrors.push(parse.value);
        },
      }),
    );
  return {
    messages,
    takeFieldErrors: () => fieldErrors.splice(0).map((data) => ({ event: 'error', data })),
  };
}
