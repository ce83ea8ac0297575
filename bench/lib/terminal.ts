import xtermHeadless from '@xterm/headless';
import * as pty from 'node-pty';
import { appendFileSync } from 'node:fs';
import { sampleProcess, type ProcSample } from './proc';

const { Terminal } = xtermHeadless;
/** `BENCH_CAPTURE=/tmp/out`: everything each program writes goes to /tmp/out.<pid> (to see where the bytes go). */
const CAPTURE = process.env.BENCH_CAPTURE;

/** A moment the screen matched: when the bytes that made it match arrived, and the process then. */
export interface Hit {
  /** performance.now() when the chunk of output that completed the match arrived. */
  at: number;
  /** Terminal bytes received from the start up to and including that chunk. */
  bytes: number;
  /** CPU and memory of the process, read right after the match was seen. */
  sample: ProcSample | undefined;
  lines: string[];
}

export type ScreenPredicate = (lines: string[]) => boolean;

interface Watcher {
  predicate: ScreenPredicate;
  resolve: (hit: Hit) => void;
}

interface OutputWatcher {
  pattern: RegExp;
  /** The end of what was seen so far, so a match split over two chunks is found. */
  tail: string;
  resolve: (at: number) => void;
}

export interface SpawnOptions {
  cols: number;
  rows: number;
  env: Record<string, string>;
  cwd: string;
}

/**
 * A program in a real pseudo-terminal with a headless xterm drawing what it writes. Every chunk
 * of output is stamped when it arrives; a watcher on the screen is checked after each chunk is
 * parsed, so a match is timed by the arrival of the bytes that produced it, not by polling.
 */
export class BenchTerminal {
  readonly startedAt: number;
  readonly pid: number;
  /** Bytes the program wrote to the terminal so far. */
  bytes = 0;
  lastDataAt: number;
  exited = false;
  readonly exit: Promise<number>;
  private readonly term: InstanceType<typeof Terminal>;
  private readonly proc: pty.IPty;
  private readonly watchers = new Set<Watcher>();
  private readonly outputWatchers = new Set<OutputWatcher>();
  private lastParsedAt: number;
  private lastParsedBytes = 0;

  constructor(file: string, args: string[], options: SpawnOptions) {
    this.term = new Terminal({ cols: options.cols, rows: options.rows, allowProposedApi: true, scrollback: 0 });
    this.startedAt = performance.now();
    this.lastDataAt = this.startedAt;
    this.lastParsedAt = this.startedAt;
    this.proc = pty.spawn(file, args, { name: 'xterm-256color', cols: options.cols, rows: options.rows, cwd: options.cwd, env: options.env });
    this.pid = this.proc.pid;
    this.proc.onData((data) => {
      const arrival = performance.now();
      this.bytes += Buffer.byteLength(data, 'utf8');
      if (CAPTURE) appendFileSync(`${CAPTURE}.${this.pid}`, data);
      const bytes = this.bytes;
      this.lastDataAt = arrival;
      for (const watcher of [...this.outputWatchers]) {
        const seen = watcher.tail + data;
        if (watcher.pattern.test(seen)) {
          this.outputWatchers.delete(watcher);
          watcher.resolve(arrival);
        } else {
          watcher.tail = seen.slice(-64);
        }
      }
      this.term.write(data, () => {
        this.lastParsedAt = arrival;
        this.lastParsedBytes = bytes;
        this.check();
      });
    });
    this.exit = new Promise((resolve) => {
      this.proc.onExit(({ exitCode }) => {
        this.exited = true;
        resolve(exitCode);
      });
    });
  }

