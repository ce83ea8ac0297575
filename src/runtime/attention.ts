// When aish-tui waits for the person while their terminal is not focused (they went to another
// window), it says so once: an answer that ended, or a frame (approval, command, form, sampling)
// that appeared. Focus comes from the terminal's focus reports (CSI ?1004h); a terminal that sends
// none counts as focused, so nothing rings (README.md, "Notifications").
import type { AppState, AppStore } from '../state/store';

export type AttentionReason = 'answer' | 'frame';

export interface AttentionOptions {
  /** False while the terminal reported that it lost the focus. */
  focused: () => boolean;
  notify: (reason: AttentionReason) => void;
}

const waitingFrames = (state: AppState) => state.approvals.length + state.commands.length + state.elicitations.length + state.samplings.length;
const working = (state: AppState) => state.brokerState === 'waiting' || state.brokerState === 'streaming' || state.brokerState === 'tools';

/** Follows the store; returns the unsubscribe. */
export function watchForAttention(store: AppStore, options: AttentionOptions): () => void {
  let wasWorking = working(store.getState());
  let frames = waitingFrames(store.getState());
  let turnsEnded = store.getState().turnsEnded;
  return store.subscribe((state) => {
    const nowWorking = working(state);
    const nowFrames = waitingFrames(state);
    const frameAppeared = nowFrames > frames;
    // A quick answer can start and end inside one batched update (brokerState idle before and
    // after), so a turn's end is also read from the count of ended turns. One that ended while the
    // next, queued question already runs waits for that one's end.
    const turnEnded = state.turnsEnded > turnsEnded || wasWorking;
    const answerEnded = turnEnded && !nowWorking && nowFrames === 0;
    wasWorking = nowWorking;
    frames = nowFrames;
    turnsEnded = state.turnsEnded;
    if (options.focused()) return;
    if (frameAppeared) options.notify('frame');
    else if (answerEnded) options.notify('answer');
  });
}

/** The words of each notification: fixed, never text from the model or a server. */
export const ATTENTION_TEXT: Readonly<Record<AttentionReason, string>> = {
  answer: 'the answer has ended',
  frame: 'waiting for your decision',
};
