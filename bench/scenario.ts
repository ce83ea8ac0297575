/** One benchmark: a name and what it measured, as printable columns. */
export interface Scenario {
  name: string;
  run: () => Promise<Record<string, string>>;
}

/** Runs `fn` `warmup` times unmeasured, then `runs` times; returns the median duration in ms. */
export async function medianMs(fn: () => unknown, runs = 7, warmup = 2): Promise<number> {
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

export function perSecond(count: number, ms: number): string {
  const rate = count / (ms / 1000);
  if (rate >= 1e6) return `${(rate / 1e6).toFixed(2)}M`;
  if (rate >= 1e3) return `${(rate / 1e3).toFixed(1)}k`;
  return rate.toFixed(0);
}

export function mbPerSecond(bytes: number, ms: number): string {
  return (bytes / (1024 * 1024) / (ms / 1000)).toFixed(1);
}
