import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import xtermHeadless from '@xterm/headless';
import * as pty from 'node-pty';

const { Terminal } = xtermHeadless;

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');

export interface StartOptions {
  args?: string[];
  cols?: number;
  rows?: number;
  /** Extra environment; the base is a clean one with HOME and XDG dirs in a scratch directory. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Use this scratch home instead of a fresh one (e.g. to resume a session). */
  home?: string;
}

/** A clean environment for the app under test: no CI markers, no user config, no API keys. */
export function testEnv(home: string, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    TERM: 'xterm-256color',
    LANG: 'C.UTF-8',
    SHELL: '/bin/sh',
    ...extra,
  };
  const clean: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined) clean[key] = value;
  return clean;
}

export function makeScratchHome(prefix = 'aish-e2e-'): string {
  return mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes `config` as the scratch home's `~/.config/aish/config.json` (where the app looks first). */
export function writeHomeConfig(home: string, config: unknown): string {
  const dir = path.join(home, '.config', 'aish');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'config.json');
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/**
 * The built `aish-tui` in a real pseudo-terminal, with a headless xterm reading what it draws,
 * so tests see the screen a person would see.
 */
export class TerminalSession {
  readonly term: InstanceType<typeof Terminal>;
  readonly home: string;
  private readonly ownsHome: boolean;
  private readonly proc: pty.IPty;
  /** Everything the app wrote, byte for byte (for checking escape sequences). */
  raw = '';
  exitCode: number | undefined;
  private exitPromise: Promise<number>;
  private pending: Promise<void> = Promise.resolve();
  private disposed = false;

  constructor(options: StartOptions = {}) {
    const cols = options.cols ?? 120;
    const rows = options.rows ?? 40;
    this.ownsHome = options.home === undefined;
    this.home = options.home ?? makeScratchHome();
    this.term = new Terminal({ cols, rows, allowProposedApi: true, scrollback: 0 });
    this.proc = pty.spawn(process.execPath, [CLI, ...(options.args ?? [])], {
      name: 'xterm-256color',
      cols,
      rows,
      cwd: options.cwd ?? this.home,
      env: testEnv(this.home, options.env),
    });
    this.proc.onData((data) => {
      this.raw += data;
      this.pending = this.pending.then(() => new Promise<void>((resolve) => this.term.write(data, resolve)));
    });
    this.exitPromise = new Promise((resolve) => {
      this.proc.onExit(({ exitCode }) => {
        this.exitCode = exitCode;
        resolve(exitCode);
      });
    });
  }

  /** Types text or key sequences (see `keys`). */
  write(data: string): void {
    this.proc.write(data);
  }

  /**
   * Types text one character at a time, as a person does: each key arrives in its own read, so
   * the app does not take it for a paste or for keys typed ahead.
   */
  async typeSlowly(text: string, gapMs = 15): Promise<void> {
    for (const char of text) {
      this.proc.write(char);
      await sleep(gapMs);
    }
  }

  resize(cols: number, rows: number): void {
    this.proc.resize(cols, rows);
    this.term.resize(cols, rows);
  }

  /** The visible screen, one string per row, trailing spaces trimmed. */
  async lines(): Promise<string[]> {
    await this.pending;
    const buffer = this.term.buffer.active;
    const rows: string[] = [];
    for (let row = 0; row < this.term.rows; row++) {
      rows.push(buffer.getLine(buffer.viewportY + row)?.translateToString(true) ?? '');
    }
    return rows;
  }

  async screen(): Promise<string> {
    return (await this.lines()).join('\n');
  }

  /** True while the app is on the alternate screen. */
  async onAltScreen(): Promise<boolean> {
    await this.pending;
    return this.term.buffer.active.type === 'alternate';
  }

  /** Waits until the screen shows `what`; fails with the last screen when it does not. */
  async waitFor(what: string | RegExp | ((screen: string) => boolean), timeoutMs = 10_000): Promise<string> {
    const matches = (screen: string) =>
      typeof what === 'string' ? screen.includes(what) : what instanceof RegExp ? what.test(screen) : what(screen);
    const deadline = Date.now() + timeoutMs;
    let screen = '';
    while (Date.now() < deadline) {
      screen = await this.screen();
      if (matches(screen)) return screen;
      if (this.exitCode !== undefined) break;
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    throw new Error(`timed out waiting for ${String(what)}; exit=${String(this.exitCode)}; screen:\n${screen}`);
  }

  /** Resolves with the exit code, or fails after `timeoutMs`. */
  async waitForExit(timeoutMs = 10_000): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`process did not exit within ${timeoutMs} ms; screen:\n${this.raw.slice(-2000)}`)), timeoutMs);
    });
    try {
      const code = await Promise.race([this.exitPromise, timeout]);
      await this.pending;
      return code;
    } finally {
      clearTimeout(timer);
    }
  }

  get pid(): number {
    return this.proc.pid;
  }

  kill(signal = 'SIGTERM'): void {
    try {
      this.proc.kill(signal);
    } catch {
      // Already gone.
    }
  }

  /** Kills the process if still running and removes the scratch home; a second call does nothing. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    if (this.exitCode === undefined) {
      this.kill('SIGKILL');
      await Promise.race([this.exitPromise, new Promise((resolve) => setTimeout(resolve, 2000))]);
    }
    this.term.dispose();
    if (this.ownsHome) rmSync(this.home, { recursive: true, force: true });
  }
}

/** Key sequences as a terminal sends them. */
export const keys = {
  enter: '\r',
  tab: '\t',
  shiftTab: '\x1b[Z',
  escape: '\x1b',
  backspace: '\x7f',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  pageUp: '\x1b[5~',
  pageDown: '\x1b[6~',
  home: '\x1b[H',
  end: '\x1b[F',
  ctrl: (letter: string) => String.fromCharCode(letter.toLowerCase().charCodeAt(0) - 96),
  paste: (text: string) => `\x1b[200~${text}\x1b[201~`,
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
