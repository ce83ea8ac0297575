// Tool results too large to keep whole. A server can answer with tens of megabytes; kept as they
// are, they would sit in memory for the rest of the session (in the conversation, the transcript
// and every request built from it) and become one line of that size in the session log. Past
// `limits.maxResultBytes` the whole result goes to a side file next to the session files
// (`<sessions>/results/`, 0600 in a 0700 directory, secrets redacted like the log); memory and the
// log keep its head and a note naming the file, and so does the transcript.
import { chmodSync, closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { Redactor } from '../shared/redact';
import { createStreamRedactor } from '../shared/redact-stream';
import { dropSpilledRests, forEachSpilledSlice, hasSpilledRest, restRedactor, spilledPieces, spilledTextSize } from '../shared/spilled-text';

export interface ResultKeeperOptions {
  /** Where the session files are; side files go to its `results/` folder. */
  dir: string;
  maxBytes: number;
  /** history.enabled: when false nothing is written, and the rest of a huge result is dropped. */
  save?: boolean;
  redact: () => Redactor;
  now?: () => Date;
}

/** What is kept of one result: the result itself when it fits, else its head and where the rest is. */
export type KeepResult = (call: { id: string; name: string }, content: string) => string;

const formatBytes = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : bytes >= 1024 ? `${Math.round(bytes / 1024)} KiB` : `${bytes} bytes`;

/** The first `maxBytes` of `text` in UTF-8, never cutting a character (nor a surrogate pair) in two. */
export function headBytes(text: string, maxBytes: number): string {
  // Characters are 1 to 4 bytes: a cut by characters first, then trimmed until it fits.
  let end = Math.min(text.length, maxBytes);
  let head = text.slice(0, end);
  while (Buffer.byteLength(head, 'utf8') > maxBytes) {
    end -= Math.max(1, Math.ceil((Buffer.byteLength(head, 'utf8') - maxBytes) / 4));
    head = text.slice(0, end);
  }
  const last = head.charCodeAt(head.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? head.slice(0, -1) : head;
}

/** Characters written at a time: the whole text is never encoded into one buffer of its own size. */
const WRITE_SLICE_CHARS = 1024 * 1024;

/**
 * Writes `text` to a new file (mode 0600) as UTF-8, a slice at a time. A slice never ends between
 * the two halves of a surrogate pair, so the file holds exactly the bytes of the whole text.
 */
export function writeTextFile(file: string, text: string, sliceChars = WRITE_SLICE_CHARS): void {
  const fd = openSync(file, 'w', 0o600);
  try {
    for (let start = 0; start < text.length; ) {
      let end = Math.min(text.length, start + sliceChars);
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
      writeSync(fd, text.slice(start, end), null, 'utf8');
      start = end;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * Writes a text whose rest is in files (shared/spilled-text.ts) to a new file (mode 0600), a slice
 * at a time through `redact`, and releases the rests. Returns the bytes written.
 */
function writeSpilledTextFile(file: string, text: string, redact: Redactor): number {
  const fd = openSync(file, 'w', 0o600);
  let written = 0;
  try {
    const redactor = createStreamRedactor(redact, (slice) => (written += writeSync(fd, slice, null, 'utf8')));
    forEachSpilledSlice(text, (slice) => redactor.push(slice));
    redactor.end();
  } finally {
    closeSync(fd);
  }
  return written;
}

export function createResultKeeper(options: ResultKeeperOptions): KeepResult {
  return (call, content) => {
    const spilled = hasSpilledRest(content);
    // Characters are at least one byte: a short string never needs measuring.
    if (!spilled && (content.length <= options.maxBytes / 4 || Buffer.byteLength(content, 'utf8') <= options.maxBytes)) return content;
    const bytes = spilled ? spilledTextSize(content).bytes : Buffer.byteLength(content, 'utf8');
    // The head of a spilled text is in memory: its rest starts well past maxBytes (mcp/transports.ts).
    const head = headBytes(spilled ? (spilledPieces(content)[0] as string) : content, options.maxBytes);
    const folder = path.join(options.dir, 'results');
    const stamp = (options.now?.() ?? new Date()).toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
    const safeName = call.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
    if (options.save === false) {
      if (spilled) dropSpilledRests(content);
      return `${head}\n[aish] this result was ${formatBytes(bytes)}; only the first ${formatBytes(options.maxBytes)} are kept (limits.maxResultBytes; history is off, so the rest was not saved)`;
    }
    const file = path.join(folder, `${stamp}-${randomBytes(3).toString('hex')}-${safeName}.txt`);
    try {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      chmodSync(folder, 0o700);
      if (spilled) {
        const restRedact = restRedactor(content);
        const redact = options.redact();
        writeSpilledTextFile(file, content, (text) => redact(restRedact(text)));
      } else {
        writeTextFile(file, options.redact()(content));
      }
      chmodSync(file, 0o600);
    } catch (error) {
      if (spilled) dropSpilledRests(content);
      return `${head}\n[aish] this result was ${formatBytes(bytes)}; only the first ${formatBytes(options.maxBytes)} are kept (limits.maxResultBytes), and the whole result could not be saved: ${(error as Error).message}`;
    }
    return `${head}\n[aish] this result was ${formatBytes(bytes)}; memory and the session log keep the first ${formatBytes(options.maxBytes)} (limits.maxResultBytes); the whole result is in ${file}`;
  };
}
