import { randomUUID } from 'node:crypto';
import { type AccumulatorState, createAccumulator, finalize } from './accumulator';
import { looksLikeSse, readJsonReply, readLimited } from './body';
import { connect, HttpStatusError } from './connect';
import type { HttpAnswer } from './http-post';
import { createAsyncQueue, drainUntil } from '../shared/async-queue';
import { formatDuration } from '../shared/duration';
import { redact } from '../shared/redact';
import { credentialSource, errorCode, httpErrorMessage, networkReason, oneLine, unreachableMessage } from './errors';
import { MAX_RETRY_AFTER_MS, parseRetryAfter } from './retry';
import {
  buildBody,
  buildHeaders,
  chatCompletionsUrl,
  type KeyResolution,
  rejectsStreamOptions,
  rememberNoStreamOptions,
  resolveApiKey,
  secretsOf,
  wantsStreamUsage,
} from './request';
import { StreamRedactor } from './redact-stream';
import { parseSse, ResponseTooLargeError } from './sse';
import { type SplitText, ThinkTagSplitter } from './think-tags';
import { accumulateStream } from './stream';
import type { BrokerEvent, BrokerRequest, BrokerTimeouts, StreamChat } from './types';
import { Watchdog } from './watchdog';
import { overflowInBody } from '../context/overflow';

export type { StreamChat } from './types';
export { describeModels } from './models';

/** Used when the request names no timeouts (the config's broker section normally does). Minutes: a local server may be loading the model. */
export const DEFAULT_TIMEOUTS: BrokerTimeouts = { firstByteMs: 300_000, idleMs: 120_000 };
export const DEFAULT_MAX_RETRIES = 2;
const ERROR_BODY_BYTES = 64 * 1024;
const JSON_REPLY_BYTES = 16 * 1024 * 1024;

