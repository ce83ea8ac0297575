import { Client, RELATED_TASK_META_KEY, type ClientContext, type JSONRPCRequest, type Result } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { ClientTaskStore } from './client-tasks';

// The SDK client, plus the receiver side of MCP tasks for what a server asks of the client
// (client-tasks.ts). A task-augmented `sampling/createMessage` or `elicitation/create` is answered
// at once with the task, and the handler registered for it (the same frame, form, limits and
// guards as a plain request, including the SDK's own checks of request and result) runs with the
// task's signal. `_wrapHandler` is the SDK's documented hook for this; the `tasks/*` requests are
// registered with explicit schemas because the SDK keeps them off its typed method surface.

type Handler = (request: JSONRPCRequest, ctx: ClientContext) => Promise<Result>;
type Options = ConstructorParameters<typeof Client>[1];

const TASK_METHODS = { 'sampling/createMessage': 'sampling', 'elicitation/create': 'elicitation' } as const;
const taskIdParams = z.looseObject({ taskId: z.string() });
const listParams = z.looseObject({ cursor: z.string().optional() });

function taskRequested(params: unknown): { ttl?: number } | undefined {
  const task = (params as { task?: unknown } | undefined)?.task;
  if (!task || typeof task !== 'object' || Array.isArray(task)) return undefined;
  const ttl = (task as { ttl?: unknown }).ttl;
  return typeof ttl === 'number' ? { ttl } : {};
}

function errorOf(error: unknown): { code: number; message: string; data?: unknown } {
  const code = (error as { code?: unknown }).code;
  const data = (error as { data?: unknown }).data;
  return {
    code: typeof code === 'number' && Number.isSafeInteger(code) ? code : -32603,
    message: (error as Error).message ?? String(error),
    ...(data !== undefined ? { data } : {}),
  };
}

export class TaskAwareClient extends Client {
  /** Set after `super()` (which may wrap handlers before this class's fields exist). */
  private clientTasks: ClientTaskStore | undefined;
  /** What `tasks.requests` declares (sampling, elicitation): only those are run as tasks. */
  private taskRequests: Record<string, unknown> = {};

  constructor(info: ConstructorParameters<typeof Client>[0], options?: Options) {
    super(info, options);
    const tasks = options?.capabilities?.tasks;
    if (!tasks) return;
    this.taskRequests = (tasks.requests ?? {}) as Record<string, unknown>;
    this.clientTasks = new ClientTaskStore();
    const store = this.clientTasks;
    this.setRequestHandler('tasks/get', { params: taskIdParams }, (params) => store.get(params.taskId));
    this.setRequestHandler('tasks/result', { params: taskIdParams }, async (params, ctx) => {
      const result = await store.result(params.taskId, ctx.mcpReq.signal);
      return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId: params.taskId } } };
    });
    if (tasks.list) this.setRequestHandler('tasks/list', { params: listParams }, () => ({ tasks: store.list() }));
    if (tasks.cancel) this.setRequestHandler('tasks/cancel', { params: taskIdParams }, (params) => store.cancel(params.taskId));
  }

  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const checked = super._wrapHandler(method, handler);
    const feature = TASK_METHODS[method as keyof typeof TASK_METHODS];
    if (!feature) return checked;
    return async (request, ctx) => {
      const requested = taskRequested(request.params);
      const store = this.clientTasks;
      // Not declared for this request: the spec says to ignore `task` and answer as usual.
      if (!requested || !store || !this.declaresTaskFor(feature)) return checked(request, ctx);
      const { task: _task, ...params } = request.params as Record<string, unknown>;
      const created = store.create(requested.ttl, feature === 'elicitation' ? 'waiting for the user to answer' : 'waiting for approval and the model');
      const taskCtx = { ...ctx, mcpReq: { ...ctx.mcpReq, signal: created.signal } } as ClientContext;
      void checked({ ...request, params } as JSONRPCRequest, taskCtx).then(
        (result) => store.finish(created.task.taskId, { result }),
        (error: unknown) => store.finish(created.task.taskId, { error: errorOf(error) }),
      );
      return { task: created.task } as Result;
    };
  }

  protected override _onclose(): void {
    this.clientTasks?.closeAll();
    super._onclose();
  }

  private declaresTaskFor(feature: 'sampling' | 'elicitation'): boolean {
    return this.taskRequests[feature] !== undefined;
  }
}

