// A server's elicitation in the TUI (README.md, "What servers may ask"): a form or a URL is queued
// as a frame after the tool approvals (the store's queue, one frame at a time) and the user's
// answer goes back to the server. The form is read and checked here with the pure form module;
// the frame only draws and edits. A URL is opened only after the user agreed, and only when it is
// https or loopback http.
import { acceptAnswer, checkOpenableUrl, formFromSchema, formProblems, initialInputs, type ElicitationHandler, type McpEvent, type UrlElicitation } from '../services/mcp/index';
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
      if (request.retry) return await askRetry(store, id, request, request.retry);
      const check = checkOpenableUrl(request.url);
      remember(store, request.alias, request.elicitationId);
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

type Key = string;
const keyOf = (alias: string, elicitationId: string): Key => `${alias}\u0000${elicitationId}`;

/** Per store: the URL elicitations shown (the ids a completion may name) and the retry questions waiting for them. */
const registries = new WeakMap<AppStore, { known: Set<Key>; waiting: Map<Key, () => void> }>();
function registry(store: AppStore) {
  let found = registries.get(store);
  if (!found) registries.set(store, (found = { known: new Set(), waiting: new Map() }));
  return found;
}

/** Bounded: the ids of the last pages asked for are enough to recognise their completion. */
const MAX_KNOWN_IDS = 200;
function remember(store: AppStore, alias: string, elicitationId: string): void {
  if (!elicitationId) return;
  const { known } = registry(store);
  known.add(keyOf(alias, elicitationId));
  if (known.size > MAX_KNOWN_IDS) known.delete(known.values().next().value!);
}

/** The question after a URL-required error: accepted by the user, or by the server completing every page opened. */
async function askRetry(store: AppStore, id: string, request: UrlElicitation, retry: NonNullable<UrlElicitation['retry']>) {
  const { waiting } = registry(store);
  const remaining = new Set(retry.waitFor.map((elicitationId) => keyOf(request.alias, elicitationId)));
  for (const key of remaining) {
    waiting.set(key, () => {
      remaining.delete(key);
      if (remaining.size === 0) store.getState().withdrawElicitation(id, { action: 'accept' });
    });
  }
  try {
    return await store.getState().requestElicitation({ id, request });
  } finally {
    for (const key of retry.waitFor.map((elicitationId) => keyOf(request.alias, elicitationId))) waiting.delete(key);
  }
}

/**
 * `notifications/elicitation/complete`: a retry question waiting for that page is answered (the
 * call runs once more); a URL frame still open for it is closed; an id this client never showed
 * is ignored (MCP 2025-11-25: unknown or finished ids are ignored).
 */
export function onElicitationComplete(store: AppStore, status: Status, event: Extract<McpEvent, { type: 'elicitation-complete' }>): void {
  const key = keyOf(event.alias, event.elicitationId);
  const { known, waiting } = registry(store);
  if (!known.delete(key)) return;
  const retry = waiting.get(key);
  const pending = store.getState().elicitations.find((item) => item.request.mode === 'url' && !item.request.retry && item.request.alias === event.alias && item.request.elicitationId === event.elicitationId);
  if (pending) store.getState().withdrawElicitation(pending.id, { action: 'cancel' });
  status('info', `mcp ${event.alias}: the server says the interaction at the URL is complete${retry ? '; the call runs once more' : ''}`);
  retry?.();
}
