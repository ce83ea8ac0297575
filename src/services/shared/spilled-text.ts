// The rest of a huge text, kept in a temporary file instead of memory.
//
// A server's tool result can be tens of megabytes in one message. Read whole, the message, its
// decoded string and the parsed text are each that size at the same moment (about three times the
// result, BENCHMARKS.md "Scale"), although the app only ever keeps the head of such a result in
// memory (limits.maxResultBytes) and puts the whole of it in a side file. So the readers of stdio
// lines and HTTP bodies (services/mcp/result-text-scanner.ts) keep the head of a long result text in
// the message and decode the rest, as it arrives, into a file of its own; in the parsed text a marker
// stands where the rest was. The marker holds a random token that only this process knows: a server
// that writes marker-like text gets plain text back, never another file. Whoever takes the text
// either writes it out a slice at a time (the result keeper) or reads it back whole
// (`resolveSpilledText`), and the file is removed once taken; files left over (a result nobody took)
// go when the process exits, or with the next run's sweep if it was killed.
import { closeSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

const MARKER_START = '\u0000aish-rest:';
const MARKER = /\u0000aish-rest:([0-9a-f]{24})\u0000/g;
/** A finished rest that nobody took within this long is removed. */
export const UNCLAIMED_REST_MS = 10 * 60 * 1000;
/** Bytes read from a rest's file at a time. */
const READ_SLICE_BYTES = 16 * 1024;

/** A text's rest in its file: decoded UTF-8, not yet redacted. */
export interface SpilledRest {
  readonly token: string;
  readonly file: string;
  /** UTF-8 bytes, UTF-16 code units (a string's `length`) and line ends written so far. */
  bytes: number;
  chars: number;
  newlines: number;
  /** Whether the last character written is a line end. */
  endsWithNewline: boolean;
  /** Redactors the rest must pass before anyone sees it (the server session's own, for its token). */
  readonly redactors: Array<(text: string) => string>;
}

const rests = new Map<string, SpilledRest>();
let folder: string | undefined;

const FOLDER_PREFIX = 'aish-rest-';

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Folders a process of ours left behind when it was killed (no exit handler ran). */
function sweepLeftovers(tmp: string): void {
  for (const name of readdirSync(tmp)) {
    const pid = new RegExp(`^${FOLDER_PREFIX}(\\d+)-`).exec(name)?.[1];
    if (pid !== undefined && Number(pid) !== process.pid && !processAlive(Number(pid))) rmSync(path.join(tmp, name), { recursive: true, force: true });
  }
}

/** This process's folder (0700), made on the first rest, removed when the process exits. */
function restsFolder(): string {
  if (folder === undefined) {
    const tmp = os.tmpdir();
    try {
      sweepLeftovers(tmp);
    } catch {
      // A temporary directory that cannot be listed only keeps its leftovers.
    }
    folder = mkdtempSync(path.join(tmp, `${FOLDER_PREFIX}${process.pid}-`));
    const created = folder;
    process.once('exit', () => rmSync(created, { recursive: true, force: true }));
  }
  return folder;
}

/**
 * Writes a text's rest into a new file as it arrives, from pieces of JSON string content (escaped,
 * without quotes) that each end on a whole character and a whole escape.
 */
export class RestWriter {
  readonly rest: SpilledRest;
  private fd: number | undefined;
  /** A high surrogate that ended a piece: its low half starts the next one. */
  private heldSurrogate = '';
  /** A piece was not valid JSON string content: the line is not JSON, and fails to parse as before. */
  invalid = false;
  /** Why the rest could not be written (no temporary folder, a full disk), if so. */
  lost: string | undefined;
  /** Bytes received as sent, written or not. */
  private received = 0;

  constructor() {
    const token = randomBytes(12).toString('hex');
    this.rest = { token, file: '', bytes: 0, chars: 0, newlines: 0, endsWithNewline: false, redactors: [] };
    try {
      const file = path.join(restsFolder(), `${token}.txt`);
      this.fd = openSync(file, 'wx', 0o600);
      (this.rest as { file: string }).file = file;
      rests.set(token, this.rest);
    } catch (error) {
      this.lose(error);
    }
  }

  /**
   * What stands in the message for the rest, escaped as JSON: its marker, or, when it could not be
   * written, a note saying so (the call still gets its answer, cut).
   */
  placeholderJson(): string {
    if (this.lost === undefined) return `\\u0000aish-rest:${this.rest.token}\\u0000`;
    const note = `\n[aish] the rest of this result (about ${this.received} more bytes) could not be kept: ${this.lost}`;
    return JSON.stringify(note).slice(1, -1);
  }

  /** Decodes and appends one piece; a piece that is not valid JSON string content fails the rest. */
  write(escaped: Buffer): void {
    this.received += escaped.length;
    if (this.invalid || escaped.length === 0) return;
    let text: string;
    try {
      text = JSON.parse(`"${escaped.toString('utf8')}"`) as string;
    } catch {
      this.invalid = true;
      this.close();
      return;
    }
    text = this.heldSurrogate + text;
    this.heldSurrogate = '';
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) {
      this.heldSurrogate = text.slice(-1);
      text = text.slice(0, -1);
    }
    this.append(text);
  }

  /** The rest is complete: the file is closed and the rest can be taken. */
  finish(): SpilledRest {
    if (this.heldSurrogate) this.append(this.heldSurrogate);
    this.heldSurrogate = '';
    this.close();
    // A rest nobody takes (the answer to a call cancelled meanwhile, which the SDK drops) would
    // otherwise stay on disk until the app exits. Whoever takes one does so right after it arrives.
    const rest = this.rest;
    setTimeout(() => releaseRest(rest), UNCLAIMED_REST_MS).unref();
    return rest;
  }

  /** Gives the rest up (the message it belonged to was not read). */
  discard(): void {
    this.close();
    releaseRest(this.rest);
  }

  private append(text: string): void {
    if (this.fd === undefined || text.length === 0) return;
    try {
      this.rest.bytes += writeSync(this.fd, text, null, 'utf8');
    } catch (error) {
      this.lose(error);
      return;
    }
    this.rest.chars += text.length;
    this.rest.endsWithNewline = text.endsWith('\n');
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) this.rest.newlines++;
  }

  private lose(error: unknown): void {
    this.lost = (error as Error)?.message ?? String(error);
    this.close();
    releaseRest(this.rest);
  }

  private close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

