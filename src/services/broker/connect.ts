import ky, { HTTPError } from 'ky';
import { formatDuration } from '../shared/duration';
import { htmlText, oneLine } from './errors';
import { backoffMs, isRetryableStatus, MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry';
import type { Watchdog } from './watchdog';
import { httpPost } from './http-post';
import { errorMessageOf } from './wire';

export { HTTPError };

export interface ConnectOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  signal: AbortSignal;
  maxRetries: number;
  watchdog: Watchdog;
  /** Reports a retry the user should see. */
  status: (message: string) => void;
  /** Reads (a bounded prefix of) an error body, for the retry status line. */
  readBody: (response: Response) => Promise<string>;
}

function shortServerMessage(body: string): string {
  let message: string | undefined;
  try {
    message = errorMessageOf(JSON.parse(body));
  } catch {
    message = undefined;
  }
  return oneLine(message ?? htmlText(body) ?? body, 120);
}

/**
 * POSTs the request with ky. Retries 429 and 5xx only — these arrive before any of the answer, so
 * a retry can never repeat or lose text — at most `maxRetries` times, waiting what `Retry-After`
 * asks (seconds or a date) or 1s, 2s, … without it, and announcing every wait. Network failures
 * are not retried: "connection refused" from a local server that is not running should be said
 * at once. Resolves with a 2xx response; throws ky's HTTPError for a final HTTP error status, or
 * the fetch error.
 */
export async function connect(options: ConnectOptions): Promise<Response> {
  let nextDelay = 0;
  options.watchdog.armFirstByte();
  return ky.post(options.url, {
    // No body for ky's own Request: it would wrap the string in a stream and tee that stream on
    // every attempt (ky clones the request for retries). The body goes to fetch below, as is.
    headers: options.headers,
    signal: options.signal,
    // Our watchdog owns time: ky's timeout would cover only the headers, not the first body byte.
    timeout: false,
    throwHttpErrors: true,
    retry: {
      limit: options.maxRetries,
      methods: ['post'],
      statusCodes: [],
      afterStatusCodes: [],
      // ky waits `delay()` after `shouldRetry` says yes; the wait computed there is the one announced.
      delay: () => nextDelay,
      async shouldRetry({ error, retryCount }) {
        if (!(error instanceof HTTPError) || !isRetryableStatus(error.response.status)) return false;
        const asked = parseRetryAfter(error.response.headers.get('retry-after'));
        if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) return false;
        nextDelay = asked ?? backoffMs(retryCount);
        // The body is read while the first-byte timer still runs, so a body that never ends cannot hang us.
        const said = shortServerMessage(await options.readBody(error.response).catch(() => ''));
        options.watchdog.pause();
        options.status(
          `HTTP ${error.response.status}${said ? `: ${said}` : ''}; retrying in ${formatDuration(nextDelay, 'rounded')} (${retryCount}/${options.maxRetries})`,
        );
        return true;
      },
    },
    hooks: {
      beforeRetry: [
        () => {
          options.watchdog.armFirstByte();
        },
      ],
    },
    // ky hands fetch a bodiless Request; the body is one string we already hold, and sent as such
    // it is one write. It goes over node:http (http-post.ts), not the global fetch.
    fetch: (input, init) =>
      input instanceof Request
        ? httpPost(input.url, { headers: input.headers, body: options.body, signal: input.signal, redirect: input.redirect })
        : globalThis.fetch(input, init),
  });
}
