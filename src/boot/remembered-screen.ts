// The start-up paint. A start of the full-screen UI draws, as its first frame, the same screen
// every time (an empty chat, the servers connecting, the input box), and it takes most of a
// second's third to get there: node, then React, Ink and the app's code. So the first frame of
// a start is remembered, and the next start in the same place (same terminal size, folder,
// config, build) puts it on the screen before any of that code is loaded, in the time node itself
// takes to start. The app then draws its own first frame over it, whole, and from then on the
// screen is the app's. Keys typed meanwhile wait in the terminal (raw mode, no echo) and reach the
// input box when it starts reading.
//
// If the app writes anything before it takes the screen over (a config error, the project trust
// question, a crash), the painted screen is withdrawn first, so the words land on the normal
// screen as they always did, and that start is not remembered.
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APP_SCREEN_MODES, ENTER_ALT_SCREEN, leaveSequence, modesOn, type ScreenModes } from '../terminal/screen-modes';

declare const __AISH_BUILD_ID__: string | undefined;
const BUILD_ID = typeof __AISH_BUILD_ID__ === 'string' ? __AISH_BUILD_ID__ : 'source';

/** A remembered frame larger than this is not one the app drew (its first frame is a few KiB). */
export const MAX_FRAME_BYTES = 256 * 1024;

/** What decides whether a remembered first frame is still the one this start would draw. */
export interface StartFacts {
  argv: readonly string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  columns: number | undefined;
  rows: number | undefined;
  terminal: boolean;
}

// What the first frame's look depends on beyond the config: colours, width of characters, paths.
// Only these, by name: the key is written to disk, and other variables hold API keys.
const ENV_THAT_SHOWS = ['TERM', 'COLORTERM', 'TERM_PROGRAM', 'NO_COLOR', 'FORCE_COLOR', 'COLORFGBG', 'LANG', 'LC_ALL', 'LC_CTYPE', 'HOME', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME', 'AISH_CONFIG'];

function stateDirOf(env: NodeJS.ProcessEnv): string {
  const home = env.HOME || os.homedir();
  const stateHome = env.XDG_STATE_HOME && path.isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : path.join(home, '.local', 'state');
  return path.join(stateHome, 'aish');
}

function configDirOf(env: NodeJS.ProcessEnv): string {
  const home = env.HOME || os.homedir();
  const configHome = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return path.join(configHome, 'aish');
}

/** Size and time of change of a file (a changed config is a different start). */
function fileOf(file: string): string {
  try {
    const stat = statSync(file, { throwIfNoEntry: false });
    return stat ? `${path.basename(file)}:${stat.size}:${stat.mtimeMs}` : path.basename(file);
  } catch {
    return '';
  }
}

/** The same for each file in `dir`. */
function filesOf(dir: string): string {
  try {
    return readdirSync(dir)
      .sort()
      .map((name) => fileOf(path.join(dir, name)))
      .join(',');
  } catch {
    return '';
  }
}

/**
 * The key a first frame is remembered under, or undefined when this start does not paint early:
 * only a plain `aish-tui` (any argument may change the first frame or mean no full screen at all)
 * on a terminal.
 */
export function startKey(facts: StartFacts): string | undefined {
  if (facts.argv.length > 0 || !facts.terminal || !facts.columns || !facts.rows || facts.env.TERM === 'dumb') return undefined;
  const env = ENV_THAT_SHOWS.map((name) => `${name}=${facts.env[name] ?? ''}`).join('\n');
  const projectDir = path.join(facts.cwd, '.aish');
  const configFile = facts.env.AISH_CONFIG ? fileOf(path.resolve(facts.cwd, facts.env.AISH_CONFIG)) : '';
  return [`build ${BUILD_ID}`, `size ${facts.columns}x${facts.rows}`, `cwd ${facts.cwd}`, env, `config ${filesOf(configDirOf(facts.env))} ${configFile}`, `project ${filesOf(projectDir)}`].join('\n');
}

/** FNV-1a, 32 bits, twice (two seeds): a file name for a key; the key itself is checked inside the file. */
function fileNameOf(key: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let index = 0; index < key.length; index++) {
    const code = key.charCodeAt(index);
    a = Math.imul(a ^ code, 0x01000193) >>> 0;
    b = Math.imul(b ^ code, 0x01000193) >>> 0;
  }
  return `${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}.screen`;
}

export function rememberedScreenFile(env: NodeJS.ProcessEnv, key: string): string {
  return path.join(stateDirOf(env), 'screens', fileNameOf(key));
}

/**
 * The sequences the app's screen writer emits: colours and styles (SGR), cursor moves, erases, and
 * the two modes it switches (synchronized output, the cursor's visibility).
 */
const WRITER_SEQUENCE = /\x1b\[(?:[0-9;:]*[mHfGKJXABCD]|\?(?:2026|25)[hl])/g;

/**
 * Only what the app's screen writer emits may be replayed: text, newlines and WRITER_SEQUENCE.
 * No other CSI (mouse modes, reports the terminal would answer on the keyboard), no OSC, DCS, APC
 * or PM (titles, clipboard, hyperlinks, queries), no C1 controls, no bell: a file someone slipped
 * into the state folder can at most draw garbage.
 */
export function replayable(frame: string): boolean {
  if (frame.length === 0 || frame.length > MAX_FRAME_BYTES) return false;
  return !/[\x00-\x09\x0b-\x0c\x0e-\x1f\x7f-\x9f]/.test(frame.replace(WRITER_SEQUENCE, ''));
}

/** Reads the frame remembered under `key`; undefined when there is none, it is for another key, or it is not replayable. */
export function readRememberedFrame(file: string, key: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  if (!text.startsWith(`${key}\n\n`)) return undefined;
  const frame = text.slice(key.length + 2);
  return replayable(frame) ? frame : undefined;
}

/** How many remembered frames are kept (one per folder, size and build): the oldest go first. */
export const MAX_REMEMBERED = 32;

/** Writes the frame under `key` (0600 in a 0700 folder), whole or not at all, and keeps the folder small. */
export function writeRememberedFrame(file: string, key: string, frame: string): void {
  if (!replayable(frame)) return;
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  const fd = openSync(temporary, 'w', 0o600);
  try {
    writeSync(fd, `${key}\n\n${frame}`);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, file);
  // Every new build, config or terminal size adds one; the ones not used for longest are dropped.
  const kept = readdirSync(dir).filter((name) => name.endsWith('.screen'));
  if (kept.length <= MAX_REMEMBERED) return;
  const byAge = kept.map((name) => ({ name, at: statSync(path.join(dir, name), { throwIfNoEntry: false })?.mtimeMs ?? 0 })).sort((a, b) => a.at - b.at);
  for (const old of byAge.slice(0, kept.length - MAX_REMEMBERED)) rmSync(path.join(dir, old.name), { force: true });
}

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
  const writeErr = stderr().write;
  const speak = () => {
    start.spoke = true;
    withdraw();
  };
  // Anything written before the full screen begins goes to the normal screen, as without the paint.
  stdout.write = function (this: NodeJS.WriteStream, ...args: Parameters<typeof writeOut>) {
    speak();
    return writeOut.apply(this, args);
  } as typeof writeOut;
  stderr().write = function (this: NodeJS.WriteStream, ...args: Parameters<typeof writeErr>) {
    speak();
    return writeErr.apply(this, args);
  } as typeof writeErr;
  start.undo = () => {
    stdout.write = writeOut;
    stderr().write = writeErr;
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

function stderr(): NodeJS.WriteStream {
  return process.stderr;
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
  if (start.file) rmSync(start.file, { force: true });
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
    rmSync(file, { force: true });
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
