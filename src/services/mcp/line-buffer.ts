import { deserializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';

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

export class LineReadBuffer {
  /** The bytes of the line not yet ended (its first `pendingBytes`), once it spans chunks. */
  private pending: Buffer | undefined;
  private pendingBytes = 0;
  /** Lines that ended and were not read yet: a view into their chunk, or already decoded. */
  private readonly lines: Array<Buffer | string> = [];

  constructor(private readonly maxBufferSize: number) {}

  append(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      const part = chunk.subarray(start, end);
      this.grow(part.length);
      if (this.pending) {
        this.put(part);
        this.lines.push(this.pending.toString('utf8', 0, this.pendingBytes));
        this.pending = undefined;
      } else {
        this.lines.push(part);
      }
      this.pendingBytes = 0;
      start = end + 1;
    }
    if (start < chunk.length) {
      const part = chunk.subarray(start);
      this.grow(part.length);
      this.put(part);
    }
  }

  readMessage(): JSONRPCMessage | null {
    while (this.lines.length > 0) {
      // No reference to the line is kept here while it is parsed.
      const next = this.lines.shift()!;
      const line = typeof next === 'string' ? next : next.toString('utf8');
      try {
        return deserializeMessage(line.endsWith('\r') ? line.slice(0, -1) : line);
      } catch (error) {
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
    this.lines.length = 0;
  }

  /** Adds `part` (already counted in pendingBytes) to the unfinished line. */
  private put(part: Buffer): void {
    const used = this.pendingBytes - part.length;
    if (!this.pending || this.pending.length < this.pendingBytes) {
      const next = Buffer.allocUnsafeSlow(Math.min(this.maxBufferSize, Math.max(FIRST_CAPACITY, this.pendingBytes * 2)));
      this.pending?.copy(next, 0, 0, used);
      this.pending = next;
    }
    part.copy(this.pending, used);
  }

  private grow(bytes: number): void {
    this.pendingBytes += bytes;
    if (this.pendingBytes > this.maxBufferSize) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
  }
}
