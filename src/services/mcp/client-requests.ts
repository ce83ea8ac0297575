import type { Client, ElicitResult } from '@modelcontextprotocol/client';
import { rootsForServers } from './roots';
import type { ClientFeatures } from './capabilities';
import type { ElicitationHandler, ElicitationRequest, McpEvent } from './types';

// The requests a server sends the client, answered here for every transport. Each handler
// belongs to a capability declared in capabilities.ts; nothing is registered that is not declared.

export interface ClientRequestHandlers {
  /** What the client declared (capabilities.ts): only those handlers are registered. */
  features: ClientFeatures;
  /** The current roots (absolute directories). */
  roots: () => string[];
  elicit: ElicitationHandler;
  emit: (event: McpEvent) => void;
}

export function answerServerRequests(client: Client, alias: string, handlers: ClientRequestHandlers): void {
  if (handlers.features.roots) client.setRequestHandler('roots/list', () => ({ roots: rootsForServers(handlers.roots()) }));
  if (!handlers.features.elicitation) return;

  client.setRequestHandler('elicitation/create', async (request, ctx): Promise<ElicitResult> => {
    const params = request.params;
    // The SDK has checked the request against the schema and set `mode` (form when absent).
    const asked: ElicitationRequest =
      params.mode === 'url'
        ? { mode: 'url', alias, message: params.message, url: params.url, elicitationId: params.elicitationId }
        : { mode: 'form', alias, message: params.message, schema: params.requestedSchema as Record<string, unknown> };
    const answer = await handlers.elicit(asked, ctx.mcpReq.signal);
    return answer as ElicitResult;
  });

  client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
    handlers.emit({ type: 'elicitation-complete', alias, elicitationId: notification.params.elicitationId });
  });
}
