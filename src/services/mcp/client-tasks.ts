import { randomUUID } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode, type Result, type Task } from '@modelcontextprotocol/client';

// Tasks the client runs for a server (MCP 2025-11-25, "tasks", receiver side): a server's
// `sampling/createMessage` or `elicitation/create` with a `task` field is answered at once with a
// task id, and the same user-facing flow (sampling frame, elicitation form) runs in the background.
// The server asks `tasks/get`, `tasks/result` (held until the task ends), `tasks/list` and
// `tasks/cancel`. One store per connection, so a server only ever sees its own tasks. The SDK has
// the wire types but no task runtime, hence this small in-memory store: bounded, and a task is
// dropped once its ttl has passed (its work is stopped if still running).

export type ClientTaskStatus = Task['status'];

/** What the work ended with: the request's result, or the JSON-RPC error it would have answered. */
export type ClientTaskOutcome = { result: Result } | { error: { code: number; message: string; data?: unknown } };

export interface ClientTaskLimits {
  /** Tasks kept per connection (finished ones are dropped oldest first to make room). */
  maxTasks: number;
  /** Upper bound on the ttl a server may ask for. */
  maxTtlMs: number;
  /** The ttl when the server asks for none. */
  defaultTtlMs: number;
  /** Suggested to the server for `tasks/get` polling. */
  pollIntervalMs: number;
}

export const DEFAULT_CLIENT_TASK_LIMITS: ClientTaskLimits = { maxTasks: 32, maxTtlMs: 60 * 60_000, defaultTtlMs: 10 * 60_000, pollIntervalMs: 1_000 };

interface Entry {
  taskId: string;
  status: ClientTaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  ttl: number;
  controller: AbortController;
  outcome?: ClientTaskOutcome;
  waiters: Array<() => void>;
  expiry: ReturnType<typeof setTimeout>;
}

const isTerminal = (status: ClientTaskStatus) => status === 'completed' || status === 'failed' || status === 'cancelled';

function unknownTask(taskId: string): ProtocolError {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown task: ${taskId.slice(0, 100)}`);
}

export class ClientTaskStore {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly limits: ClientTaskLimits = DEFAULT_CLIENT_TASK_LIMITS,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A new task in `working`; its `signal` stops the work (cancel, expiry, connection closed).
   * Throws when the store is full of running tasks.
   */
  create(requestedTtl: number | undefined, statusMessage?: string): { task: Task; signal: AbortSignal } {
    this.makeRoom();
    const ttl = requestedTtl !== undefined && Number.isFinite(requestedTtl) && requestedTtl > 0 ? Math.min(requestedTtl, this.limits.maxTtlMs) : this.limits.defaultTtlMs;
    const now = this.now();
    const taskId = randomUUID();
    const expiry = setTimeout(() => this.expire(taskId), ttl);
    expiry.unref?.();
    const entry: Entry = { taskId, status: 'working', createdAt: now, lastUpdatedAt: now, ttl, controller: new AbortController(), waiters: [], expiry, ...(statusMessage ? { statusMessage } : {}) };
    this.entries.set(taskId, entry);
    return { task: this.view(entry), signal: entry.controller.signal };
  }

  /** `tasks/get`. */
  get(taskId: string): Task {
    return this.view(this.entry(taskId));
  }

  /** `tasks/list`: every task this connection's server has, oldest first. */
  list(): Task[] {
    this.sweep();
    return [...this.entries.values()].map((entry) => this.view(entry));
  }

  /** The work ended: `completed` with its result, `failed` with its error. Ignored once the task ended. */
  finish(taskId: string, outcome: ClientTaskOutcome): void {
    const entry = this.entries.get(taskId);
    if (!entry || isTerminal(entry.status)) return;
    entry.outcome = outcome;
    this.settle(entry, 'result' in outcome ? 'completed' : 'failed', 'error' in outcome ? outcome.error.message : undefined);
  }

  /** `tasks/cancel`: stops the work; a task that already ended cannot be cancelled (spec: -32602). */
  cancel(taskId: string, reason = 'cancelled by the server'): Task {
    const entry = this.entry(taskId);
    if (isTerminal(entry.status)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task: already in terminal status '${entry.status}'`);
    this.settle(entry, 'cancelled', reason);
    entry.controller.abort(new Error(reason));
    return this.view(entry);
  }

  /** `tasks/result`: waits until the task ended, then gives the request's result or throws its error. */
  async result(taskId: string, signal?: AbortSignal): Promise<Result> {
    const entry = this.entry(taskId);
    if (!isTerminal(entry.status)) {
      await new Promise<void>((resolve, reject) => {
        const stop = () => reject(signal?.reason instanceof Error ? signal.reason : new Error('the request was cancelled'));
        if (signal?.aborted) return stop();
        signal?.addEventListener('abort', stop, { once: true });
        entry.waiters.push(() => {
          signal?.removeEventListener('abort', stop);
          resolve();
        });
      });
    }
    const outcome = entry.outcome;
    if (outcome && 'result' in outcome) return outcome.result;
    if (outcome) throw new ProtocolError(outcome.error.code, outcome.error.message, outcome.error.data);
    throw new ProtocolError(ProtocolErrorCode.InternalError, `task ${entry.status}: ${entry.statusMessage ?? 'no result'}`);
  }

  /** The connection is gone: running work stops, waiting `tasks/result` requests end. */
  closeAll(): void {
    for (const entry of this.entries.values()) {
      clearTimeout(entry.expiry);
      if (!isTerminal(entry.status)) {
        this.settle(entry, 'cancelled', 'the connection closed');
        entry.controller.abort(new Error('the connection closed'));
      }
    }
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private entry(taskId: string): Entry {
    this.sweep();
    const entry = this.entries.get(taskId);
    if (!entry) throw unknownTask(taskId);
    return entry;
  }

  private settle(entry: Entry, status: ClientTaskStatus, statusMessage: string | undefined): void {
    entry.status = status;
    entry.lastUpdatedAt = this.now();
    if (statusMessage) entry.statusMessage = statusMessage;
    else delete entry.statusMessage;
    for (const wake of entry.waiters.splice(0)) wake();
  }

  /** Past its ttl a task is gone (the timer covers idle stores; this covers a clock that moved). */
  private sweep(): void {
    const now = this.now();
    for (const entry of [...this.entries.values()]) if (now - entry.createdAt >= entry.ttl) this.expire(entry.taskId);
  }

  private expire(taskId: string): void {
    const entry = this.entries.get(taskId);
    if (!entry) return;
    clearTimeout(entry.expiry);
    this.entries.delete(taskId);
    if (!isTerminal(entry.status)) {
      this.settle(entry, 'cancelled', 'the task expired (ttl)');
      entry.controller.abort(new Error('the task expired'));
    }
  }

  private makeRoom(): void {
    this.sweep();
    if (this.entries.size < this.limits.maxTasks) return;
    const finished = [...this.entries.values()].find((entry) => isTerminal(entry.status));
    if (!finished) throw new ProtocolError(ProtocolErrorCode.InternalError, `too many running tasks (${this.limits.maxTasks}); try again later`);
    clearTimeout(finished.expiry);
    this.entries.delete(finished.taskId);
  }

  private view(entry: Entry): Task {
    return {
      taskId: entry.taskId,
      status: entry.status,
      ttl: entry.ttl,
      createdAt: new Date(entry.createdAt).toISOString(),
      lastUpdatedAt: new Date(entry.lastUpdatedAt).toISOString(),
      pollInterval: this.limits.pollIntervalMs,
      ...(entry.statusMessage ? { statusMessage: entry.statusMessage } : {}),
    };
  }
}
