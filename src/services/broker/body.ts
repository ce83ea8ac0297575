import { accumulate, type AccumulatorState, finalize } from './accumulator';
import type { BrokerEvent } from './types';
import type { HttpAnswer } from './http-post';
import { errorMessageOf, isErrorChunk, isObject } from './wire';

/**
 * Reads at most `maxBytes` of an answer's body as UTF-8 (error bodies, JSON replies, small
 * documents); the rest is not read: the body is destroyed, and the connection with it.
 */
export function readLimited(answer: Pick<HttpAnswer, 'body'>, maxBytes: number, onBytes?: (bytes: number) => void): Promise<{ text: string; truncated: boolean }> {
  const body = answer.body;
  if (!body) return Promise.resolve({ text: '', truncated: false });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (truncated: boolean) => {
      if (settled) return;
      settled = true;
      resolve({ text: Buffer.concat(chunks).toString('utf8'), truncated });
    };
    body.on('data', (chunk: Buffer) => {
      if (settled) return;
      onBytes?.(chunk.byteLength);
      const room = maxBytes - size;
      chunks.push(chunk.byteLength > room ? chunk.subarray(0, room) : chunk);
      size += chunk.byteLength;
      if (size < maxBytes) return;
      finish(size > maxBytes);
      body.destroy();
    });
    body.once('end', () => finish(false));
    body.once('error', (error) => {
      if (settled) return;
      settled = true;
      reject(error);
    });
  });
}

/** Text that is SSE although the content type did not say so (some proxies label it text/plain). */
export function looksLikeSse(text: string): boolean {
  return /^\s*(data|event|id|retry)\s*:|^\s*:/.test(text);
}

export type JsonReplyResult =
  | { kind: 'events'; events: BrokerEvent[] }
  | { kind: 'error'; message: string }
  | { kind: 'unexpected' };

/**
 * A 200 that is not an event stream. LM Studio answers errors this way (`{"error": "..."}` with
 * status 200); some servers ignore `stream: true` and send a whole `chat.completion`, which is
 * turned into the same events a stream would have produced.
 */
export function readJsonReply(text: string, state: AccumulatorState): JsonReplyResult {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { kind: 'unexpected' };
  }
  if (!isObject(body)) return { kind: 'unexpected' };
  if (isErrorChunk(body)) return { kind: 'error', message: errorMessageOf(body) ?? 'error' };
  const choices = Array.isArray(body.choices) ? body.choices : undefined;
  const choice = choices?.find((item) => isObject(item) && (item.index === 0 || item.index === undefined)) ?? choices?.[0];
  if (!isObject(choice) || !isObject(choice.message)) return { kind: 'unexpected' };
  // A whole message lists its calls without `index` (that field belongs to stream deltas): their
  // position is their index.
  const message = choice.message;
  const delta = Array.isArray(message.tool_calls)
    ? { ...message, tool_calls: message.tool_calls.map((call, index) => (isObject(call) && call.index === undefined ? { ...call, index } : call)) }
    : message;
  const asChunk = { choices: [{ index: 0, delta, finish_reason: choice.finish_reason ?? null }], usage: body.usage ?? null };
  const step = accumulate(state, { data: JSON.stringify(asChunk) });
  return { kind: 'events', events: [...step.events, ...finalize(step.state, 'complete')] };
}
