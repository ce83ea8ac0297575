// Where the start-up paint keeps a first frame (src/boot/remembered-screen.ts): the key that says
// whether a frame is still the one a start would draw, the file it is kept in, and what may be
// replayed from it.
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import path from 'node:path';
import { aishPaths } from '../services/config/paths';

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
  return [`build ${BUILD_ID}`, `size ${facts.columns}x${facts.rows}`, `cwd ${facts.cwd}`, env, `config ${filesOf(aishPaths(facts.env).configDir)} ${configFile}`, `project ${filesOf(projectDir)}`].join('\n');
}

/**
 * FNV-1a, 32 bits, twice (two seeds): a file name for a key; the key itself is checked inside the
 * file, so the name need not resist anyone. Not node:crypto: loading it on the paint's path cost
 * 0.9 MB of the RSS at the input box (42.9 -> 43.7 MB, `npm run bench -- --only startup`).
 */
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
  return path.join(aishPaths(env).stateDir, 'screens', fileNameOf(key));
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
    // Only a plain file of a frame's size is read: not a device, a pipe or a huge file a link
    // points to, which would hold the start-up.
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile() || stat.size > MAX_FRAME_BYTES * 4 + Buffer.byteLength(key) + 2) return undefined;
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
  // A new file, never one that is there already (a link would be followed).
  rmSync(temporary, { force: true });
  const fd = openSync(temporary, 'wx', 0o600);
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