function releaseRest(rest: SpilledRest): void {
  rests.delete(rest.token);
  if (!rest.file) return;
  try {
    unlinkSync(rest.file);
  } catch {
    // Already gone: nothing to free.
  }
}

/** The text in order: pieces held in memory and rests in files. Unknown markers stay text. */
export function spilledPieces(text: string): Array<string | SpilledRest> {
  if (!text.includes(MARKER_START)) return [text];
  const pieces: Array<string | SpilledRest> = [];
  let from = 0;
  for (const match of text.matchAll(MARKER)) {
    const rest = rests.get(match[1]!);
    if (!rest) continue;
    pieces.push(text.slice(from, match.index));
    pieces.push(rest);
    from = match.index + match[0].length;
  }
  if (pieces.length === 0) return [text];
  pieces.push(text.slice(from));
  return pieces;
}

export function hasSpilledRest(text: string): boolean {
  return spilledPieces(text).length > 1;
}

/** How long the whole text is: UTF-8 bytes, characters and lines (a last line end starts no line). */
export function spilledTextSize(text: string): { bytes: number; chars: number; lines: number } {
  let bytes = 0;
  let chars = 0;
  let newlines = 0;
  let endsWithNewline = false;
  for (const piece of spilledPieces(text)) {
    if (typeof piece !== 'string') {
      bytes += piece.bytes;
      chars += piece.chars;
      newlines += piece.newlines;
      if (piece.chars > 0) endsWithNewline = piece.endsWithNewline;
      continue;
    }
    bytes += Buffer.byteLength(piece, 'utf8');
    chars += piece.length;
    for (let at = piece.indexOf('\n'); at !== -1; at = piece.indexOf('\n', at + 1)) newlines++;
    if (piece.length > 0) endsWithNewline = piece.endsWith('\n');
  }
  return { bytes, chars, lines: 1 + newlines - (endsWithNewline ? 1 : 0) };
}

/** Adds a redactor every rest of `text` passes when it is read (the session's, for its own token). */
export function redactRestsWith(text: string, redactor: (text: string) => string): void {
  for (const piece of spilledPieces(text)) if (typeof piece !== 'string') piece.redactors.push(redactor);
}

/** The redactors of the rests in `text`, applied in order. */
export function restRedactor(text: string): (text: string) => string {
  const redactors = spilledPieces(text).flatMap((piece) => (typeof piece === 'string' ? [] : piece.redactors));
  return (value) => redactors.reduce((out, redactor) => redactor(out), value);
}

/**
 * Hands the whole text to `onSlice` in order, a rest a slice at a time (never cutting a character),
 * raw: the caller redacts (see `restRedactor`). The rests are released afterwards.
 */
export function forEachSpilledSlice(text: string, onSlice: (slice: string) => void): void {
  const pieces = spilledPieces(text);
  try {
    for (const piece of pieces) {
      if (typeof piece === 'string') {
        if (piece.length > 0) onSlice(piece);
        continue;
      }
      readSlices(piece.file, onSlice);
    }
  } finally {
    for (const piece of pieces) if (typeof piece !== 'string') releaseRest(piece);
  }
}

function readSlices(file: string, onSlice: (slice: string) => void): void {
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(READ_SLICE_BYTES);
    let carried = 0;
    for (;;) {
      const read = readSync(fd, buffer, carried, buffer.length - carried, null);
      const filled = carried + read;
      if (filled === 0) return;
      // Up to the last whole character; its unfinished bytes start the next slice.
      let end = filled;
      if (read > 0) {
        let lead = filled - 1;
        while (lead > 0 && lead > filled - 4 && (buffer[lead]! & 0xc0) === 0x80) lead--;
        const need = buffer[lead]! >= 0xf0 ? 4 : buffer[lead]! >= 0xe0 ? 3 : buffer[lead]! >= 0xc0 ? 2 : 1;
        if (filled - lead < need) end = lead;
      }
      if (end > 0) onSlice(buffer.toString('utf8', 0, end));
      if (read === 0) return;
      buffer.copy(buffer, 0, end, filled);
      carried = filled - end;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The whole text as one string, the rests read back and released. Their redactors run over the
 * whole text, so a secret that spans the cut between head and rest is still found.
 */
export function resolveSpilledText(text: string): string {
  const pieces = spilledPieces(text);
  if (pieces.length === 1) return text;
  const redact = restRedactor(text);
  const parts: string[] = [];
  forEachSpilledSlice(text, (slice) => parts.push(slice));
  return redact(parts.join(''));
}

/** The text up to its first rest, the rests released (for a reader that keeps only a head anyway). */
export function dropSpilledRests(text: string): string {
  const pieces = spilledPieces(text);
  if (pieces.length === 1) return text;
  for (const piece of pieces) if (typeof piece !== 'string') releaseRest(piece);
  return `${pieces[0] as string}\n[aish] … the rest of this text was not kept`;
}

/** For tests: how many rests are waiting to be taken. */
export function pendingRestCount(): number {
  return rests.size;
}
