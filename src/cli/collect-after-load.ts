// After a long session is resumed the heap holds its history and the garbage of reading it. V8
// collects that only when the app next allocates (or, idle, about eight seconds later: its memory
// reducer), so a question asked soon after resuming paid a full collection of the whole history in
// the middle of its first answer: in a session of 20,000 messages about 20 ms on the main thread
// and 90 ms of marking beside it (BENCHMARKS.md). One collection a moment after the first frame,
// while the user reads, moves it out of the way; later answers never meet it again.
//
// Node gives no collection call without `--expose-gc`, which an installed command does not
// control. The flag set at run time exposes `gc` to contexts made after it only: the main context
// (and every module in it) never gets a global `gc`.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Histories from this long on are collected after loading; shorter ones leave little garbage. */
export const LONG_HISTORY_MESSAGES = 2_000;
/** After the first frame: long enough for the frame itself and the idle warm-ups to go first. */
const COLLECT_AFTER_MS = 250;

let collector: (() => void) | undefined;

/** One full, synchronous collection. */
export function collectGarbage(): void {
  if (!collector) {
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as () => void;
  }
  collector();
}

/** Schedules one collection when `messages` were loaded; returns whether it did. */
export function collectAfterLoad(messages: number, delayMs = COLLECT_AFTER_MS): boolean {
  if (messages < LONG_HISTORY_MESSAGES) return false;
  setTimeout(() => {
    try {
      collectGarbage();
    } catch {
      // Only a head start: V8 collects on its own anyway.
    }
  }, delayMs).unref();
  return true;
}