  /** The screen as text, one string per row, trailing spaces trimmed. */
  lines(): string[] {
    const buffer = this.term.buffer.active;
    const rows: string[] = [];
    for (let row = 0; row < this.term.rows; row++) rows.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '');
    return rows;
  }

  /** The screen with colours and attributes: each row as text with a marker wherever the style changes. */
  styledLines(): string[] {
    const buffer = this.term.buffer.active;
    const rows: string[] = [];
    const cell = buffer.getNullCell();
    for (let row = 0; row < this.term.rows; row++) {
      const line = buffer.getLine(buffer.viewportY + row);
      let text = '';
      let style = '';
      for (let column = 0; line && column < this.term.cols; column++) {
        line.getCell(column, cell);
        const next = `${cell.getFgColorMode()}:${cell.getFgColor()}/${cell.getBgColorMode()}:${cell.getBgColor()}/${cell.isBold()}${cell.isItalic()}${cell.isUnderline()}${cell.isInverse()}${cell.isDim()}${cell.isStrikethrough()}`;
        if (next !== style) {
          text += `{${next}}`;
          style = next;
        }
        text += cell.getChars() || ' ';
      }
      rows.push(text);
    }
    return rows;
  }

  private check(): void {
    if (this.watchers.size === 0) return;
    const lines = this.lines();
    for (const watcher of [...this.watchers]) {
      if (!watcher.predicate(lines)) continue;
      this.watchers.delete(watcher);
      watcher.resolve({ at: this.lastParsedAt, bytes: this.lastParsedBytes, sample: sampleProcess(this.pid), lines });
    }
  }

  /** Resolves when the screen matches (at once if it already does); rejects after `timeoutMs`. */
  waitFor(predicate: ScreenPredicate, timeoutMs: number, what: string): Promise<Hit> {
    const lines = this.lines();
    if (predicate(lines)) return Promise.resolve({ at: this.lastParsedAt, bytes: this.lastParsedBytes, sample: sampleProcess(this.pid), lines });
    return new Promise((resolve, reject) => {
      const watcher: Watcher = {
        predicate,
        resolve: (hit) => {
          clearTimeout(timer);
          resolve(hit);
        },
      };
      const timer = setTimeout(() => {
        this.watchers.delete(watcher);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}; screen:\n${this.lines().join('\n')}`));
      }, timeoutMs);
      this.watchers.add(watcher);
    });
  }

  /**
   * Resolves with the arrival time of the first output from now on that matches `pattern` (which
   * should match less than 64 characters). For text that may be on screen only briefly: at full
   * speed several frames can arrive in one read, and the screen after that read may already have
   * scrolled it away.
   */
  waitForOutput(pattern: RegExp, timeoutMs: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const watcher: OutputWatcher = {
        pattern,
        tail: '',
        resolve: (at) => {
          clearTimeout(timer);
          resolve(at);
        },
      };
      const timer = setTimeout(() => {
        this.outputWatchers.delete(watcher);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for output ${String(pattern)}`));
      }, timeoutMs);
      this.outputWatchers.add(watcher);
    });
  }

  /** Resolves once nothing arrived for `quietMs` (or after `maxMs`). */
  async quiet(quietMs: number, maxMs = 5000): Promise<void> {
    const deadline = performance.now() + maxMs;
    for (;;) {
      const now = performance.now();
      const idle = now - this.lastDataAt;
      if (idle >= quietMs || now >= deadline) return;
      await sleep(Math.min(quietMs - idle, deadline - now) + 1);
    }
  }

  /**
   * Waits until the program has used at most `maxCpuMs` of CPU over `stillMs` (clock ticks are
   * 10 ms): the work it deferred past its first frame (loading the MCP client, warming up the
   * transcript, measuring a resumed history) is over, so a measurement that starts now counts only
   * what comes after. Gives up after `maxMs`.
   */
  async cpuIdle(stillMs = 300, maxCpuMs = 10, maxMs = 5000): Promise<void> {
    const deadline = performance.now() + maxMs;
    let last = this.sample()?.cpuSeconds;
    while (last !== undefined && performance.now() < deadline) {
      await sleep(stillMs);
      const now = this.sample()?.cpuSeconds;
      if (now === undefined || (now - last) * 1000 <= maxCpuMs) return;
      last = now;
    }
  }

  /** Sends keys; returns when they were sent (performance.now()). */
  write(data: string): number {
    const at = performance.now();
    this.proc.write(data);
    return at;
  }

  sample(): ProcSample | undefined {
    return sampleProcess(this.pid);
  }

  /** Asks the program to quit with `keys`, kills it if it does not, and frees the terminal. */
  async close(keys?: string): Promise<void> {
    if (!this.exited && keys !== undefined) {
      this.proc.write(keys);
      await Promise.race([this.exit, sleep(3000)]);
    }
    if (!this.exited) {
      try {
        this.proc.kill('SIGKILL');
      } catch {
        // Already gone.
      }
      await Promise.race([this.exit, sleep(3000)]);
    }
    this.term.dispose();
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
