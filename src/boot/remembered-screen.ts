// The start-up paint. A start of the full-screen UI draws, as its first frame, the same screen
// every time (an empty chat, the servers connecting, the input box), and it takes about a third
// of a second to get there: node, then React, Ink and the app's code. So the first frame of
// a start is remembered, and the next start in the same place (same terminal size, folder,
// config, build) puts it on the screen before any of that code is loaded, in the time node itself
// takes to start. The app then draws its own first frame over it, whole, and from then on the
// screen is the app's. Keys typed meanwhile wait in the terminal (raw mode, no echo) and reach the
// input box when it starts reading.
//
// If the app writes anything before it takes the screen over (a config error, the project trust
// question, a crash), the painted screen is withdrawn first, so the words land on the normal
// screen as they always did, and that start is not remembered.
import { rmSync, utimesSync } from 'node:fs';
import { APP_SCREEN_MODES, ENTER_ALT_SCREEN, leaveSequence, modesOn, type ScreenModes } from '../terminal/screen-modes';
import { readRememberedFrame, rememberedScreenFile, startKey, writeRememberedFrame, type StartFacts } from './remembered-frame-file';

type Phase = 'idle' | 'watching' | 'painted' | 'withdrawn' | 'adopted';

interface StartState {
  phase: Phase;
  key?: string;
  file?: string;
  painted?: string;
  /** The terminal's size the key was made for. */
  columns?: number;
  rows?: number;
  /** Something was written before the full screen began: this start's first frame is not remembered. */
  spoke: boolean;
  undo?: () => void;
}

const start: StartState = { phase: 'idle', spoke: false };

/**
 * Run first, before the app's code is loaded. Paints the remembered first frame when there is one
 * for this start, and watches what is written before the full screen begins either way (a start
 * that printed something is not one to remember).
 */
export function paintRememberedScreen(facts?: Partial<StartFacts>): void {
  if (start.phase !== 'idle') return;
  const stdout = process.stdout;
  const stdin = process.stdin;
  const key = startKey({
    argv: facts?.argv ?? process.argv.slice(2),
    env: facts?.env ?? process.env,
    cwd: facts?.cwd ?? process.cwd(),
    columns: facts?.columns ?? stdout.columns,
    rows: facts?.rows ?? stdout.rows,
    terminal: facts?.terminal ?? (stdout.isTTY === true && stdin.isTTY === true),
  });
  if (key === undefined) return;
  start.key = key;
  start.columns = facts?.columns ?? stdout.columns;
  start.rows = facts?.rows ?? stdout.rows;
  start.file = rememberedScreenFile(facts?.env ?? process.env, key);
  start.phase = 'watching';
  const writeOut = stdout.write;
  const writeErr = process.stderr.write;
  const speak = () => {
    // A write function kept from before the full screen began (bound at import) still lands here
    // afterwards: only a write before then counts.
    if (start.phase !== 'watching' && start.phase !== 'painted') return;
    start.spoke = true;
    withdraw();
  };
  // Anything written before the full screen begins goes to the normal screen, as without the paint.
  stdout.write = function (this: NodeJS.WriteStream, ...args: Parameters<typeof writeOut>) {
    speak();
    return writeOut.apply(this, args);
  } as typeof writeOut;
  process.stderr.write = function (this: NodeJS.WriteStream, ...args: Parameters<typeof writeErr>) {
    speak();
    return writeErr.apply(this, args);
  } as typeof writeErr;
  start.undo = () => {
    stdout.write = writeOut;
    process.stderr.write = writeErr;
    start.undo = undefined;
  };

  const frame = readRememberedFrame(start.file, key);
  if (frame === undefined) return;
  try {
    // Before the paint: a key typed once the screen shows must wait for the input box, not echo.
    stdin.setRawMode(true);
    writeOut.call(stdout, ENTER_ALT_SCREEN + modesOn(APP_SCREEN_MODES) + frame);
  } catch {
    // No terminal after all: the app starts as it would have.
    try {
      stdin.setRawMode(false);
    } catch {
      // Nothing to put back.
    }
    return;
  }
  start.painted = frame;
  start.phase = 'painted';
  // An exit or a kill before the full screen began must not leave the terminal on the painted screen.
  // Node runs 'exit' listeners before it prints an uncaught error, so that lands on the normal screen.
  const onExit = () => withdraw();
  const onSignal = (signal: NodeJS.Signals) => {
    withdraw();
    process.exit(signal === 'SIGHUP' ? 129 : 143);
  };
  process.on('exit', onExit);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);
  const undoWrites = start.undo;
  start.undo = () => {
    undoWrites?.();
    process.off('exit', onExit);
    process.off('SIGTERM', onSignal);
    process.off('SIGHUP', onSignal);
    start.undo = undefined;
  };
}

/** Puts the terminal back as it was before the paint (the main screen, cooked mode) and forgets the frame. */
function withdraw(): void {
  const painted = start.phase === 'painted';
  start.undo?.();
  if (start.phase === 'watching' || painted) start.phase = 'withdrawn';
  if (!painted) return;
  try {
    if (process.stdin.isTTY) process.stdin.setRawMode(false);
    process.stdout.write(leaveSequence(APP_SCREEN_MODES));
  } catch {
    // The terminal is gone.
  }
  // A start that needed the normal screen may need it next time too: no paint then.
  forget(start.file);
}

/** Removes a remembered frame; one that cannot be removed is left (this runs on the way out too). */
function forget(file: string | undefined): void {
  try {
    if (file) rmSync(file, { force: true });
  } catch {
    // Left as it is: the next start reads and checks it again.
  }
}

/**
 * Called by the full screen as it begins. True when the start-up paint has entered the screen
 * with the modes asked for, which the full screen then keeps instead of entering it again (that
 * would clear the painted frame until the first one is drawn).
 */
export function adoptPaintedScreen(modes: ScreenModes): boolean {
  const painted = start.phase === 'painted';
  if (painted && modesOn(modes) !== modesOn(APP_SCREEN_MODES)) {
    withdraw();
    return false;
  }
  start.undo?.();
  if (start.phase === 'watching' || painted) start.phase = 'adopted';
  return painted;
}

/**
 * The app's first frame, as written: remembered for the next start of the same kind, unless this
 * start printed something first, or the caller says it is not typical (a warning in it).
 */
export function rememberFirstFrame(frame: string, typical: boolean): void {
  if (start.phase !== 'adopted' || start.spoke || !start.key || !start.file) return;
  const { key, file } = start;
  start.key = undefined;
  // A terminal resized during the start drew its first frame at another size than the key says.
  if (process.stdout.columns !== start.columns || process.stdout.rows !== start.rows) return;
  if (!typical) {
    forget(file);
    return;
  }
  try {
    // Kept as it is, marked as used (the folder drops the frames not used for longest).
    if (frame === start.painted) utimesSync(file, new Date(), new Date());
    else writeRememberedFrame(file, key, frame);
  } catch {
    // Not remembered: the next start draws its first frame the usual way.
  }
}
