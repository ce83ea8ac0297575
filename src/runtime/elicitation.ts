// A server's elicitation in the TUI (README.md, "What servers may ask"): a form or a URL is queued
// as a frame after the tool approvals (the store's queue, one frame at a time) and the user's
// answer goes back to the server. The form is read and checked here with the pure form module;
// the frame only draws and edits. A URL is opened only after the user agreed, and only when it is
// https or loopback http.
import { acceptAnswer, checkOpenableUrl, formFromSchema, formProblems, initialInputs, type ElicitationHandler, type McpEvent } from '../services/mcp/index';
import type { AppStore } from '../state/store';

type Status = (level: 'info' | 'warn' | 'error', text: string) => void;

export interface ElicitationDeps {
  store: AppStore;
  status: Status;
  /** Opens a URL in the system browser (never throws). */
  openUrl: (url: string) => Promise<void>;
}

export function elicitInStore({ store, status, openUrl }: ElicitationDeps): ElicitationHandler {
  let next = 0;
  return async (request, signal) => {
    const id = `elicitation-${++next}`;
    const withdraw = () => {
      if (store.getState().withdrawElicitation(id, { action: 'cancel' })) status('info', `mcp ${request.alias}: the server withdrew its request for input`);
    };
    if (signal.aborted) return { action: 'cancel' };
    signal.addEventListener('abort', withdraw, { once: true });
    try {
      if (request.mode === 'form') {
        const read = formFromSchema(request.schema);
        if ('problem' in read) {
          status('warn', `mcp ${request.alias}: asked for input this client cannot show (${read.problem}); declined`);
          return { action: 'decline' };
        }
        const form = read.form;
        return await store.getState().requestElicitation({ id, request, form, initial: initialInputs(form), problems: (inputs) => formProblems(form, inputs), accept: (inputs) => acceptAnswer(form, inputs) });
      }
      const check = checkOpenableUrl(request.url);
      const answer = await store.getState().requestElicitation({ id, request, ...(check.ok ? {} : { urlProblem: check.reason }) });
      if (answer.action === 'accept') {
        if (check.ok) {
          status('info', `mcp ${request.alias}: opening ${check.url.href} in the browser`);
          await openUrl(check.url.href);
        } else {
          // The frame offers no accept for such a URL; this guards the promise only.
          return { action: 'decline' };
        }
      }
      return answer;
    } finally {
      signal.removeEventListener('abort', withdraw);
    }
  };
}

/** `notifications/elicitation/complete`: a URL frame still open for it is closed; otherwise the user is told. */
export function onElicitationComplete(store: AppStore, status: Status, event: Extract<McpEvent, { type: 'elicitation-complete' }>): void {
  const pending = store.getState().elicitations.find((item) => item.request.mode === 'url' && item.request.alias === event.alias && item.request.elicitationId === event.elicitationId);
  if (pending) store.getState().withdrawElicitation(pending.id, { action: 'cancel' });
  status('info', `mcp ${event.alias}: the server says the interaction at the URL is complete`);
}
