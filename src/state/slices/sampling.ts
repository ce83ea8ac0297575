import type { StateCreator } from 'zustand/vanilla';
import type { SamplingRequest, SamplingResult } from '../../services/mcp/index';
import type { AppState } from '../store';

// Servers' sampling requests waiting for the person, in arrival order; the head is shown as a
// frame once no tool-call or command frame waits. Each goes through stages: the request (approve,
// edit, deny), the model's answer streaming in (cancel), the answer (return, edit, deny).

export type SamplingStage = 'request' | 'running' | 'result';

/** What the person answered a sampling frame: `text` is the edited request or answer. */
export type SamplingAnswer = { action: 'approve'; text?: string } | { action: 'edit'; text: string } | { action: 'deny'; reason?: string };

export interface PendingSampling {
  request: SamplingRequest;
  /** The model that answers (its name in the registry). */
  model: string;
  stage: SamplingStage;
  /** Each review is a new frame (the keys' delay and "read it all" start again): `<id>:<round>`. */
  frameId: string;
  /** What the edit field starts with: the request as editable text, or the answer. */
  editText: string;
  /** Why the last edit was not used, or what the limits changed. */
  problem?: string;
  /** The answer so far (running) or in full (result). */
  text: string;
  result?: SamplingResult;
  shownAt: number;
  /** Set while a review waits for the person. */
  resolve?: (answer: SamplingAnswer) => void;
  /** Set while the model answers: stops it (the person cancelled). */
  cancel?: () => void;
}

export interface SamplingSlice {
  samplings: PendingSampling[];
}

export interface SamplingActions {
  /** Shows (or shows again) the request of `pending.request.id` for review; resolves with the answer. */
  reviewSampling: (pending: Omit<PendingSampling, 'shownAt' | 'resolve' | 'frameId'>) => Promise<SamplingAnswer>;
  /** The answer so far, while the model streams. */
  setSamplingText: (id: string, text: string) => void;
  /** The model starts answering `id`; `cancel` stops it. */
  startSamplingRun: (id: string, cancel: () => void) => void;
  /** Answers the head if it is still the frame `frameId` (an answer is bound to what was shown). */
  answerSampling: (answer: SamplingAnswer, frameId: string) => void;
  /** The request is over (answered, refused, cancelled by the server). */
  endSampling: (id: string) => void;
}

let rounds = 0;

export const createSamplingSlice: StateCreator<AppState, [], [], SamplingSlice & SamplingActions> = (set, get) => ({
  samplings: [],

  reviewSampling: (pending) =>
    new Promise<SamplingAnswer>((resolve) => {
      rounds += 1;
      const entry: PendingSampling = { ...pending, frameId: `${pending.request.id}:${rounds}`, shownAt: Date.now(), resolve };
      set((state) => {
        const index = state.samplings.findIndex((item) => item.request.id === pending.request.id);
        if (index < 0) return { samplings: [...state.samplings, entry] };
        const samplings = [...state.samplings];
        samplings[index] = entry;
        return { samplings };
      });
    }),
  setSamplingText: (id, text) =>
    set((state) => {
      const index = state.samplings.findIndex((item) => item.request.id === id);
      const current = state.samplings[index];
      if (!current || current.text === text) return {};
      const samplings = [...state.samplings];
      samplings[index] = { ...current, stage: 'running', text };
      return { samplings };
    }),
  startSamplingRun: (id, cancel) =>
    set((state) => ({ samplings: state.samplings.map((item) => (item.request.id === id ? { ...item, stage: 'running', cancel } : item)) })),
  answerSampling: (answer, frameId) => {
    const head = get().samplings[0];
    if (!head || head.frameId !== frameId) return;
    if (head.stage === 'running') {
      if (answer.action === 'deny') head.cancel?.();
      return;
    }
    if (!head.resolve) return;
    const resolve = head.resolve;
    // Until the runtime moves it on, the request shows as running (nothing more to answer).
    set((state) => ({ samplings: [{ ...head, frameId: `${head.frameId}:running`, stage: 'running', text: head.stage === 'result' ? head.text : '', resolve: undefined }, ...state.samplings.slice(1)] }));
    resolve(answer);
  },
  endSampling: (id) => {
    const { samplings } = get();
    const ended = samplings.find((item) => item.request.id === id);
    if (!ended) return;
    const rest = samplings.filter((item) => item !== ended);
    set({ samplings: rest[0] && samplings[0] === ended ? [{ ...rest[0], shownAt: Date.now() }, ...rest.slice(1)] : rest });
    ended.resolve?.({ action: 'deny', reason: 'cancelled' });
  },
});
