import { createParser } from 'eventsource-parser';
import type { SseMessage } from './accumulator';

// Response body bytes -> SSE messages: the step both kinds of body share (sse.ts, sse-node.ts).

export interface SseOptions {
  /** Called with the size of every read, before decoding (keep-alive comments count as activity). */
  onBytes?: (bytes: number) => void;
  /** The whole body may not exceed this many bytes. */
  maxBytes?: number;
  /** One event (or line) may not exceed this many characters. */
  maxEventChars?: number;
}

/** A read's answer at the end of the body. */
export const DONE: ReadableStreamReadResult<SseMessage[]> = { done: true, value: undefined };

export const DEFAULT_MAX_BODY_BYTES = 256 * 1024 * 1024;
export const DEFAULT_MAX_EVENT_CHARS = 16 * 1024 * 1024;

export class ResponseTooLargeError extends Error {
  constructor(readonly limit: number, what: string) {
    super(`${what} exceeds ${Math.round(limit / (1024 * 1024))} MiB`);
    this.name = 'ResponseTooLargeError';
  }
}

/**
 * The bytes -> messages step shared by both kinds of body: a byte count (the idle timer's activity,
 * the size cap), a streaming UTF-8 decoder (a character split across reads is held until whole),
 * then eventsource-parser, which handles CRLF, `data:` without a space, comments and keep-alives.
 */
export class SseDecoder {
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
