import { createMiddleware, type Middleware } from '@modelcontextprotocol/client';

// What every HTTP request to a server passes through, as the SDK's fetch middleware: the transports
// take one composed fetch (applyMiddlewares), each step here does one thing.

/** The address a request goes to, whichever form the SDK passed it in. */
export function requestUrl(input: string | URL): string {
  return typeof input === 'string' ? input : input.href;
}

/** Remembers the status of the server's answers (only for the MCP URL itself), to explain OAuth failures after a 401. */
export function recordStatus(url: URL, record: (status: number) => void): Middleware {
  const target = url.href.split('?')[0];
  return createMiddleware(async (next, input, init) => {
    const response = await next(input, init);
    if (requestUrl(input).split('?')[0] === target) record(response.status);
    return response;
  });
}

/** The error a body stream fails with when a server sends a message larger than the limit. */
export class MessageTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`the server sent a message larger than ${formatBytes(limitBytes)} (limits.httpMaxMessageBytes); it was not read`);
    this.name = 'MessageTooLargeError';
  }
}

export function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;
}

/**
 * Bounds what one message from an HTTP server may occupy in memory: a JSON body as a whole, an
 * event stream per event (bytes since the last blank line). A long-lived notification stream may
 * carry any number of events; one event that never ends fails the stream instead of growing.
 */
export function limitMessageSize(maxBytes: number): Middleware {
  return createMiddleware(async (next, input, init) => {
    const response = await next(input, init);
    if (!response.body) return response;
    const eventStream = /event-stream/i.test(response.headers.get('content-type') ?? '');
    let size = 0;
    let previous = 0;
    const limited = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          if (!eventStream) {
            size += chunk.length;
          } else {
            for (const byte of chunk) {
              // A line feed after a line feed (a CR in between is part of a CRLF) ends an event.
              if (byte === 0x0a && previous === 0x0a) size = 0;
              else size += 1;
              if (byte !== 0x0d) previous = byte;
            }
          }
          if (size > maxBytes) {
            controller.error(new MessageTooLargeError(maxBytes));
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(limited, { status: response.status, statusText: response.statusText, headers: response.headers });
  });
}

/**
 * A server that closes its GET stream at once (lmcp sends one `endpoint` event and hangs up) has
 * no notification channel; re-opening it would only poll. The stream is re-opened only after one
 * that stayed open a while; otherwise the transport is told 405, which it takes as "no stream".
 * Resumption requests (with Last-Event-ID) always pass. One guard per transport: it keeps state.
 */
export function guardGetStream(streamUrl: URL, minimumLifeMs = 5_000): Middleware {
  let allowAnother = true;
  const target = streamUrl.href;
  return createMiddleware(async (next, input, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init?.headers);
    // Only the notification stream itself is guarded: OAuth discovery also uses GET.
    if (method !== 'GET' || headers.has('last-event-id') || requestUrl(input) !== target) return next(input, init);
    if (!allowAnother) return new Response(null, { status: 405, statusText: 'GET stream not re-opened' });
    allowAnother = false;
    const response = await next(input, init);
    if (!response.ok || !response.body) return response;
    const opened = Date.now();
    const watched = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        flush() {
          if (Date.now() - opened >= minimumLifeMs) allowAnother = true;
        },
      }),
    );
    return new Response(watched, { status: response.status, statusText: response.statusText, headers: response.headers });
  });
}