/** The URL as shown to the user: no credentials, no query (some providers put keys there). */
function displayUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`.replace(/\/+$/, '');
  } catch {
    return url;
  }
}

function bodyStream(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

/** A usable timer length: a missing or invalid value takes the default; setTimeout's ceiling is 2^31-1 ms. */
function timerMs(value: number | undefined, fallback: number): number {
  if (value === undefined || !Number.isFinite(value) || value <= 0) return fallback;
  return Math.min(value, 2 ** 31 - 1);
}

function isConnectionReset(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE';
}

function isTooLarge(error: unknown): boolean {
  return error instanceof ResponseTooLargeError || (error as { type?: unknown })?.type === 'max-buffer-size-exceeded';
}

/**
 * Streams one chat completion as BrokerEvents. Never throws: every failure is an `error` event,
 * and `finish` is always the last event (also after an error or an abort). Every message passes
 * the redaction of the request's secrets, whichever part of the broker or the server wrote it.
 */
export const streamChat: StreamChat = async function* streamChat(request: BrokerRequest): AsyncGenerator<BrokerEvent, void, undefined> {
  const key = resolveApiKey(request.model, request.env ?? process.env);
  const secrets = secretsOf(request.model, key.key);
  // The answer itself too: a server may echo the key in streamed text (split across deltas).
  const text = new StreamRedactor(secrets);
  const reasoning = new StreamRedactor(secrets);
  // `<think>…</think>` inside the answer text is reasoning (model option `inlineReasoning`).
  const inline = request.model.inlineReasoning === false ? undefined : new ThinkTagSplitter();
  function* split(part: SplitText): Generator<BrokerEvent, void, undefined> {
    const shownReasoning = part.reasoning ? reasoning.push(part.reasoning) : '';
    if (shownReasoning) yield { type: 'reasoning-delta', text: shownReasoning };
    const shownText = part.text ? text.push(part.text) : '';
    if (shownText) yield { type: 'text-delta', text: shownText };
  }
  function* flushHeld(): Generator<BrokerEvent, void, undefined> {
    if (inline) yield* split(inline.flush());
    const heldText = text.flush();
    if (heldText) yield { type: 'text-delta', text: heldText };
    const heldReasoning = reasoning.flush();
    if (heldReasoning) yield { type: 'reasoning-delta', text: heldReasoning };
  }
  for await (const event of streamEvents(request, key)) {
    if (event.type === 'text-delta' && inline) {
      yield* split(inline.push(event.text));
      continue;
    }
    if (event.type === 'text-delta' || event.type === 'reasoning-delta') {
      const shown = (event.type === 'text-delta' ? text : reasoning).push(event.text);
      if (shown) yield { ...event, text: shown };
      continue;
    }
    if (event.type === 'status') {
      yield { ...event, message: redact(event.message, secrets) };
      continue;
    }
    yield* flushHeld();
    if (event.type === 'error') yield { ...event, message: redact(event.message, secrets) };
    else if (event.type === 'tool-call') yield { ...event, call: { ...event.call, arguments: redact(event.call.arguments, secrets) } };
    else yield event;
  }
  yield* flushHeld();
};

async function* streamEvents(request: BrokerRequest, key: KeyResolution): AsyncGenerator<BrokerEvent, void, undefined> {
  const { model } = request;
  const url = chatCompletionsUrl(model.baseUrl);
  const shownUrl = displayUrl(model.baseUrl);
  const timeouts: BrokerTimeouts = {
    firstByteMs: timerMs(request.timeouts?.firstByteMs, DEFAULT_TIMEOUTS.firstByteMs),
    idleMs: timerMs(request.timeouts?.idleMs, DEFAULT_TIMEOUTS.idleMs),
  };
  const maxRetries = request.maxRetries ?? DEFAULT_MAX_RETRIES;

  if (request.signal?.aborted) {
    yield { type: 'finish', reason: 'cancelled' };
    return;
  }
  if (key.problem !== undefined) {
    yield { type: 'error', kind: 'config', message: key.problem };
    yield { type: 'finish', reason: 'error' };
    return;
  }

  const stop = new AbortController();
  const watchdog = new Watchdog(timeouts, () => stop.abort(new Error('timeout')));
  const signal = request.signal ? AbortSignal.any([request.signal, stop.signal]) : stop.signal;
  let state: AccumulatorState = createAccumulator({ idPrefix: `call_${randomUUID().slice(0, 8)}` });
  let streaming = false;

  /** The events that end a stream that failed with `failure`. */
  function* failed(failure: unknown): Generator<BrokerEvent, void, undefined> {
    if (request.signal?.aborted) return yield* finalize(state, 'cut', 'cancelled');
    // The server had finished the answer; only the goodbye ([DONE], the end of the body) went missing.
    if (state.finishReason !== undefined) return yield* finalize(state, 'complete');
    if (watchdog.fired === 'first-byte') {
      yield {
        type: 'error',
        kind: 'timeout',
        message: `no answer from ${model.name} at ${shownUrl} within ${formatDuration(timeouts.firstByteMs, 'rounded')} (broker.firstByteTimeoutMs); is the model still loading?`,
      }
    } else if (watchdog.fired === 'idle') {
      yield {
        type: 'error',
        kind: 'timeout',
        message: `${model.name} sent nothing for ${formatDuration(timeouts.idleMs, 'rounded')} in the middle of the answer; gave up (broker.idleTimeoutMs)`,
      }
    } else if (isTooLarge(failure)) {
      yield { type: 'error', kind: 'protocol', message: `the answer from ${model.name} is too large: ${(failure as Error).message}` };
    } else if (streaming) {
      yield { type: 'error', kind: 'stream', message: `the connection to ${model.name} broke during the answer: ${networkReason(failure)}` };
      return yield* finalize(state, 'cut');
    } else {
      yield { type: 'error', kind: 'network', message: unreachableMessage(model.name, shownUrl, failure) };
    }
    yield* finalize(state, 'cut', 'error');
  }

  function* httpFailure(status: number, text: string, retryAfter: string | null): Generator<BrokerEvent, void, undefined> {
    let message = httpErrorMessage(status, text, { keySource: credentialSource(model), modelId: model.model, url: shownUrl });
    const asked = parseRetryAfter(retryAfter);
    if (asked !== undefined && asked > MAX_RETRY_AFTER_MS) message += ` (the server asks to retry in ${formatDuration(asked, 'rounded')})`;
    const overflow = overflowInBody(status, text);
    yield { type: 'error', kind: 'http', status, message, ...(overflow ? { overflow } : {}) };
    yield { type: 'finish', reason: 'error' };
  }

  try {
    let response: HttpAnswer | undefined;
    let resent = false;
    while (!response) {
      const includeUsage = wantsStreamUsage(model);
      // The retry hook reports its waits as callbacks; they are yielded while the wait happens, not after.
      const statuses = createAsyncQueue<BrokerEvent>();
      try {
        const pending = connect({
          url,
          headers: buildHeaders(model, key.key),
          body: JSON.stringify(buildBody(request, { includeUsage })),
          signal,
          maxRetries,
          watchdog,
          status: (message) => statuses.push({ type: 'status', message }),
          readBody: async (reply) => (await readLimited(reply, ERROR_BODY_BYTES)).text,
        });
        response = yield* drainUntil(statuses, pending);
      } catch (error) {
        if (!(error instanceof HttpStatusError)) {
          // A kept-alive connection the server closed meanwhile (it restarted) fails at once with a
          // reset; one fresh connection tells "restarted" from "down" before we report anything.
          if (!resent && !signal.aborted && isConnectionReset(error)) {
            resent = true;
            continue;
          }
          throw error;
        }
        const { text } = await readLimited(error.answer, ERROR_BODY_BYTES);
        if (includeUsage && model.streamUsage === undefined && rejectsStreamOptions(error.answer.status, text)) {
          // Asked again at once without the field; remembered for this session.
          rememberNoStreamOptions(model);
          continue;
        }
        return yield* httpFailure(error.answer.status, text, error.answer.headers.get('retry-after'));
      }
    }

    streaming = true;
    const contentType = response.headers.get('content-type') ?? '';
    let body: ReadableStream<Uint8Array> | HttpAnswer['body'] = response.body;
    if (!/event-stream/i.test(contentType)) {
      const { text } = await readLimited(response, JSON_REPLY_BYTES, () => watchdog.activity());
      if (!looksLikeSse(text)) {
        const reply = readJsonReply(text, state);
        if (reply.kind === 'events') return yield* reply.events;
        const message =
          reply.kind === 'error'
            ? `${model.name} answered with an error: ${oneLine(reply.message)}`
            : `unexpected answer from ${model.name} (${contentType || 'no content type'}): ${oneLine(text) || '(empty body)'}`;
        yield { type: 'error', kind: reply.kind === 'error' ? 'http' : 'protocol', status: response.status, message };
        yield { type: 'finish', reason: 'error' };
        return;
      }
      // Event stream under another label (some proxies say text/plain): parsed as one.
      body = bodyStream(text);
    }
    if (!body) {
      yield { type: 'error', kind: 'protocol', message: `${model.name} sent an empty response` };
      yield { type: 'finish', reason: 'error' };
      return;
    }

    // The socket's reads themselves (no web stream between socket and parser), or the text read above.
    const outcome = yield* accumulateStream(parseSse(body, { onBytes: () => watchdog.activity() }), state, { signal, textPaceMs: request.textPaceMs ?? 0 });
    state = outcome.state;
    if (outcome.failure !== undefined) return yield* failed(outcome.failure);
    yield* finalize(state, 'complete');
  } catch (failure) {
    yield* failed(failure);
  } finally {
    watchdog.stop();
    // Releases the connection if we stopped before the server did (a consumer that broke off, an
    // error). After [DONE] the body has been read to its end by now (SseSource.release), and the
    // connection is back in the pool for the next request.
    stop.abort();
  }
}
