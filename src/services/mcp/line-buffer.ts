import { deserializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';
import type { RestWriter } from '../shared/spilled-text';
import { ResultTextScanner } from './result-text-scanner';

// The stdio transport's read buffer. It reads the same messages as the SDK's ReadBuffer (one
// JSON-RPC message per line, decoded as UTF-8 whole; lines that are not JSON are skipped; a line
// longer than the limit stops the server with the same "ReadBuffer exceeded" error), without its
// cost for long lines: the SDK's buffer copies everything received so far on every chunk (a 50 MB
// result in 64 KB chunks is about 800 copies of up to 50 MB: tens of seconds, and several copies
// alive at once), and after reading a line it keeps a view into it, so the whole line stays in
// memory until the next message arrives. Here the bytes of an unfinished line go into one buffer
// that doubles when full (pages past what was written are never touched, so they take no memory),
// the line is decoded once when its end arrives, the buffer is let go at once, and so is the line
// once parsed. Measured with a 50 MB result: about 45 MB less at the peak than decoding each chunk
// to a string and joining the pieces (BENCHMARKS.md, "Scale").

/** The first buffer of a line longer than one chunk. */
const FIRST_CAPACITY = 64 * 1024;

/** A line that ended and was not read yet (a view into its chunk, or decoded) and the rests it spilled. */
interface EndedLine {
  text: Buffer | string;
  rests: RestWriter[];
}

export class LineReadBuffer {
  /** The bytes the unfinished line keeps (its first `pendingBytes`), once it spans chunks. */
  private pending: Buffer | undefined;
  private pendingBytes = 0;
  /** Bytes received of the unfinished line, kept or spilled: what the limit counts. */
  private receivedBytes = 0;
  private readonly lines: EndedLine[] = [];
  private readonly scanner: ResultTextScanner | undefined;
  /**
   * Whether the unfinished line goes through the scanner. Only a line longer than the head can
   * spill, so the scanner starts when a line outgrows it (from the line's start); every ordinary
   * message is read without it.
   */
  private scanning = false;

  /**
   * `spillAfterBytes`: a tool result's text longer than this (as sent) keeps only its head in the
   * message; the rest goes to a file as it arrives (result-text-scanner.ts).
   */
  constructor(
    private readonly maxBufferSize: number,
    private readonly spillAfterBytes?: number,
  ) {
    this.scanner = spillAfterBytes !== undefined ? new ResultTextScanner(spillAfterBytes) : undefined;
  }

  append(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      const kept = this.take(chunk.subarray(start, end));
      const rests = this.scanning ? this.scanner!.endLine() : [];
      this.scanning = false;
      if (!this.pending && kept.length === 1) {
        this.lines.push({ text: kept[0]!, rests });
      } else {
        for (const part of kept) this.put(part);
        this.lines.push({ text: this.pending ? this.pending.toString('utf8', 0, this.pendingBytes) : '', rests });
        this.pending = undefined;
      }
      this.pendingBytes = 0;
      this.receivedBytes = 0;
      start = end + 1;
    }
    if (start < chunk.length) for (const part of this.take(chunk.subarray(start))) this.put(part);
  }

  readMessage(): JSONRPCMessage | null {
    while (this.lines.length > 0) {
      // No reference to the line is kept here while it is parsed.
      const next = this.lines.shift()!;
      const line = typeof next.text === 'string' ? next.text : next.text.toString('utf8');
      next.text = '';
      try {
        return deserializeMessage(line.endsWith('\r') ? line.slice(0, -1) : line);
      } catch (error) {
        for (const rest of next.rests) rest.discard();
        // Not JSON (a log line on stdout): skipped, as the SDK does.
        if (error instanceof SyntaxError) continue;
        throw error;
      }
    }
    return null;
  }

  clear(): void {
    this.pending = undefined;
    this.pendingBytes = 0;
    this.receivedBytes = 0;
    this.scanning = false;
    this.scanner?.reset();
    for (const line of this.lines) for (const rest of line.rests) rest.discard();
    this.lines.length = 0;
  }

  /** Counts `part` against the limit and returns what the line keeps of it. */
  private take(part: Buffer): Buffer[] {
    this.receivedBytes += part.length;
    if (this.receivedBytes > this.maxBufferSize) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
    if (!this.scanner) return [part];
    if (this.scanning) return this.scanner.scan(part);
    if (this.receivedBytes <= this.spillAfterBytes!) return [part];
    // The line just outgrew the head: scanned from its start, what it kept so far included.
    this.scanning = true;
    if (this.pending) {
      const earlier = this.pending.subarray(0, this.pendingBytes);
      this.pending = undefined;
      this.pendingBytes = 0;
      for (const kept of this.scanner.scan(earlier)) this.put(kept);
    }
    return this.scanner.scan(part);
  }

  /** Adds `part` to the unfinished line. */
  private put(part: Buffer): void {
    const used = this.pendingBytes;
    this.pendingBytes += part.length;
    if (!this.pending || this.pending.length < this.pendingBytes) {
      // A marker can make the kept bytes a little longer than the received ones the limit counts.
      const next = Buffer.allocUnsafeSlow(Math.max(this.pendingBytes, Math.min(this.maxBufferSize, Math.max(FIRST_CAPACITY, this.pendingBytes * 2))));
      this.pending?.copy(next, 0, 0, used);
      this.pending = next;
    }
    part.copy(this.pending, used);
  }
}
