// The TUI's side of sampling (sampling.ts asks, the store holds the frame, ui/Frames.tsx shows it):
// each review is a store promise answered by the frame's keys or ended when the server cancels.
import type { SamplingRequest } from '../services/mcp/index';
import type { SamplingAnswer } from '../state/slices/sampling';
import type { AppStore } from '../state/store';
import type { RequestReview, ResultReview, SamplingPrompter } from './sampling';
import { editableRequest } from './sampling-messages';

/** The streamed answer reaches the store at most this often (the frame redraws with it). */
const STREAM_UPDATE_MS = 50;

function untilAborted(store: AppStore, id: string, signal: AbortSignal, answer: Promise<SamplingAnswer>): Promise<SamplingAnswer> {
  if (signal.aborted) {
    store.getState().endSampling(id);
    return Promise.resolve({ action: 'deny', reason: 'cancelled by the server' });
  }
  const onAbort = () => store.getState().endSampling(id);
  signal.addEventListener('abort', onAbort, { once: true });
  return answer.finally(() => signal.removeEventListener('abort', onAbort));
}

export function storeSamplingPrompter(store: AppStore): SamplingPrompter {
  const latest = new Map<string, string>();
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    for (const [id, text] of latest) store.getState().setSamplingText(id, text);
    latest.clear();
  };
  const pending = (id: string) => store.getState().samplings.find((item) => item.request.id === id);

  return {
    async reviewRequest(request: SamplingRequest, model: string, signal: AbortSignal, problem?: string): Promise<RequestReview> {
      const review = store.getState().reviewSampling({ request, model, stage: 'request', editText: editableRequest(request), text: '', ...(problem ? { problem } : {}) });
      const answer = await untilAborted(store, request.id, signal, review);
      if (answer.action === 'edit') return { action: 'edit', text: answer.text };
      if (answer.action === 'approve') return { action: 'approve' };
      return { action: 'deny', ...(answer.reason ? { reason: answer.reason } : {}) };
    },
    generating(id, cancel) {
      store.getState().startSamplingRun(id, cancel);
    },
    streaming(id, text) {
      latest.set(id, text);
      timer ??= setTimeout(flush, STREAM_UPDATE_MS);
    },
    async reviewResult(id, result, signal): Promise<ResultReview> {
      clearTimeout(timer);
      flush();
      const current = pending(id);
      if (!current) return { action: 'deny', reason: 'cancelled' };
      const review = store.getState().reviewSampling({ request: current.request, model: current.model, stage: 'result', editText: result.text, text: result.text, result });
      const answer = await untilAborted(store, id, signal, review);
      if (answer.action === 'deny') return { action: 'deny', ...(answer.reason ? { reason: answer.reason } : {}) };
      return { action: 'approve', ...(answer.text !== undefined ? { text: answer.text } : {}) };
    },
    done(id) {
      latest.delete(id);
      store.getState().endSampling(id);
    },
  };
}
