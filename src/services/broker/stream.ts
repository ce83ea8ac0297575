import { accumulate, type AccumulatorState, type SseMessage, type Step } from './accumulator';
import type { SseSource } from './sse';
import type { BrokerEvent } from './types';

export interface StreamOutcome {
  state: AccumulatorState;
  /** Why reading stopped early (connection cut, timeout, abort, size cap); undefined on a clean end. */
  failure?: unknown;
}

/**
 * Reads SSE messages through the accumulator, yielding text and reasoning as they arrive. Stops at
 * `[DONE]`, at the end of the body, or after the server reported an error (nothing useful follows
 * one, and a server that reports an error and then idles would otherwise hold the turn until the
 * idle timeout). Never throws: a read failure is returned with the state reached so far.
 */
export async function* accumulateStream(source: SseSource, initial: AccumulatorState, signal?: AbortSignal): AsyncGenerator<BrokerEvent, StreamOutcome, undefined> {
  let state = initial;
  // Out-of-band errors (see SseSource) go in just before [DONE] and at the end of the body.
  const feed = (message: SseMessage | undefined): Step[] => {
    const steps: Step[] = [];
    const inputs = message === undefined || message.data.trim() === '[DONE]' ? [...source.takeFieldErrors(), ...(message ? [message] : [])] : [message];
    for (const input of inputs) {
      const step = accumulate(state, input);
      state = step.state;
      steps.push(step);
    }
    return steps;
  };
  try {
    for (;;) {
      const { value, done } = await source.read();
      for (const step of feed(done ? undefined : value)) {
        for (const event of step.events) {
          yield event;
          // A cancel takes effect at once, not after what was already read from the socket.
          if (signal?.aborted) return { state, failure: signal.reason };
        }
      }
      if (done || state.done || state.error !== undefined) return { state };
    }
  } catch (failure) {
    return { state, failure };
  } finally {
    // Stops the body (and with it the connection) when we stop before the server did.
    source.cancel().catch(() => {});
  }
}
