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
//
// Twenty servers connecting at once leave the opposite: little garbage, but an old generation that
// grew to hold their start-up's short-lived objects (the young generation is kept small, see
// young-generation.ts) and keeps those pages, half empty, until the memory reducer compacts it
// about ten seconds later: 15 MB of resident memory for nothing meanwhile. Once every server has
// settled, one compacting collection gives them back at once.
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Histories from this long on are collected after loading; shorter ones leave little garbage. */
export const LONG_HISTORY_MESSAGES = 2_000;
/** After the first frame: long enough for the frame itself and the idle warm-ups to go first. */
const COLLECT_AFTER_MS = 250;
/**
 * How long nothing may have happened before the compaction after the servers settle: longer than
 * the pauses within typing, so that the compaction's pause (about 50 ms) meets an idle app.
 */
const COMPACT_AFTER_QUIET_MS = 1000;

let collector: (() => void) | undefined;

/**
 * Compact after the servers settle only when at least this much of the old generation is empty,
 * or when it grew by COMPACT_WHEN_GROWN_BYTES since the first frame (its garbage not collected yet).
 * The app's own loading after the first frame grows it by about 13 MB with no server but the
 * built-in one, where a compaction gives back about 3.5 MB for 45 ms of CPU; twenty servers grow
 * it by 21-25 MB, and a compaction gives back 13-15 MB.
 */
export const COMPACT_WHEN_EMPTY_BYTES = 8 * 1024 * 1024;
export const COMPACT_WHEN_GROWN_BYTES = 16 * 1024 * 1024;
const COMPACT_FLAG = /--compact[-_]on[-_]every[-_]full[-_]gc/;

/**
 * One full, synchronous collection. With `compact`, what survives is also moved onto as few pages
 * as it needs and the emptied pages are given back, as V8's memory reducer does after a while idle.
 */
export function collectGarbage({ compact = false }: { compact?: boolean } = {}): void {
  if (!collector) {
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as () => void;
  }
  // Someone who asked node to compact on every full collection keeps that.
  const userCompacts = COMPACT_FLAG.test(`${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`);
  if (compact && !userCompacts) setFlagsFromString('--compact-on-every-full-gc');
  try {
    collector();
  } finally {
    if (compact && !userCompacts) setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

const oldSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');

/** Bytes of the old generation that are held but hold nothing. */
export function emptyOldGenerationBytes(): number {
  const old = oldSpace();
  return old ? old.space_size - old.space_used_size : 0;
}

/** Bytes the old generation holds, used or not. */
export function oldGenerationBytes(): number {
  return oldSpace()?.space_size ?? 0;
}

interface ServerStates {
  order: readonly string[];
  servers: Readonly<Record<string, { state: string } | undefined>>;
}

/**
 * Watches the servers the app starts with. Once none of them is still connecting and the store has
 * not changed for `quietMs` (no key, no answer, no server event: a compaction pauses the app for
 * tens of milliseconds, which a keystroke must not meet), runs one compacting collection if the
 * old generation is that much empty or grew that much (see COMPACT_WHEN_EMPTY_BYTES). Once per
 * start; returns a function that stops watching.
 */
export function compactWhenServersSettle(
  store: { getState(): ServerStates; subscribe(listener: (state: ServerStates) => void): () => void },
  quietMs = COMPACT_AFTER_QUIET_MS,
): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const oldAtStart = oldGenerationBytes();
  const settled = ({ order, servers }: ServerStates) => order.length > 0 && order.every((alias) => servers[alias] !== undefined && servers[alias]!.state !== 'connecting');
  const compact = () => {
    unsubscribe();
    try {
      if (emptyOldGenerationBytes() >= COMPACT_WHEN_EMPTY_BYTES || oldGenerationBytes() - oldAtStart >= COMPACT_WHEN_GROWN_BYTES) collectGarbage({ compact: true });
    } catch {
      // Only a head start: the memory reducer does the same later.
    }
  };
  const onChange = (state: ServerStates) => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!settled(state)) return;
    timer = setTimeout(compact, quietMs);
    timer.unref();
  };
  const unsubscribe = store.subscribe(onChange);
  onChange(store.getState());
  return () => {
    unsubscribe();
    if (timer) clearTimeout(timer);
  };
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
