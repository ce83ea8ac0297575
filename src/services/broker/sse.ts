import { createParser } from 'eventsource-parser';
import type { SseMessage } from './accumulator';

// Response body bytes -> SSE messages, from fetch's web stream or straight from node's socket.

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
 * The parsed messages, read one at a time, plus what eventsource-parser reports outside them: older
 * llama.cpp servers send a failure during streaming as an `error: {...}` line, a field the SSE spec
 * ignores and the parser reports as an unknown field. Its exact place among the messages cannot be
 * known (the parser reports it while its messages wait to be read), so the reader takes these just
 * before `[DONE]` or at the end of the body, which is where those servers send it anyway.
 */
export interface SseSource {
  /** The next message; `done` at the end of the body; rejects with the read's failure. */
  read(): Promise<ReadableStreamReadResult<SseMessage>>;
  /** Stops the body (and with it the connection); reads after it are `done`. */
  cancel(reason?: unknown): Promise<void>;
  /** The data of `error:` lines seen so far, each returned once, as `event: error` messages. */
  takeFieldErrors(): SseMessage[];
}

/** A socket's body as node gives it (the chat transport's, see http-post.ts). */
export interface NodeBody {
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  once(event: 'end', listener: () => void): unknown;
  once(event: 'error', listener: (error: Error) => void): unknown;
  pause(): unknown;
  resume(): unknown;
  destroy(error?: Error): unknown;
}

/** Parsed messages waiting to be read before a node body is paused (a reader slower than the server). */
const MAX_WAITING_MESSAGES = 64;

const DONE: ReadableStreamReadResult<SseMessage> = { done: true, value: undefined };

/**
 * The bytes -> messages step shared by both kinds of body: a byte count (the idle timer's activity,
 * the size cap), a streaming UTF-8 decoder (a character split across reads is held until whole),
 * then eventsource-parser, which handles CRLF, `data:` without a space, comments and keep-alives.
 */
class SseDecoder {
  readonly parsed: SseMessage[] = [];
  readonly fieldErrors: string[] = [];
  failure: Error | undefined;
  private total = 0;
  private readonly decoder = new TextDecoder();
  private readonly parser;

  constructor(private readonly options: SseOptions) {
    this.parser = createParser({
      maxBufferSize: options.maxEventChars ?? DEFAULT_MAX_EVENT_CHARS,
      onEvent: (event) => this.parsed.push(event.event === undefined ? { data: event.data } : { event: event.event, data: event.data }),
      onError: (error) => {
        if (error.type === 'max-buffer-size-exceeded') this.failure ??= error;
        else if (error.type === 'unknown-field' && error.field === 'error' && error.value !== undefined) this.fieldErrors.push(error.value);
      },
    });
  }

  /** One read of the body; sets `failure` when the body broke a limit. */
  bytes(value: Uint8Array): void {
    this.total += value.byteLength;
    this.options.onBytes?.(value.byteLength);
    if (this.total > (this.options.maxBytes ?? DEFAULT_MAX_BODY_BYTES)) this.failure ??= new ResponseTooLargeError(this.options.maxBytes ?? DEFAULT_MAX_BODY_BYTES, 'the response');
    else this.parser.feed(this.decoder.decode(value, { stream: true }));
  }

  /**
   * The end of the body. One that ends without the final blank line still carries its last event;
   * the SSE spec would drop it, a user would not want to. A blank line at the end completes it.
   */
  end(): void {
    this.parser.feed(`${this.decoder.decode()}\n\n`);
  }
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
      return { done: false, value: decoder.parsed.shift()! };
    },
    async cancel(reason) {
      cancelled = true;
      await reader.cancel(reason);
    },
  };
}

/**
 * Messages from a node body, parsed as its reads arrive. No web stream between the socket and the
 * parser: at one small read per token, each stream stage (and its promises) was a measurable part
 * of a streamed answer's CPU (BENCHMARKS.md "The chat transport").
 */
function nodeSource(body: NodeBody, decoder: SseDecoder): Omit<SseSource, 'takeFieldErrors'> {
  let ended = false;
  let broken: unknown;
  let waiting: { resolve: (result: ReadableStreamReadResult<SseMessage>) => void; reject: (error: unknown) => void } | undefined;

  const next = (): ReadableStreamReadResult<SseMessage> | undefined => {
    if (decoder.failure !== undefined || broken !== undefined) return undefined;
    if (decoder.parsed.length > 0) return { done: false, value: decoder.parsed.shift()! };
    return ended ? DONE : undefined;
  };
  const wake = () => {
    if (!waiting) return;
    const failure = decoder.failure ?? broken;
    if (failure !== undefined) {
      const { reject } = waiting;
      waiting = undefined;
      decoder.parsed.length = 0;
      reject(failure);
      return;
    }
    const result = next();
    if (!result) return;
    const { resolve } = waiting;
    waiting = undefined;
    resolve(result);
  };

  body.on('data', (chunk) => {
    if (ended) return;
    decoder.bytes(chunk);
    if (decoder.failure) {
      ended = true;
      body.destroy();
    } else if (!waiting && decoder.parsed.length >= MAX_WAITING_MESSAGES) {
      body.pause();
    }
    wake();
  });
  body.once('end', () => {
    if (ended) return;
    ended = true;
    decoder.end();
    wake();
  });
  body.once('error', (error) => {
    if (ended) return;
    ended = true;
    broken = error;
    wake();
  });

  return {
    read() {
      const failure = decoder.failure ?? broken;
      if (failure !== undefined) {
        decoder.parsed.length = 0;
        return Promise.reject(failure);
      }
      const result = next();
      if (result) return Promise.resolve(result);
      body.resume();
      return new Promise((resolve, reject) => {
        waiting = { resolve, reject };
      });
    },
    async cancel() {
      if (!ended) body.destroy();
      ended = true;
      decoder.parsed.length = 0;
      waiting?.resolve(DONE);
      waiting = undefined;
    },
  };
}
