import { randomUUID } from 'node:crypto';
import { ProtocolError, type Client, type CreateMessageRequestParams, type CreateMessageResult } from '@modelcontextprotocol/client';
import type { SamplingHandler, SamplingMessageView, SamplingPart, SamplingRequest } from './types';

// A server's `sampling/createMessage` (MCP 2025-11-25, client feature "sampling"): the request is
// handed to the front end's handler (a frame in the TUI, a rule in `-p`), whose answer goes back
// as the result or as a JSON-RPC error. Tools in a request (`tools`, `toolChoice`) are not
// supported, so `sampling.tools` is never declared (connection.ts).

/** The spec's code for "the user rejected the sampling request". */
export const USER_REJECTED = -1;

type RawContent = { type: string; text?: unknown; data?: unknown; mimeType?: unknown };

function partOf(block: RawContent): SamplingPart {
  if (block.type === 'text' && typeof block.text === 'string') return { type: 'text', text: block.text };
  if ((block.type === 'image' || block.type === 'audio') && typeof block.data === 'string') {
    return { type: block.type, mimeType: typeof block.mimeType === 'string' ? block.mimeType : 'application/octet-stream', data: block.data };
  }
  return { type: 'other', kind: block.type };
}

/** The request's parts in the shape the rest of the app uses (content may be one block or a list). */
export function samplingRequestOf(alias: string, params: CreateMessageRequestParams): SamplingRequest {
  const messages: SamplingMessageView[] = params.messages.map((message) => {
    const blocks = (Array.isArray(message.content) ? message.content : [message.content]) as RawContent[];
    return { role: message.role, content: blocks.map(partOf) };
  });
  const preferences = params.modelPreferences;
  const hints = preferences?.hints?.flatMap((hint) => (typeof hint.name === 'string' ? [hint.name] : []));
  return {
    id: randomUUID(),
    alias,
    ...(params.systemPrompt !== undefined ? { systemPrompt: params.systemPrompt } : {}),
    messages,
    maxTokens: params.maxTokens,
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    ...(params.stopSequences ? { stopSequences: params.stopSequences } : {}),
    ...(preferences
      ? {
          modelPreferences: {
            ...(hints && hints.length > 0 ? { hints } : {}),
            ...(preferences.costPriority !== undefined ? { costPriority: preferences.costPriority } : {}),
            ...(preferences.speedPriority !== undefined ? { speedPriority: preferences.speedPriority } : {}),
            ...(preferences.intelligencePriority !== undefined ? { intelligencePriority: preferences.intelligencePriority } : {}),
          },
        }
      : {}),
    ...(params.includeContext ? { includeContext: params.includeContext } : {}),
  };
}

/** Registers the handler for this server's sampling requests (the client must declare `sampling`). */
export function installSampling(client: Client, alias: string, handler: SamplingHandler): void {
  client.setRequestHandler('sampling/createMessage', async (request, ctx): Promise<CreateMessageResult> => {
    const params = request.params;
    if ((params.tools && params.tools.length > 0) || params.toolChoice) {
      throw new ProtocolError(-32602, 'this client does not support tools in sampling requests (sampling.tools is not declared)');
    }
    const outcome = await handler(samplingRequestOf(alias, params), ctx.mcpReq.signal);
    if (outcome.action === 'deny') throw new ProtocolError(outcome.code ?? USER_REJECTED, outcome.reason);
    const { result } = outcome;
    return { role: 'assistant', content: { type: 'text', text: result.text }, model: result.model, ...(result.stopReason ? { stopReason: result.stopReason } : {}) };
  });
}
