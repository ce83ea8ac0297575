import { describe, expect, it } from 'vitest';
import { createJobQueue } from '../../../src/runtime/job-queue';

/** A job that runs until the test lets it end (or its signal aborts it). */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

function recordingQueue() {
  const log: string[] = [];
  const gates = new Map<string, ReturnType<typeof gate>>();
  const signals = new Map<string, AbortSignal>();
  const queue = createJobQueue<string>({
    async run(job, signal) {
      log.push(`start ${job}`);
      signals.set(job, signal);
      const g = gate();
      gates.set(job, g);
      signal.addEventListener('abort', () => g.open());
      if (job === 'boom') throw new Error('bug');
      await g.opened;
      log.push(`end ${job}`);
    },
    onQueued: (waiting) => log.push(`queued ${waiting}`),
    onCrash: (error) => log.push(`crash ${(error as Error).message}`),
    afterEach: () => log.push(`after ${queue.busy() ? 'busy' : 'free'}`),
  });
  return { queue, log, gates, signals };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the job queue', () => {
  it('runs one job at a time, in the order sent, and says how many wait', async () => {
    const { queue, log, gates } = recordingQueue();
    queue.enqueue('a');
    queue.enqueue('b');
    queue.enqueue('c');
    await tick();
    expect(queue.busy()).toBe(true);
    expect(log).toEqual(['start a', 'queued 1', 'queued 2']);
    gates.get('a')!.open();
    await tick();
    gates.get('b')!.open();
    await tick();
    gates.get('c')!.open();
    await queue.idle();
    expect(log).toEqual(['start a', 'queued 1', 'queued 2', 'end a', 'after free', 'start b', 'end b', 'after free', 'start c', 'end c', 'after free']);
    expect(queue.busy()).toBe(false);
  });

  it('cancel aborts the running job and hands back the waiting ones; nothing running: undefined', async () => {
    const { queue, log, signals } = recordingQueue();
    expect(queue.cancel()).toBeUndefined();
    queue.enqueue('a');
    queue.enqueue('b');
    queue.enqueue('c');
    await tick();
    expect(queue.cancel()).toEqual(['b', 'c']);
    expect(signals.get('a')!.aborted).toBe(true);
    await queue.idle();
    expect(log.filter((line) => line.startsWith('start'))).toEqual(['start a']);
  });

  it('a job that throws is reported and the next one still runs', async () => {
    const { queue, log, gates } = recordingQueue();
    queue.enqueue('boom');
    queue.enqueue('next');
    await tick();
    gates.get('next')?.open();
    await tick();
    gates.get('next')!.open();
    await queue.idle();
    expect(log).toEqual(['start boom', 'queued 1', 'crash bug', 'after free', 'start next', 'end next', 'after free']);
  });

  it('close drops the waiting jobs, aborts the running one and refuses new ones', async () => {
    const { queue, log, signals } = recordingQueue();
    queue.enqueue('a');
    queue.enqueue('b');
    await tick();
    const closed = queue.close();
    // Synchronous: by the time close returns the running job is aborted.
    expect(signals.get('a')!.aborted).toBe(true);
    await closed;
    queue.enqueue('c');
    await queue.idle();
    expect(log.filter((line) => line.startsWith('start'))).toEqual(['start a']);
  });
});
