/**
 * Full-screen terminal lifecycle: the alternate screen on start and a restored terminal (main
 * screen, visible cursor, no bracketed paste, cooked mode) on every way out — normal quit, an
 * uncaught error (its message printed after the restore, where the user can read it), SIGTERM and
 * SIGHUP.
 */
import { adoptPaintedScreen } from '../boot/remembered-screen';
import { sanitize } from '../services/terminal/sanitize';
import { ENTER_ALT_SCREEN, leaveSequence, modesOn as modesOnOf } from './screen-modes';

export interface FullScreenSession {
  /** Restores the terminal; safe to call more than once. */
  restore(): void;
  /**
   * Hands the terminal to another program for a while (an external editor): the main screen,
   * cooked mode, a visible cursor, no bracketed paste. `resume` takes it back (the caller redraws).
   */
  suspend(): void;
  resume(): void;
}

export interface FullScreenOptions {
  stdout?: NodeJS.WriteStream;
  stdin?: NodeJS.ReadStream;
  /**
   * Called once before the process exits on a signal or an uncaught error, e.g. to save the partial
   * answer and flush the session log. On a signal it may take up to `saveMs`; after an uncaught
   * error only its synchronous part runs (the process state is no longer to be trusted).
   */
  onFatal?: (reason: string) => void | Promise<void>;
  /** How long a signal waits for `onFatal` before exiting anyway (default 1500 ms). */
  saveMs?: number;
  /** Ask the terminal to mark pastes (ESC[200~ … ESC[201~) so pasted newlines never send. */
  bracketedPaste?: boolean;
  /** Ask the terminal to report focus changes (ESC[I, ESC[O; read by the tokenizer, never typed). */
  focusReporting?: boolean;
}

export function enterFullScreen(options: FullScreenOptions = {}): FullScreenSession {
  const stdout = options.stdout ?? process.stdout;
  const stdin = options.stdin ?? process.stdin;
  let restored = false;
  const modesOn = modesOnOf(options);
  const leave = leaveSequence(options);

  const restore = () => {
    if (restored) return;
    restored = true;
    try {
      if (stdin.isTTY && stdin.isRaw) stdin.setRawMode(false);
    } catch {
      // stdin may already be closed (SIGHUP): nothing left to reset.
    }
    try {
      stdout.write(leave);
    } catch {
      // The terminal is gone.
    }
    process.off('exit', onExit);
    process.off('SIGTERM', onSigterm);
    process.off('SIGHUP', onSighup);
    process.off('uncaughtException', onFatalError);
    process.off('unhandledRejection', onFatalError);
  };

  const onExit = () => restore();
  let exiting = false;
  const exitOnSignal = (signal: 'SIGTERM' | 'SIGHUP', code: number) => {
    if (exiting) return;
    exiting = true;
    // A closed terminal window (SIGHUP) or a polite kill gets the partial answer saved; a hung save
    // must not keep a process without a terminal alive.
    const saved = Promise.resolve()
      .then(() => options.onFatal?.(signal))
      .catch(() => {});
    const deadline = new Promise((resolve) => setTimeout(resolve, options.saveMs ?? 1500).unref());
    void Promise.race([saved, deadline]).then(() => {
      restore();
      process.exit(code);
    });
  };
  const onSigterm = () => exitOnSignal('SIGTERM', 143);
  const onSighup = () => exitOnSignal('SIGHUP', 129);
  const onFatalError = (error: unknown) => {
    try {
      void options.onFatal?.('error');
    } catch {
      // Restoring the terminal and saying what happened come first.
    }
    restore();
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    // The message may quote what a server sent: printed escaped like everything else.
    process.stderr.write(`aish-tui: unexpected error: ${sanitize(message)}\n`);
    process.exit(1);
  };

  process.on('exit', onExit);
  process.on('SIGTERM', onSigterm);
  process.on('SIGHUP', onSighup);
  process.on('uncaughtException', onFatalError);
  process.on('unhandledRejection', onFatalError);

  // The start-up paint (src/boot/remembered-screen.ts) has entered the screen with these modes
  // already: entering it again would clear what it painted until the first frame is drawn.
  if (!adoptPaintedScreen(options)) stdout.write(ENTER_ALT_SCREEN + modesOn);
  let suspended = false;
  const suspend = () => {
    if (restored || suspended) return;
    suspended = true;
    try {
      if (stdin.isTTY && stdin.isRaw) stdin.setRawMode(false);
    } catch {
      // Nothing to hand over without a terminal.
    }
    stdout.write(leave);
  };
  const resume = () => {
    if (restored || !suspended) return;
    suspended = false;
    stdout.write(ENTER_ALT_SCREEN + modesOn);
    try {
      if (stdin.isTTY) stdin.setRawMode(true);
    } catch {
      // The terminal is gone; the next read will say so.
    }
  };
  return { restore, suspend, resume };
}
