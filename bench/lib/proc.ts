import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** What /proc says about a running process at one moment. */
export interface ProcSample {
  /** User + system CPU time so far. */
  cpuSeconds: number;
  /** Resident set size now. */
  rssBytes: number;
  /** The highest resident set size so far (VmHWM). */
  peakRssBytes: number;
}

let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

function kibField(status: string, name: string): number {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) * 1024 : 0;
}

/**
 * CPU time and memory of `pid` from /proc/<pid>/stat and /proc/<pid>/status (Linux); undefined
 * when the process is gone. CPU time has the kernel's clock-tick resolution (10 ms at 100 Hz).
 */
export function sampleProcess(pid: number): ProcSample | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces; the fields after it are space-separated.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return { cpuSeconds: (utime + stime) / clockTicks(), rssBytes: kibField(status, 'VmRSS'), peakRssBytes: kibField(status, 'VmHWM') };
  } catch {
    return undefined;
  }
}

/** The machine the numbers were taken on. */
export function machineInfo(): { cpus: number; cpuModel: string; memory: string; node: string; os: string } {
  let cpuModel = 'unknown';
  let memory = 'unknown';
  try {
    cpuModel = /^model name\s*:\s*(.+)$/m.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim() ?? cpuModel;
  } catch {
    // Not Linux.
  }
  try {
    const kib = Number(/^MemTotal:\s+(\d+) kB/m.exec(readFileSync('/proc/meminfo', 'utf8'))?.[1]);
    if (kib) memory = `${(kib / 1024 / 1024).toFixed(1)} GiB`;
  } catch {
    // Not Linux.
  }
  let cpus = 0;
  try {
    cpus = Number(execFileSync('nproc', { encoding: 'utf8' }).trim());
  } catch {
    cpus = 0;
  }
  let os: string = process.platform;
  try {
    os = `${process.platform} ${readFileSync('/proc/sys/kernel/osrelease', 'utf8').trim()}`;
  } catch {
    // Not Linux.
  }
  return { cpus, cpuModel, memory, node: process.version, os };
}

function cpuTimes(): { busy: number; total: number } | undefined {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    const total = fields.reduce((sum, value) => sum + value, 0);
    return { busy: total - idle, total };
  } catch {
    return undefined;
  }
}

/** The share of all cores busy over the next `ms` (0..1), or undefined without /proc/stat. */
export async function machineBusy(ms = 500): Promise<number | undefined> {
  const before = cpuTimes();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = cpuTimes();
  if (!before || !after || after.total === before.total) return undefined;
  return (after.busy - before.busy) / (after.total - before.total);
}
