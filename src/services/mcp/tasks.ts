import { specTypeSchemas, type CallToolResult, type Client } from '@modelcontextprotocol/client';

// One tool call made as an MCP task (2025-11-25, SEP-1686): `tools/call` with a `task` field is
// answered at once with a task id; `tasks/get` is polled at the interval the server suggests
// until the task ends; `tasks/result` then gives the tool's result. While the task waits for
// input (`input_required`) `tasks/result` is asked at once: the server delivers its questions
// (elicitation) on that request, answered through the client's usual handlers, and answers it when
// the task ends. `tasks/cancel` stops it. The SDK has the wire schemas but no task runtime, so the
// requests go through `client.request` with those schemas.

/** How long the server is asked to keep the task and its result (it may choose another). */
const TASK_TTL_MS = 30 * 60_000;
/** Bounds on the server's suggested poll interval: never busy-polling, never minutes apart. */
const MIN_POLL_MS = 200;
const MAX_POLL_MS = 5_000;
const DEFAULT_POLL_MS = 1_000;

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

interface TaskState {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  pollInterval?: number;
}

export type TaskEnd = { status: 'completed' | 'failed'; result: CallToolResult } | { status: 'failed' | 'cancelled'; reason: string };

type AnySchema = Parameters<Client['request']>[1];
const schema = (name: 'CreateTaskResult' | 'GetTaskResult' | 'CallToolResult' | 'CancelTaskResult') => specTypeSchemas[name] as unknown as AnySchema;

function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

export function pollDelay(suggested: number | undefined): number {
  if (suggested === undefined || !Number.isFinite(suggested)) return DEFAULT_POLL_MS;
  return Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, suggested));
}

export class ToolTask {
  private stopped = false;
  private wake: (() => void) | undefined;
  private following: Promise<TaskEnd> | undefined;

  private constructor(
    private readonly client: Client,
    private state: TaskState,
    private readonly onStatus: (status: TaskStatus, message: string | undefined) => void,
    /** Every answered poll, changed or not: the server is alive (the call's silence limit restarts). */
    private readonly onAlive: () => void = () => {},
  ) {}

  /**
   * Resolves once the task ended (or the client stopped following it); never rejects. Following
   * (and reporting the status) starts on the first read, once the caller has registered the task.
   */
  get finished(): Promise<TaskEnd> {
    this.following ??= this.follow().catch((error: unknown) =>
      this.stopped ? { status: 'cancelled' as const, reason: 'the task was cancelled' } : { status: 'failed' as const, reason: (error as Error).message ?? String(error) },
    );
    return this.following;
  }

  /** Creates the task (`tools/call` with `task`); rejects like a plain call when the server refuses. */
  static async start(
    client: Client,
    call: { name: string; arguments: Record<string, unknown> },
    options: { signal?: AbortSignal; timeoutMs: number; onStatus: (status: TaskStatus, message: string | undefined) => void; onAlive?: () => void },
  ): Promise<ToolTask> {
    const created = (await client.request(
      { method: 'tools/call', params: { ...call, task: { ttl: TASK_TTL_MS } } } as never,
      schema('CreateTaskResult'),
      { ...(options.signal ? { signal: options.signal } : {}), timeout: options.timeoutMs },
    )) as { task: TaskState };
    return new ToolTask(client, created.task, options.onStatus, options.onAlive);
  }

  get taskId(): string {
    return this.state.taskId;
  }

  get status(): TaskStatus {
    return this.state.status;
  }

  get statusMessage(): string | undefined {
    return this.state.statusMessage;
  }

  /** Asks the server to cancel the task (`tasks/cancel`) and stops following it. */
  async cancel(): Promise<void> {
    const running = !isTerminal(this.state.status);
    this.stop();
    if (!running) return;
    await this.client.request({ method: 'tasks/cancel', params: { taskId: this.taskId } } as never, schema('CancelTaskResult'), { timeout: 5_000 });
  }

  /** Stops polling (the connection is gone or the app closes); `finished` resolves as cancelled. */
  stop(): void {
    this.stopped = true;
    this.wake?.();
  }

  private async follow(): Promise<TaskEnd> {
    let shown = '';
    for (;;) {
      const key = `${this.state.status}\u0000${this.state.statusMessage ?? ''}`;
      if (key !== shown) {
        shown = key;
        this.onStatus(this.state.status, this.state.statusMessage);
      }
      if (this.stopped) return { status: 'cancelled', reason: 'the task was cancelled' };
      if (this.state.status === 'cancelled') return { status: 'cancelled', reason: this.state.statusMessage ?? 'the server cancelled the task' };
      if (isTerminal(this.state.status) || this.state.status === 'input_required') return this.result();
      await this.pause(pollDelay(this.state.pollInterval));
      if (this.stopped) continue;
      this.state = (await this.client.request({ method: 'tasks/get', params: { taskId: this.taskId } } as never, schema('GetTaskResult'))) as TaskState;
      this.onAlive();
    }
  }

  /** `tasks/result`: waits for the end of the task on the server (answering its questions meanwhile). */
  private async result(): Promise<TaskEnd> {
    const controller = new AbortController();
    this.wake = () => controller.abort();
    // No timeout of its own: the server holds the request until the task ends; stop() ends the wait.
    const result = (await this.client.request({ method: 'tasks/result', params: { taskId: this.taskId } } as never, schema('CallToolResult'), {
      signal: controller.signal,
      timeout: TASK_TTL_MS,
    })) as CallToolResult;
    const failed = this.state.status === 'failed' || result.isError === true;
    if (!isTerminal(this.state.status)) this.state = { ...this.state, status: failed ? 'failed' : 'completed' };
    this.onStatus(this.state.status, this.state.statusMessage);
    return { status: failed ? 'failed' : 'completed', result };
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
