// The TUI's job queue: what the user sends while an answer is running waits its turn, one job at a
// time, each with its own AbortSignal. It knows nothing about what a job is (turns.ts runs them)
// or what happens to cancelled ones (take-back.ts); it only owns the order, the running job's
// signal and the "is anything running" question the `:commands` and Esc ask.

export interface JobQueueOptions<J> {
  run(job: J, signal: AbortSignal): Promise<void>;
  /** A job was queued behind the running one; `waiting` counts the jobs waiting now. */
  onQueued?(waiting: number): void;
  /** `run` threw. Turns report their failures as events, so this is a bug: shown rather than lost. */
  onCrash(error: unknown): void;
  /** After each job, once the queue no longer counts it as running (flushes, take-back). */
  afterEach?(job: J): void;
}

export interface JobQueue<J> {
  enqueue(job: J): void;
  /**
   * Esc: aborts the running job and takes the waiting ones out of the queue (returned in the
   * order they were sent). Undefined when nothing is running.
   */
  cancel(): J[] | undefined;
  busy(): boolean;
  /** Resolves once nothing is running or waiting. */
  idle(): Promise<void>;
  /**
   * Drops the waiting jobs and aborts the running one at once (synchronously); the promise
   * resolves when it has ended. Nothing is queued after this.
   */
  close(): Promise<void>;
}

export function createJobQueue<J>(options: JobQueueOptions<J>): JobQueue<J> {
  const waiting: J[] = [];
  let current: AbortController | undefined;
  let draining: Promise<void> | undefined;
  let closed = false;

  async function drain(): Promise<void> {
    while (waiting.length > 0 && !closed) {
      const job = waiting.shift()!;
      const controller = new AbortController();
      current = controller;
      try {
        await options.run(job, controller.signal);
      } catch (error) {
        options.onCrash(error);
      } finally {
        current = undefined;
        options.afterEach?.(job);
      }
    }
  }

  return {
    enqueue(job) {
      if (closed) return;
      waiting.push(job);
      if (draining) {
        options.onQueued?.(waiting.length);
        return;
      }
      draining = drain().finally(() => {
        draining = undefined;
      });
    },
    cancel() {
      if (!current) return undefined;
      const taken = waiting.splice(0);
      current.abort();
      return taken;
    },
    busy: () => current !== undefined,
    async idle() {
      while (draining) await draining;
    },
    close() {
      closed = true;
      waiting.splice(0);
      current?.abort();
      return draining?.catch(() => {}) ?? Promise.resolve();
    },
  };
}
