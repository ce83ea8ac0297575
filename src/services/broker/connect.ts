import { setTimeout as delay } from 'node:timers/promises';
import { formatDuration } from '../shared/duration';
import { htmlText, oneLine } from './errors';
import { backoffMs, isRetryableStatus, MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry';
import type { Watchdog } from './watchdog';
import { httpPost, type HttpAnswer } from './http-post';
import { errorMessageOf } from './wire';

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
  readBody: (answer: HttpAnswer) => Promise<string>;
}

/** The final answer was an HTTP error status (after any retries); its body is still to be read. */
export class HttpStatusError extends Error {
  constructor(readonly answer: HttpAnswer) {
    super(`HTTP ${answer.status}`);
    this.name = 'HttpStatusError';
  }
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
 * POSTs the request (over node:http, http-post.ts). Retries 429 and 5xx only — these arrive before
 * any of the answer, so a retry can never repeat or lose text — at most `maxRetries` times, waiting
 * what `Retry-After` asks (seconds or a date) or 1s, 2s, … without it, and announcing every wait;
 * a server asking for more than MAX_RETRY_AFTER_MS is not waited for. Network failures are not
 * retried: "connection refused" from a local server that is not running should be said at once.
 * Resolves with a 2xx answer; throws HttpStatusError for a final HTTP error status, or the
 * network failure.
 *
 * This loop replaced ky (DESIGN.md's choice for broker HTTP): every part of ky's retry was set here
 * already (which statuses, the delay, the wait's announcement, the watchdog around it, the fetch),
 * and ky itself made a web Request for each attempt and, when imported, one more to probe the
 * runtime: that loaded undici, about 85 ms of CPU and 9 MB of memory at every start, for nothing
 * the app used (BENCHMARKS.md).
 */
export async function connect(options: ConnectOptions): Promise<HttpAnswer> {
  for (let retries = 0; ; retries++) {
    options.watchdog.armFirstByte();
    const answer = await httpPost(options.url, { headers: options.headers, body: options.body, signal: options.signal });
    if (answer.ok) return answer;
    const asked = parseRetryAfter(answer.headers.get('retry-after'));
    if (retries >= options.maxRetries || !isRetryableStatus(answer.status) || (asked !== undefined && asked > MAX_RETRY_AFTER_MS)) throw new HttpStatusError(answer);
    const attempt = retries + 1;
    const wait = asked ?? backoffMs(attempt);
    // The body is read while the first-byte timer still runs, so a body that never ends cannot hang us.
    const said = shortServerMessage(await options.readBody(answer).catch(() => ''));
    options.watchdog.pause();
    options.status(`HTTP ${answer.status}${said ? `: ${said}` : ''}; retrying in ${formatDuration(wait, 'rounded')} (${attempt}/${options.maxRetries})`);
    // An abort ends the wait at once (rejecting with an AbortError; streamChat reports the cancel).
    await delay(wait, undefined, { signal: options.signal });
  }
}
