// What reaches the conversation later than a tool call's answer (TUI):
//
// - a task the user moved to the background (`:bg`) ends: its result is shown and given to the
//   model at once, as a message of its own (queued behind a running turn);
// - a server like the seed's async operations (an operation id at once, the result pushed later as
//   a progress notification) reports on a call that already returned: shown as it arrives, and
//   given to the model in front of the next message (it may send many updates; the model should
//   not be woken for each).
//
// Plus the `:bg` and `:tasks` commands. Server text is shown through the status lines (sanitized
// at display time) and reaches the model in the same `[aish]` envelope as tool results.
import { dropSpilledRests } from '../services/shared/spilled-text';
import type { BackgroundedTask, McpEvent, McpService, RunningTaskView } from '../services/mcp/index';

/** Held late reports: the oldest go first past this many. */
const MAX_HELD = 20;
/** One report's text is cut to this many characters (the model gets the start). */
const MAX_NOTE_CHARS = 20_000;

type Status = (level: 'info' | 'warn' | 'error', text: string) => void;

export interface TaskResultsOptions {
  mcp: Pick<McpService, 'subscribe' | 'moveTasksToBackground' | 'runningTasks' | 'cancelTask'>;
  status: Status;
  /** Sends text to the model as a message (the job queue: now when idle, else after the running turn). */
  send: (text: string) => void;
}

function cut(text: string): string {
  return text.length <= MAX_NOTE_CHARS ? text : `${text.slice(0, MAX_NOTE_CHARS)}\n[aish] … cut at ${MAX_NOTE_CHARS} characters`;
}

export function finishedTaskNote(event: Extract<McpEvent, { type: 'task-finished' }>): string {
  const how = event.outcome.kind === 'ok' ? 'completed' : `ended (${event.outcome.kind})`;
  // The note keeps far less than the head of a huge result: its rest in a file is not needed.
  return cut(`[aish] background task ${event.taskId} of ${event.alias}__${event.tool} ${how}. Its result:\n\n${dropSpilledRests(event.outcome.content)}`);
}

export function lateProgressNote(event: Extract<McpEvent, { type: 'late-progress' }>): string {
  const count = event.total !== undefined ? `${event.progress}/${event.total}` : `${event.progress}`;
  return cut(`[aish] ${event.alias}__${event.tool} reported after its call had returned (progress ${count}): ${event.message}`);
}

export function createTaskResults(options: TaskResultsOptions) {
  const held: string[] = [];
  const stop = options.mcp.subscribe((event) => {
    if (event.type === 'task-finished') {
      options.status(event.outcome.isError ? 'warn' : 'info', `background task ${event.taskId} of ${event.alias}__${event.tool} ${event.outcome.kind === 'ok' ? 'completed' : `ended (${event.outcome.kind})`}: its result goes to the model`);
      options.send(finishedTaskNote(event));
    } else if (event.type === 'late-progress') {
      options.status('info', `${event.alias}__${event.tool} (after returning): ${event.message || `progress ${event.progress}`}; the model gets it with your next message`);
      held.push(lateProgressNote(event));
      if (held.length > MAX_HELD) held.shift();
    }
  });
  return {
    /** The late reports not yet given to the model; taking them empties the list. */
    takeHeld(): string[] {
      return held.splice(0, held.length);
    },
    /** `:bg` */
    background(): string[] {
      const moved: BackgroundedTask[] = options.mcp.moveTasksToBackground?.() ?? [];
      if (moved.length === 0) return ['no task call is running in the foreground (:tasks lists the running tasks)'];
      return moved.map((task) => `${task.alias}__${task.tool}: task ${task.taskId} goes on in the background; its result goes to the model when it completes`);
    },
    /** `:tasks` */
    list(): string[] {
      const running: RunningTaskView[] = options.mcp.runningTasks?.() ?? [];
      if (running.length === 0) return ['no MCP task is running'];
      return running.map((task, index) => `${index + 1}. ${task.alias}__${task.tool}  task ${task.taskId}  ${task.status}${task.message ? `: ${task.message}` : ''}  (${task.background ? 'background' : 'foreground: :bg moves it, Esc cancels'})`);
    },
    /** `:tasks cancel <n|id>` */
    cancel(which: string): string[] {
      if (which.length === 0) return ['usage: :tasks cancel <n|id> (:tasks lists the running tasks, numbered)'];
      const cancelled = options.mcp.cancelTask?.(which) ?? 'tasks cannot be cancelled here';
      if (typeof cancelled === 'string') return [cancelled];
      return [`${cancelled.alias}__${cancelled.tool}: task ${cancelled.taskId} cancelled (tasks/cancel sent)`];
    },
    stop,
  };
}

export type TaskResults = ReturnType<typeof createTaskResults>;
