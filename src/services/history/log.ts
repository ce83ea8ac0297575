// One JSONL file per session (docs/ARCHITECTURE.md, Conversation rules: session log): a header line, then one line per message,
// appended as it happens and fsync'ed at the end of each turn. The file is created on the first
// message, so starting and quitting without a word leaves nothing behind. Directory 0700, files 0600.
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, writeSync, chmodSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Message } from '../conversation/types';
import { redactDeep, type Redactor } from '../shared/redact';

export const SESSION_FORMAT_VERSION = 1;

export interface SessionHeader {
  type: 'session';
  version: number;
  id: string;
  createdAt: string;
  cwd?: string;
  model?: string;
}

/**
 * `withdrawn`: a user message that got no answer and was taken back (cancelled or failed before
 * any answer); it stays in the file as written but is no longer part of the conversation.
 */
/**
 * `rewind`: the user went back to the message `to` (`:rewind`, `:retry`): it and everything after
 * it leave the conversation; they stay in the file as written.
 */
export type SessionRecord = SessionHeader | { type: 'message'; message: Message } | { type: 'withdrawn'; id: string } | { type: 'rewind'; to: string };

export interface SessionLog {
  readonly id: string;
  readonly file: string;
  append(message: Message): void;
  /** Takes a message out of the conversation (see SessionRecord `withdrawn`). */
  withdraw(id: string): void;
  /** Takes `id` and everything after it out of the conversation (see SessionRecord `rewind`). */
  rewind(to: string): void;
  /** Forces what was appended onto the disk (end of each turn). */
  flush(): void;
  close(): void;
}

export interface SessionLogOptions {
  dir: string;
  /** Continue this session (its file is appended to); else a new id. */
  id?: string;
  redact: Redactor;
  cwd?: string;
  model?: string;
  /** Write errors are reported here once, never thrown into the conversation. */
  onError?: (message: string) => void;
}

/** Sortable by time, unique enough for one user: 20250102-150405-a1b2c3. */
export function newSessionId(now = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

export const SESSION_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function sessionFile(dir: string, id: string): string {
  if (!SESSION_ID_PATTERN.test(id)) throw new Error(`not a session id: ${JSON.stringify(id)}`);
  return path.join(dir, `${id}.jsonl`);
}

export function ensureSessionDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // An existing directory created by something else keeps only our permissions.
  chmodSync(dir, 0o700);
}

/**
 * One record as one line. JSON.stringify leaves U+2028, U+2029 and U+0085 (NEL) as they are, and
 * many line splitters (JavaScript's own line terminators, Python's splitlines, editors) end a line
 * there: a model or tool that sends one would split its record in two for them. Escaped, every
 * splitter sees one record per line; JSON.parse reads the escape back to the same character.
 * Lone \r and the other C0 separators are already escaped by JSON.stringify.
 */
export function recordLine(record: SessionRecord): string {
  return `${JSON.stringify(record).replace(/[\u0085\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

/** True when the file is empty or ends with a newline (a crash may have left half a line). */
function endsWithNewline(fd: number): boolean {
  const size = fstatSync(fd).size;
  if (size === 0) return true;
  const last = Buffer.alloc(1);
  readSync(fd, last, 0, 1, size - 1);
  return last[0] === 0x0a;
}

export function createSessionLog(options: SessionLogOptions): SessionLog {
  const id = options.id ?? newSessionId();
  const file = sessionFile(options.dir, id);
  let fd: number | undefined;
  let failed = false;
  /** Written since the last fsync: a flush or close with nothing new does not sync again. */
  let unsynced = false;

  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    options.onError?.(`session log ${file}: ${(error as Error).message}; this session is no longer being saved`);
  };

  const open = (): number => {
    if (fd !== undefined) return fd;
    ensureSessionDir(options.dir);
    fd = openSync(file, 'a+', 0o600);
    chmodSync(file, 0o600);
    if (fstatSync(fd).size === 0) {
      const header: SessionHeader = {
        type: 'session',
        version: SESSION_FORMAT_VERSION,
        id,
        createdAt: new Date().toISOString(),
        ...(options.cwd ? { cwd: options.cwd } : {}),
        ...(options.model ? { model: options.model } : {}),
      };
      writeSync(fd, recordLine(header));
    } else if (!endsWithNewline(fd)) {
      // Start a fresh line after a torn one so the next record is readable.
      writeSync(fd, '\n');
    }
    return fd;
  };

  return {
    id,
    file,
    append(message) {
      if (failed) return;
      try {
        const record: SessionRecord = { type: 'message', message: redactDeep(message, options.redact) };
        writeSync(open(), recordLine(record));
        unsynced = true;
      } catch (error) {
        fail(error);
      }
    },
    withdraw(id) {
      if (failed) return;
      try {
        const record: SessionRecord = { type: 'withdrawn', id };
        writeSync(open(), recordLine(record));
        unsynced = true;
      } catch (error) {
        fail(error);
      }
    },
    rewind(to) {
      if (failed) return;
      try {
        const record: SessionRecord = { type: 'rewind', to };
        writeSync(open(), `${JSON.stringify(record)}\n`);
        unsynced = true;
      } catch (error) {
        fail(error);
      }
    },
    flush() {
      if (fd === undefined || failed || !unsynced) return;
      try {
        fsyncSync(fd);
        unsynced = false;
      } catch (error) {
        fail(error);
      }
    },
    close() {
      if (fd === undefined) return;
      try {
        // What the end of the last turn synced is not synced again.
        if (unsynced) fsyncSync(fd);
        closeSync(fd);
      } catch {
        // Closing is best effort; the data was written already.
      }
      fd = undefined;
    },
  };
}
