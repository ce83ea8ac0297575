import { StringDecoder } from 'node:string_decoder';
import { deserializeMessage, type JSONRPCMessage } from '@modelcontextprotocol/client';

// The stdio transport's read buffer. It reads the same messages as the SDK's ReadBuffer (one
// JSON-RPC message per line; lines that are not JSON are skipped; a line longer than the limit
// stops the server with the same "ReadBuffer exceeded" error), without its cost for long lines:
// the SDK's buffer copies everything received so far on every chunk (a 50 MB result in 64 KB
// chunks is about 800 copies of up to 50 MB: tens of seconds, and several copies alive at once),
// and after reading a line it keeps a view into it, so the whole line stays in memory until the
// next message arrives. Here each chunk is decoded as it arrives (its bytes can go at once), the
// pieces of a line are joined once when its end arrives, and the line is let go once parsed.

export class LineReadBuffer {
  private readonly decoder = new StringDecoder('utf8');
  /** The decoded pieces of the line not yet ended. */
  private pending: string[] = [];
  /** Bytes of the line not yet ended (the limit counts bytes, as the SDK's does). */
  private pendingBytes = 0;
  /** Lines that ended and were not read yet. */
  private readonly lines: string[] = [];

  constructor(private readonly maxBufferSize: number) {}

  append(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
      this.grow(end - start);
      const last = this.decoder.end(chunk.subarray(start, end));
      this.lines.push(this.pending.length === 0 ? last : this.pending.join('') + last);
      this.pending = [];
      this.pendingBytes = 0;
      start = end + 1;
    }
    if (start < chunk.length) {
      this.grow(chunk.length - start);
      this.pending.push(this.decoder.write(chunk.subarray(start)));
    }
  }

  readMessage(): JSONRPCMessage | null {
    while (this.lines.length > 0) {
      // No reference to the line is kept while it is parsed: it can go as soon as it is read.
      const line = this.lines.shift()!;
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
    this.decoder.end();
    this.pending = [];
    this.pendingBytes = 0;
    this.lines.length = 0;
  }

  private grow(bytes: number): void {
    this.pendingBytes += bytes;
    if (this.pendingBytes > this.maxBufferSize) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes`);
    }
  }
}
