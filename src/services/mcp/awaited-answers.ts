import { ProtocolError, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';

// What an HTTP transport still owes the client: the requests sent whose answers have not come
// back. The SDK keeps this to itself; the watched transports need it to fail exactly the calls a
// broken stream took with it, and the liveness check needs it to leave a busy server alone.

export type RequestId = string | number;
type MessageHandler = NonNullable<Transport['onmessage']>;

/** Plain shape checks: every message passes here, so no schema parsing. */
function requestId(message: JSONRPCMessage): RequestId | undefined {
  const record = message as { id?: unknown; method?: unknown };
  return typeof record.method === 'string' && (typeof record.id === 'string' || typeof record.id === 'number') ? record.id : undefined;
}

function answeredId(message: JSONRPCMessage): RequestId | undefined {
  const record = message as { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
  if (record.method !== undefined || (record.result === undefined && record.error === undefined)) return undefined;
  return typeof record.id === 'string' || typeof record.id === 'number' ? record.id : undefined;
}

function cancelledId(message: JSONRPCMessage): RequestId | undefined {
  const record = message as { method?: unknown; params?: { requestId?: unknown } };
  if (record.method !== 'notifications/cancelled') return undefined;
  const id = record.params?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/**
 * Why a call's answer can no longer arrive. It travels as the `data` of an error answer made up
 * on our side; a server's JSON can never produce an instance of this class, so a call can tell a
 * lost answer from an error the server sent.
 */
export class LostAnswer {
  constructor(readonly reason: string) {}
}

/** The reason, when `error` is a call's lost answer rather than anything the server said. */
export function lostAnswerReason(error: unknown): string | undefined {
  if (!ProtocolError.isInstance(error)) return undefined;
  const data = (error as ProtocolError).data;
  return data instanceof LostAnswer ? data.reason : undefined;
}

/**
 * Requests sent of the client's own accord, with their own timeout: a server that has not answered
 * one yet is not busy with calls, so the liveness check still pings it (a server stopped right
 * after `logging/setLevel` went out must still be found).
 */
const HOUSEKEEPING_METHODS: ReadonlySet<string> = new Set(['logging/setLevel']);

export class AwaitedAnswers {
  private readonly ids = new Set<RequestId>();
  private handler: MessageHandler | undefined;
  /** performance.now() of the last message from the server. */
  lastHeardAt = performance.now();

  /**
   * Makes `transport.onmessage` note every incoming message before the client's handler sees it.
   * The client assigns its handler when it connects, so the property is intercepted, not wrapped.
   */
  constructor(transport: Transport) {
    Object.defineProperty(transport, 'onmessage', {
      configurable: true,
      enumerable: true,
      get: (): MessageHandler | undefined =>
        this.handler &&
        ((message: JSONRPCMessage, ...rest: unknown[]) => {
          this.lastHeardAt = performance.now();
          const id = answeredId(message);
          if (id !== undefined) this.ids.delete(id);
          // Whatever else the transport passes along (request info) goes on unchanged.
          (this.handler as ((message: JSONRPCMessage, ...rest: unknown[]) => void) | undefined)?.(message, ...rest);
        }),
      set: (value: MessageHandler | undefined) => {
        this.handler = value;
      },
    });
  }

  /** How many requests still wait for their answers. */
  get size(): number {
    return this.ids.size;
  }

  /**
   * Notes a message on its way out; returns the id of a request that now waits for its answer.
   * A request the client gives up on (its signal aborts, or it sends a cancellation) stops waiting.
   */
  noteOutgoing(message: JSONRPCMessage, requestSignal: AbortSignal | undefined): RequestId | undefined {
    const cancelled = cancelledId(message);
    if (cancelled !== undefined) this.ids.delete(cancelled);
    const id = requestId(message);
    if (id === undefined || HOUSEKEEPING_METHODS.has((message as { method: string }).method)) return undefined;
    this.ids.add(id);
    requestSignal?.addEventListener('abort', () => this.ids.delete(id), { once: true });
    return id;
  }

  /** Whether the request `id` still waits for its answer. */
  has(id: RequestId): boolean {
    return this.ids.has(id);
  }

  /** Stops waiting for `id`; true when it was still waiting (its answer had not come). */
  forget(id: RequestId): boolean {
    return this.ids.delete(id);
  }

  /** Every request still waiting, which then stops waiting. */
  takeAll(): RequestId[] {
    const ids = [...this.ids];
    this.ids.clear();
    return ids;
  }

  /**
   * Ends the request `id` with an error answer carrying `reason`, as if the server had sent it:
   * the client's pending call rejects at once instead of waiting for its timeout.
   */
  fail(id: RequestId, reason: string): void {
    this.ids.delete(id);
    const message = { jsonrpc: '2.0' as const, id, error: { code: -32000, message: reason, data: new LostAnswer(reason) } };
    this.handler?.(message as JSONRPCMessage);
  }
}
