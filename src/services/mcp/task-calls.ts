import type { CallToolResult } from '@modelcontextprotocol/client';
import type { CallGuard } from './call-timeout';
import { ToolTask, type TaskEnd } from './tasks';
import type { BackgroundedTask, CallToolOptions, McpEvent, RunningTaskView, ToolCallOutcome } from './types';

// The task calls in flight, for the whole manager: a turn waits on its foreground tasks; `:bg`
// (moveToBackground) answers those calls at once and lets their tasks go on; a background task's
// end is an event (`task-finished`) the front end shows and gives to the model.

interface Entry {
  alias: string;
  tool: string;
  task: ToolTask;
  background: boolean;
  /** Ends the turn's wait (foreground only). */
  detach: () => void;
  /** `:tasks cancel`: a foreground call ends as cancelled; a background task is cancelled on the server. */
  cancel: () => void;
}

export class TaskRegistry {
  private readonly entries = new Set<Entry>();

  add(entry: Entry): () => void {
    this.entries.add(entry);
    return () => this.entries.delete(entry);
  }

  moveToBackground(): BackgroundedTask[] {
    const moved: BackgroundedTask[] = [];
    for (const entry of this.entries) {
      if (entry.background) continue;
      entry.background = true;
      entry.detach();
      moved.push({ alias: entry.alias, tool: entry.tool, taskId: entry.task.taskId });
    }
    return moved;
  }

  /**
   * `:tasks cancel <n|id>`: `which` is a 1-based number in list() order or a task id (or its
   * start). Sends `tasks/cancel`; a background task's end then reaches the model as cancelled.
   */
  cancel(which: string): BackgroundedTask | string {
    const entries = [...this.entries];
    const number = /^\d+$/.test(which) ? Number(which) : undefined;
    const matches = number !== undefined && number >= 1 && number <= entries.length ? [entries[number - 1]!] : entries.filter((entry) => entry.task.taskId === which || entry.task.taskId.startsWith(which));
    if (matches.length === 0) return `no running task ${which} (:tasks lists them, numbered)`;
    if (matches.length > 1) return `${which} names ${matches.length} tasks; give more of the task id`;
    const entry = matches[0]!;
    entry.cancel();
    return { alias: entry.alias, tool: entry.tool, taskId: entry.task.taskId };
  }

  list(): RunningTaskView[] {
    return [...this.entries].map((entry) => ({
      alias: entry.alias,
      tool: entry.tool,
      taskId: entry.task.taskId,
      status: entry.task.status,
      ...(entry.task.statusMessage !== undefined ? { message: entry.task.statusMessage } : {}),
      background: entry.background,
    }));
  }

  /** The server's connection is gone (or the app closes): its tasks are no longer followed. */
  stopServer(alias?: string): void {
    for (const entry of this.entries) if (alias === undefined || entry.alias === alias) entry.task.stop();
  }
}

export type TaskCallEnd = { kind: 'ended'; end: TaskEnd } | { kind: 'cancelled' } | { kind: 'background'; taskId: string };

export interface TaskCallContext {
  alias: string;
  tool: string;
  registry: TaskRegistry;
  /** Each status the task reports is a sign of life: the call's silence limit starts again. */
  clock: Pick<CallGuard, 'progress'>;
  /** Turns a background task's end into the outcome the model is given (flattening, redaction). */
  outcomeOf: (end: TaskEnd) => ToolCallOutcome;
  emit: (event: McpEvent) => void;
  redact: (text: string) => string;
}

/**
 * Runs one task call: waits for its end, for the caller's cancel (then `tasks/cancel`), or for
 * `:bg`. `start` creates the task (it throws like a plain call when the server refuses it).
 */
export async function followTaskCall(start: (onStatus: (status: string, message: string | undefined) => void) => Promise<ToolTask>, options: CallToolOptions, context: TaskCallContext): Promise<TaskCallEnd> {
  const onStatus = (status: string, message: string | undefined) => {
    context.clock.progress();
    options.onProgress?.({ progress: Number.NaN, task: status, ...(message !== undefined ? { message: context.redact(message) } : {}) });
  };
  const task = await start(onStatus);
  let detach: () => void = () => {};
  const detached = new Promise<'background'>((resolve) => {
    detach = () => resolve('background');
  });
  let cancelForeground: () => void = () => {};
  const entry: Entry = {
    alias: context.alias,
    tool: context.tool,
    task,
    background: false,
    detach,
    // In the background nobody waits on the race any more: the task itself is cancelled, and its
    // end (cancelled) reaches the model through `task-finished`.
    cancel: () => (entry.background ? void task.cancel().catch(() => {}) : cancelForeground()),
  };
  const remove = context.registry.add(entry);
  const cancelled = new Promise<'cancelled'>((resolve) => {
    cancelForeground = () => resolve('cancelled');
    if (options.signal?.aborted) resolve('cancelled');
    options.signal?.addEventListener('abort', () => resolve('cancelled'), { once: true });
  });
  const first = await Promise.race([task.finished, detached, cancelled]);
  if (first === 'cancelled') {
    remove();
    // Told to the server; a server that cannot be reached any more has nothing left to stop.
    await task.cancel().catch(() => {});
    return { kind: 'cancelled' };
  }
  if (first === 'background') {
    void task.finished.then((end) => {
      remove();
      context.emit({ type: 'task-finished', alias: context.alias, tool: context.tool, taskId: task.taskId, outcome: context.outcomeOf(end) });
    });
    return { kind: 'background', taskId: task.taskId };
  }
  remove();
  return { kind: 'ended', end: first };
}

export type { CallToolResult, TaskEnd };
