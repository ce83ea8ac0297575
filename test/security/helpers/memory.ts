import { readFileSync } from 'node:fs';

/** Resident memory of a process from /proc (Linux): now, and the peak since it started (MB). */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) / 1024;
  return { rssMb: field('VmRSS'), peakMb: field('VmHWM') };
}
