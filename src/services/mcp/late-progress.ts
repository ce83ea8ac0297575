import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';

// Servers built like the seed's async operations (R2-R3: an operation id at once, the result later
// "via an MCP progress notification") keep sending `notifications/progress` for a call that has
// already returned. The SDK forgets a call's progress token once its answer arrives, so those
// notifications would be dropped; this watches the transport for them and hands each one on with
// the tool that was called. Tokens are kept for the last MAX_KEPT calls only. A call answered with
// a task (CreateTaskResult) is left out: its task is polled (tasks.ts).

const MAX_KEPT = 64;

type Token = string | number;

export interface LateProgress {
  tool: string;
  progress: number;
  total?: number;
  message?: string;
}

function isToken(value: unknown): value is Token {
  return typeof value === 'string' || typeof value === 'number';
}

export function watchLateProgress(transport: Transport, report: (late: LateProgress) => void): void {
  /** Request id -> the call it belongs to, while it runs. */
  const running = new Map<Token, { tool: string; token: Token }>();
  /** Progress token -> tool, for calls that returned (oldest first). */
  const returned = new Map<Token, string>();

  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const request = message as { id?: unknown; method?: unknown; params?: { name?: unknown; _meta?: { progressToken?: unknown } } };
    const token = request.params?._meta?.progressToken;
    if (request.method === 'tools/call' && isToken(request.id) && isToken(token) && typeof request.params?.name === 'string') {
      running.set(request.id, { tool: request.params.name, token });
    }
    return send(message, options);
  };

  const look = (message: JSONRPCMessage): void => {
    const answer = message as { id?: unknown; method?: unknown; result?: { task?: unknown }; params?: Record<string, unknown> };
    if (isToken(answer.id) && answer.method === undefined) {
      const call = running.get(answer.id);
      if (!call) return;
      running.delete(answer.id);
      if (answer.result && answer.result.task !== undefined) return;
      returned.set(call.token, call.tool);
      if (returned.size > MAX_KEPT) returned.delete(returned.keys().next().value as Token);
      return;
    }
    if (answer.method !== 'notifications/progress' || !answer.params) return;
    const tool = isToken(answer.params.progressToken) ? returned.get(answer.params.progressToken) : undefined;
    const progress = answer.params.progress;
    if (tool === undefined || typeof progress !== 'number') return;
    report({
      tool,
      progress,
      ...(typeof answer.params.total === 'number' ? { total: answer.params.total } : {}),
      ...(typeof answer.params.message === 'string' ? { message: answer.params.message } : {}),
    });
  };

  // Same hand-on as tool-list-guard.ts: another wrapper may already intercept the property.
  type Handler = NonNullable<Transport['onmessage']>;
  const previous = Object.getOwnPropertyDescriptor(transport, 'onmessage');
  let current: Handler | undefined;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: (): Handler | undefined => (previous?.get ? (previous.get.call(transport) as Handler | undefined) : current),
    set: (handler: Handler | undefined) => {
      current =
        handler &&
        (((message, extra) => {
          try {
            look(message);
          } catch {
            // Watching must never stop a message from reaching the client.
          }
          handler(message, extra);
        }) as Handler);
      if (previous?.set) previous.set.call(transport, current);
    },
  });
}
