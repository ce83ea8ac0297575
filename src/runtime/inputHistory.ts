import { appendFileSync, chmodSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * What the user sent, for ↑/↓ in the input bar, kept across sessions in
 * `<stateDir>/input-history` (one JSON value per line, mode 0600, newest last: a string, or
 * `{"text": …, "literal": true}` for text sent as a message whatever it starts with, such as a
 * pasted `!…`, so that sending it again from the history does the same and never runs it).
 *
 * Bounded: at most MAX_ENTRIES are kept (the file is rewritten when it grows past twice that),
 * entries longer than MAX_ENTRY_CHARS are not stored, and only the tail of a huge file is read.
 * Like shells with `ignorespace`, a message starting with a space is not recorded.
 */

export const MAX_ENTRIES = 500;
export const MAX_ENTRY_CHARS = 100_000;
const MAX_READ_BYTES = 4 * 1024 * 1024;

function isLiteralEntry(value: unknown): value is { text: string; literal: true } {
  return typeof value === 'object' && value !== null && typeof (value as { text?: unknown }).text === 'string' && (value as { literal?: unknown }).literal === true;
}

export class InputHistory {
  private entries: string[] = [];
  /** Entries sent as literal text (a paste starting with `:` or `!`). */
  private literal = new Set<string>();
  /** Lines in the file since it was last compacted. */
  private fileLines = 0;
  /** Problems reading or writing the file (shown once, never fatal). */
  lastError: string | undefined;

  constructor(private readonly file: string | undefined) {}

  static forStateDir(stateDir: string | undefined): InputHistory {
    return new InputHistory(stateDir ? path.join(stateDir, 'input-history') : undefined);
  }

  /** Reads the file; a missing or damaged file gives an empty history or skips the damaged lines. */
  load(): this {
    if (!this.file) return this;
    let text: string;
    try {
      const size = statSync(this.file).size;
      const buffer = readFileSync(this.file);
      text = buffer.subarray(Math.max(0, size - MAX_READ_BYTES)).toString('utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.lastError = `input history not read: ${(error as Error).message}`;
      return this;
    }
    const lines = text.split('\n').filter((line) => line.length > 0);
    this.fileLines = lines.length;
    const loaded: string[] = [];
    for (const line of lines) {
      try {
        const value: unknown = JSON.parse(line);
        if (typeof value === 'string') {
          loaded.push(value);
          this.literal.delete(value);
        } else if (isLiteralEntry(value)) {
          loaded.push(value.text);
          this.literal.add(value.text);
        }
      } catch {
        // A torn or foreign line: skip it.
      }
    }
    this.entries = loaded.slice(-MAX_ENTRIES);
    return this;
  }

  /** Oldest first. */
  list(): readonly string[] {
    return this.entries;
  }

  /** Whether `entry` was sent as literal text (see the file format above). */
  isLiteral(entry: string): boolean {
    return this.literal.has(entry);
  }

  add(entry: string, literal = false): void {
    if (entry.trim().length === 0 || entry.startsWith(' ') || entry.length > MAX_ENTRY_CHARS) return;
    const same = this.entries[this.entries.length - 1] === entry && this.literal.has(entry) === literal;
    if (literal) this.literal.add(entry);
    else this.literal.delete(entry);
    if (same) return;
    this.entries = [...this.entries, entry].slice(-MAX_ENTRIES);
    this.persist(entry);
  }

  private line(entry: string): string {
    return JSON.stringify(this.literal.has(entry) ? { text: entry, literal: true } : entry);
  }

  private persist(entry: string): void {
    if (!this.file) return;
    try {
      mkdirSync(path.dirname(this.file), { recursive: true, mode: 0o700 });
      if (this.fileLines + 1 > MAX_ENTRIES * 2) {
        const temp = `${this.file}.${process.pid}.tmp`;
        writeFileSync(temp, this.entries.map((value) => this.line(value)).join('\n') + '\n', { mode: 0o600 });
        renameSync(temp, this.file);
        this.fileLines = this.entries.length;
      } else {
        appendFileSync(this.file, this.line(entry) + '\n', { mode: 0o600 });
        this.fileLines++;
      }
      // appendFileSync's mode only applies when it creates the file.
      chmodSync(this.file, 0o600);
    } catch (error) {
      this.lastError = `input history not saved: ${(error as Error).message}`;
    }
  }
}

/**
 * Walking the history from the input bar: ↑ goes back, ↓ forward, and past the newest entry the
 * text being typed before comes back.
 */
export class HistoryCursor {
  /** Index into the entries; entries.length = the draft being typed. */
  private index: number | undefined;
  private draft = '';

  constructor(private readonly history: Pick<InputHistory, 'list'>) {}

  reset(): void {
    this.index = undefined;
  }

  /** The entry to show, or undefined at the end of the history. */
  previous(current: string): string | undefined {
    const entries = this.history.list();
    if (this.index === undefined) {
      this.draft = current;
      this.index = entries.length;
    }
    if (this.index === 0) return undefined;
    this.index--;
    return entries[this.index];
  }

  next(): string | undefined {
    const entries = this.history.list();
    if (this.index === undefined) return undefined;
    if (this.index >= entries.length - 1) {
      this.index = undefined;
      return this.draft;
    }
    this.index++;
    return entries[this.index];
  }

  get browsing(): boolean {
    return this.index !== undefined;
  }
}
