// Runs one shell command for `CMD:` proposals and `!command` input. The command runs in the
// user's shell (`$SHELL -c`, or config shell.shell) in the current directory, with stdin from
// /dev/null (the terminal belongs to the UI), stdout and stderr merged into one pipe so their
// order is kept exactly, a timeout, an output cap, and its own process group so cancelling or a
// timeout ends everything it started, not just the shell.
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { createAsyncQueue } from '../shared/async-queue';
import { prepareSandbox, wrapCommand, type SandboxSettings } from '../sandbox/index';

export interface RunOptions {
  command: string;
  /** Default: $SHELL, else /bin/sh. */
  shell?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Output beyond this many bytes is dropped (and counted); the command keeps running. */
  maxOutputBytes: number;
  signal?: AbortSignal;
  /** Between SIGTERM and SIGKILL when the command is stopped. */
  killGraceMs?: number;
  /** Confine the command with bubblewrap (config shell.sandbox); refused when that cannot be had. */
  sandbox?: SandboxSettings;
}

export type RunEvent =
  | { type: 'output'; chunk: string }
  | {
      type: 'exit';
      /** null when the process was killed by a signal or could not start. */
      exitCode: number | null;
      signal: NodeJS.Signals | null;
      timedOut: boolean;
      cancelled: boolean;
      truncated: boolean;
      /** Bytes dropped past the cap. */
      droppedBytes: number;
      /** Set when the shell could not be started at all. */
      error?: string;
      /** Set when the command was not run: a sandbox was asked for and cannot be had here. */
      refused?: string;
    };

export function defaultShell(env: NodeJS.ProcessEnv = process.env): string {
  return env.SHELL && env.SHELL.length > 0 ? env.SHELL : '/bin/sh';
}

/** Streams a command's merged output, then one `exit` event. Never throws for the command's failures. */
export async function* runCommand(options: RunOptions): AsyncGenerator<RunEvent, void, undefined> {
  const env = options.env ?? process.env;
  const shell = options.shell ?? defaultShell(env);
  const channel = createAsyncQueue<RunEvent>();
  let timedOut = false;
  let cancelled = false;
  let received = 0;
  let droppedBytes = 0;
  const decoder = new StringDecoder('utf8');

  if (options.signal?.aborted) {
    yield { type: 'exit', exitCode: null, signal: null, timedOut: false, cancelled: true, truncated: false, droppedBytes: 0 };
    return;
  }

  const cwd = options.cwd ?? process.cwd();
  // /bin/sh only dup's stderr onto stdout and then becomes the user's shell (exec keeps the pid,
  // so the process group and the exit status are the command's own).
  let argv = { command: '/bin/sh', args: ['-c', 'exec "$0" -c "$1" 2>&1', shell, options.command] };
  if (options.sandbox) {
    const prepared = await prepareSandbox(options.sandbox, cwd, env);
    if (!prepared.ok) {
      // Never unconfined instead: the config asked for the sandbox.
      yield { type: 'exit', exitCode: null, signal: null, timedOut: false, cancelled: false, truncated: false, droppedBytes: 0, refused: `shell.sandbox is set, but ${prepared.reason}` };
      return;
    }
    if (options.signal?.aborted) {
      yield { type: 'exit', exitCode: null, signal: null, timedOut: false, cancelled: true, truncated: false, droppedBytes: 0 };
      return;
    }
    // bwrap's own complaints (a path gone since the plan) go into the output like the command's;
    // it is the process group leader, and --die-with-parent ends what runs inside when it is stopped.
    const wrapped = wrapCommand(prepared.bwrap, prepared.plan, argv.command, argv.args);
    argv = { command: '/bin/sh', args: ['-c', 'exec "$0" "$@" 2>&1', wrapped.command, ...wrapped.args] };
  }
  const child = spawn(argv.command, argv.args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });

  let killTimer: NodeJS.Timeout | undefined;
  const stop = () => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // Already gone.
    }
    killTimer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, options.killGraceMs ?? 2000);
    killTimer.unref();
  };
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, options.timeoutMs);
  const onAbort = () => {
    cancelled = true;
    stop();
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });

  child.stdout.on('data', (data: Buffer) => {
    const room = options.maxOutputBytes - received;
    if (room <= 0) {
      droppedBytes += data.length;
      return;
    }
    let cut = Math.min(room, data.length);
    // Cut on a character boundary: never keep the first bytes of a multi-byte character.
    if (cut < data.length) while (cut > 0 && (data[cut]! & 0xc0) === 0x80) cut--;
    const kept = data.subarray(0, cut);
    droppedBytes += data.length - kept.length;
    received += kept.length;
    if (cut < data.length) received = options.maxOutputBytes;
    const text = decoder.write(kept);
    if (text.length > 0) channel.push({ type: 'output', chunk: text });
  });

  let spawnError: string | undefined;
  child.on('error', (error) => {
    spawnError = error.message;
  });
  // 'close' waits for stdout to drain, so no output arrives after the exit event.
  child.on('close', (code, signal) => {
    clearTimeout(timer);
    if (killTimer) clearTimeout(killTimer);
    options.signal?.removeEventListener('abort', onAbort);
    const rest = decoder.end();
    // After a cut, what the decoder still holds is the start of a dropped character.
    if (rest.length > 0 && droppedBytes === 0) channel.push({ type: 'output', chunk: rest });
    channel.push({
      type: 'exit',
      exitCode: code,
      signal,
      timedOut,
      cancelled,
      truncated: droppedBytes > 0,
      droppedBytes,
      ...(spawnError ? { error: spawnError } : {}),
    });
    channel.close();
  });

  try {
    yield* channel;
  } finally {
    // The consumer stopped early: the command must not outlive it.
    clearTimeout(timer);
    stop();
  }
}
