import { createMiddleware, type Middleware } from '@modelcontextprotocol/client';
import { ResultTextScanner } from './result-text-scanner';
import { spillAfterBytes } from './transports';

// An HTTP server's huge tool result, kept out of memory as a stdio server's is (result-text-scanner.ts):
// the answer's body passes through the same scanner, so the SDK reads a message whose long
// `result.content[i].text` holds its head and a marker, and the rest is in a file. A JSON body is
// one message; an event stream is scanned line by line (a `data:` line holds one message, and the
// other lines hold no `result` object for the scanner to find). A line or body is held only until
// it ends or outgrows the head, so nothing small is scanned and no event waits for another.

class LineSpiller {
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  private scanning = false;
  private readonly scanner: ResultTextScanner;

  /**
   * Listens for the request's abort only while a long line is scanned. The signal can be the
   * transport's, shared by every request of the connection: a listener per body, left on it, would
   * keep every body's spiller and make node warn of a leak after ten requests.
   */
  private readonly onAbort = () => this.abandon();

  constructor(
    private readonly threshold: number,
    /** Split at line feeds (an event stream); else the whole body is one message. */
    private readonly lines: boolean,
    private readonly emit: (bytes: Uint8Array) => void,
    private readonly signal?: AbortSignal | null,
  ) {
    this.scanner = new ResultTextScanner(threshold);
  }

  push(chunk: Uint8Array): void {
    let start = 0;
    if (this.lines) {
      for (let end = chunk.indexOf(0x0a); end !== -1; end = chunk.indexOf(0x0a, start)) {
        this.part(chunk.subarray(start, end + 1));
        this.endLine();
        start = end + 1;
      }
    }
    if (start < chunk.length) this.part(chunk.subarray(start));
  }

  /** The body ended. */
  end(): void {
    this.endLine();
  }

  private part(bytes: Uint8Array): void {
    if (this.scanning) {
      this.scan(bytes);
      return;
    }
    this.held.push(bytes);
    this.heldBytes += bytes.length;
    if (this.heldBytes <= this.threshold) return;
    // Long enough to hold a spilled text: scanned from its start.
    this.scanning = true;
    this.signal?.addEventListener('abort', this.onAbort, { once: true });
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    for (const piece of held) this.scan(piece);
  }

  /** The body was given up (the request aborted): a rest still being written goes with it. */
  abandon(): void {
    this.stopScanning();
    this.scanner.reset();
    this.held = [];
    this.heldBytes = 0;
  }

  private stopScanning(): void {
    this.scanning = false;
    this.signal?.removeEventListener('abort', this.onAbort);
  }

  private scan(bytes: Uint8Array): void {
    for (const kept of this.scanner.scan(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))) this.emit(kept);
  }

  private endLine(): void {
    if (this.scanning) {
      this.scanner.endLine();
      this.stopScanning();
      return;
    }
    for (const piece of this.held) this.emit(piece);
    this.held = [];
    this.heldBytes = 0;
  }
}

/** `body` with every long result text past `threshold` bytes read into a file (see above). */
export function spillingBody(body: ReadableStream<Uint8Array>, threshold: number, eventStream: boolean, signal?: AbortSignal | null): ReadableStream<Uint8Array> {
  let spiller: LineSpiller | undefined;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      start(controller) {
        spiller = new LineSpiller(threshold, eventStream, (bytes) => controller.enqueue(bytes), signal);
      },
      transform(chunk) {
        spiller!.push(chunk);
      },
      flush() {
        spiller!.end();
      },
    }),
  );
}

/** `resultHeadBytes`: limits.maxResultBytes (see spillAfterBytes); unset, bodies pass as they are. */
export function spillResultTexts(resultHeadBytes: number | undefined): Middleware {
  return createMiddleware(async (next, input, init) => {
    const response = await next(input, init);
    if (resultHeadBytes === undefined || !response.body || !response.ok) return response;
    const type = response.headers.get('content-type') ?? '';
    const eventStream = /event-stream/i.test(type);
    if (!eventStream && !/json/i.test(type)) return response;
    const body = spillingBody(response.body, spillAfterBytes(resultHeadBytes), eventStream, init?.signal);
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  });
}
