import type { ClientCapabilities } from '@modelcontextprotocol/client';

// The one place that says what the client offers servers on `initialize`, on every transport
// (docs/ARCHITECTURE.md, Security invariants: only real capabilities). A server hides tools from a
// client that does not declare what they need, and a declared capability must work: each entry
// here has its request handler registered in client-requests.ts (sampling in client-handlers.ts,
// `tasks/*` in task-client.ts).

export interface ClientFeatures {
  /** `roots/list` is answered and `notifications/roots/list_changed` sent when the roots change. */
  roots: boolean;
  /** `elicitation/create` in form and URL mode is put in front of the user (or answered from `--elicitation`). */
  elicitation: boolean;
  /** `sampling/createMessage` is answered by the user's own model after approval (sampling.ts); never `sampling.tools`. */
  sampling: boolean;
}

export function clientCapabilities(features: ClientFeatures): ClientCapabilities {
  return {
    ...(features.roots ? { roots: { listChanged: true } } : {}),
    // No `applyDefaults`: the form is prefilled with the defaults and what the user clears stays cleared.
    ...(features.elicitation ? { elicitation: { form: {}, url: {} } } : {}),
    ...(features.sampling ? { sampling: {} } : {}),
    ...clientTasksCapability(features),
  };
}

/**
 * Tasks the client runs for a server (task-client.ts): the requests it answers with a task are
 * exactly the declared ones above; `tasks/list` and `tasks/cancel` are answered for them.
 */
function clientTasksCapability(features: ClientFeatures): Pick<ClientCapabilities, 'tasks'> {
  if (!features.sampling && !features.elicitation) return {};
  return {
    tasks: {
      list: {},
      cancel: {},
      requests: {
        ...(features.sampling ? { sampling: { createMessage: {} } } : {}),
        ...(features.elicitation ? { elicitation: { create: {} } } : {}),
      },
    },
  };
}
