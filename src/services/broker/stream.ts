import { accumulate, type AccumulatorState, type SseMessage } from './accumulator';
import type { SseSource } from './sse';
import type { BrokerEvent } from './types';

export interface StreamOutcome {
  state: AccumulatorState;
  /** Why reading stopped early (connection cut, timeout, abort, size cap); undefined on a clean end. */
  failure?: unknown;
}

export interface AccumulateOptions {
  signal?: AbortSignal;
  /**
   * While the answer is only text (or reasoning), read the body at most once per this many ms
   * (SseSource.pace): the screen shows text at most that often, and a read per token costs a
   * wake-up apiece. Tool calls, the finish and anything else are read as they arrive. 0: no pace.
   */
  textPaceMs?: number;
}

type TextEvent = Extract<BrokerEvent, { type: 'text-delta' | 'reasoning-delta' }>;
const isText = (event: BrokerEvent | undefined): event is TextEvent => event?.type === 'text-delta' || event?.type === 'reasoning-delta';

/** Appends `event`, joining it to the last one when both are text (or both reasoning). */
function pushJoined(events: BrokerEvent[], event: BrokerEvent): void {
  const last = events[events.length - 1];
  if (isText(last) && isText(event) && last.type === event.type) events[events.length - 1] = { ...last, text: last.text + event.text };
  else events.push(event);
}

/**
 * Reads SSE messages through the accumulator, yielding text and reasoning as they arrive (the text
 * of one read as one event). Stops at `[DONE]`, at the end of the body, or after the server
 * reported an error (nothing useful follows one, and a server that reports an error and then idles
 * would otherwise hold the turn until the idle timeout). Never throws: a read failure is returned
 * with the state reached so far.
 */
export async function* accumulateStream(source: SseSource, initial: AccumulatorState, options: AccumulateOptions = {}): AsyncGenerator<BrokerEvent, StreamOutcome, undefined> {
  const { signal, textPaceMs = 0 } = options;
  let state = initial;
  const over = () => state.done || state.error !== undefined;
  /** The events of one read's messages; `undefined` is the end of the body. */
  const feed = (messages: readonly SseMessage[] | undefined): BrokerEvent[] => {
    const events: BrokerEvent[] = [];
    const step = (message: SseMessage) => {
      const result = accumulate(state, message);
      state = result.state;
      for (const event of result.events) pushJoined(events, event);
    };
    // Out-of-band errors (see SseSource) go in just before [DONE] and at the end of the body.
    for (const message of messages ?? []) {
      if (over()) break;
      if (message.data.trim() === '[DONE]') for (const error of source.takeFieldErrors()) step(error);
      step(message);
    }
    if (messages === undefined) for (const error of source.takeFieldErrors()) step(error);
    return events;
  };
  let clean = false;
  try {
    for (;;) {
      const { value, done } = await source.read();
      const events = feed(done ? undefined : value);
      const onlyText = events.length > 0 && events.every(isText) && state.finishReason === undefined && state.slots.length === 0;
      source.pace(onlyText ? textPaceMs : 0);
      for (const event of events) {
        yield event;
        // A cancel takes effect at once, not after what was already read from the socket.
        if (signal?.aborted) return { state, failure: signal.reason };
      }
      if (done || over()) {
        clean = state.done && state.error === undefined;
        return { state };
      }
    }
  } catch (failure) {
    return { state, failure };
  } finally {
    // After [DONE] the rest of the body is let through so the connection stays open for the next
    // request; otherwise (we stopped before the server did) the body, and its connection, stop.
    if (clean) await source.release();
    else source.cancel().catch(() => {});
  }
}
