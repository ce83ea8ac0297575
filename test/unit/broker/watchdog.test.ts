import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Watchdog, type TimeoutKind } from '../../../src/services/broker/watchdog';

describe('the broker watchdog', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function watch() {
    const fired: Array<{ kind: TimeoutKind; at: number }> = [];
    const start = Date.now();
    const watchdog = new Watchdog({ firstByteMs: 1000, idleMs: 300 }, (kind) => fired.push({ kind, at: Date.now() - start }));
    return { watchdog, fired };
  }

  it('gives up on the first byte after firstByteMs', () => {
    const { watchdog, fired } = watch();
    watchdog.armFirstByte();
    vi.advanceTimersByTime(999);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([{ kind: 'first-byte', at: 1000 }]);
    expect(watchdog.fired).toBe('first-byte');
  });

  it('counts the idle wait from the last read, however many reads came before', () => {
    const { watchdog, fired } = watch();
    watchdog.armFirstByte();
    vi.advanceTimersByTime(900);
    // Reads every 100 ms for two seconds: longer than the idle wait in all, never idle for 300 ms.
    for (let read = 0; read < 20; read++) {
      watchdog.activity();
      vi.advanceTimersByTime(100);
    }
    expect(fired).toEqual([]);
    expect(watchdog.receivedBytes).toBe(true);
    // The last read was at 2,800 ms: idle at 3,100 ms, not before.
    vi.advanceTimersByTime(199);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([{ kind: 'idle', at: 3100 }]);
    vi.advanceTimersByTime(5000);
    expect(fired).toHaveLength(1);
  });

  it('a pause (a retry wait) stops both timers; a new first-byte wait starts afresh', () => {
    const { watchdog, fired } = watch();
    watchdog.armFirstByte();
    watchdog.activity();
    watchdog.pause();
    vi.advanceTimersByTime(10_000);
    expect(fired).toEqual([]);
    watchdog.armFirstByte();
    expect(watchdog.receivedBytes).toBe(false);
    vi.advanceTimersByTime(500);
    watchdog.activity();
    vi.advanceTimersByTime(299);
    expect(fired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(fired.map((one) => one.kind)).toEqual(['idle']);
  });

  it('stop ends the watch for good', () => {
    const { watchdog, fired } = watch();
    watchdog.armFirstByte();
    watchdog.activity();
    watchdog.stop();
    vi.advanceTimersByTime(60_000);
    expect(fired).toEqual([]);
  });
});
