import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { StderrTail } from './stderr';

// A stdio server's stdout carries JSON-RPC and nothing else. A program that prints a greeting or
// a log line there (or is not an MCP server at all) never answers the handshake, and all the user
// would learn is "timed out". The first line that is not a JSON-RPC message is kept to say so, and
// every such line after it goes to a bounded tail (the last lines, each cut) that the server's
// details view shows, escaped (docs/ARCHITECTURE.md, Security invariants 5 and 7).

const SHOWN_CHARS = 120;
/** How many stray lines are kept, and how much of each. */
export const STRAY_LINES = 50;
export const STRAY_LINE_CHARS = 300;
/** A line longer than this is not parsed to classify it: it is judged by how it starts. */
const PARSE_LIMIT = 64 * 1024;

function isJsonRpc(line: string): boolean {
  // What SDK servers write first; saves parsing every message twice.
  if (line.startsWith('{"jsonrpc":"2.0"')) return true;
  try {
    const value = JSON.parse(line) as { jsonrpc?: unknown } | null;
    return typeof value === 'object' && value !== null && value.jsonrpc === '2.0';
  } catch {
    return false;
  }
}

export class StrayStdout {
  /** The first non-empty line that was not a JSON-RPC message, cut to a readable length (raw). */
  first: string | undefined;
  /** The last stray lines (raw, cut; the UI sanitizes them). */
  readonly tail = new StderrTail(STRAY_LINES, STRAY_LINE_CHARS);
  /** Stray lines seen in all. */
  count = 0;
  /** Called after each stray line. */
  onLine?: () => void;

  private note(text: string): void {
    this.first ??= text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
    this.count += 1;
    this.tail.push(`${text}\n`);
    this.onLine?.();
  }

  watch(stream: Readable | null | undefined): void {
    if (!stream) return;
    const decoder = new StringDecoder('utf8');
    let partial = '';
    /** The line being read passed PARSE_LIMIT: only its start is kept. */
    let overlong = false;
    const finish = () => {
      const text = partial.replace(/\r$/, '');
      const long = overlong;
      partial = '';
      overlong = false;
      if (text.trim() === '') return;
      if (long) {
        // Too long to parse twice; the SDK parses it and says so if it is not JSON.
        if (!text.trimStart().startsWith('{')) this.note(`${text}… (a line of more than ${PARSE_LIMIT / 1024} KB)`);
        return;
      }
      if (!isJsonRpc(text)) this.note(text);
    };
    const onData = (chunk: Buffer | string) => {
      const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
      let start = 0;
      for (;;) {
        const end = text.indexOf('\n', start);
        const piece = end === -1 ? text.slice(start) : text.slice(start, end);
        if (!overlong) {
          partial += piece;
          if (partial.length > PARSE_LIMIT) {
            overlong = true;
            partial = partial.slice(0, STRAY_LINE_CHARS);
          }
        }
        if (end === -1) break;
        finish();
        start = end + 1;
      }
    };
    // A last line without a line end (`printf hello`) counts once the process closes stdout.
    const onEnd = () => {
      partial += decoder.end();
      finish();
      stream.off('data', onData);
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
  }
}
