import type { Readable } from 'node:stream';

// A stdio server's stdout carries JSON-RPC and nothing else. A program that prints a greeting or
// a log line there (or is not an MCP server at all) never answers the handshake, and all the user
// would learn is "timed out". The first line that is not a JSON-RPC message is kept to say so.

/** Only the start of stdout is looked at: that is where a banner or a wrong program shows. */
const SCAN_BYTES = 64 * 1024;
const SHOWN_CHARS = 120;

function isJsonRpc(line: string): boolean {
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

  watch(stream: Readable | null | undefined): void {
    if (!stream) return;
    let partial = '';
    let scanned = 0;
    const consider = (line: string) => {
      const text = line.replace(/\r$/, '');
      if (this.first !== undefined || text.trim() === '' || isJsonRpc(text)) return;
      this.first = text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS)}…` : text;
    };
    const stop = () => {
      stream.off('data', onData);
      stream.off('end', onEnd);
    };
    const onData = (chunk: Buffer | string) => {
      scanned += chunk.length;
      const lines = (partial + (typeof chunk === 'string' ? chunk : chunk.toString('utf8'))).split('\n');
      partial = (lines.pop() ?? '').slice(0, SCAN_BYTES);
      for (const line of lines) consider(line);
      if (this.first !== undefined || scanned > SCAN_BYTES) stop();
    };
    // A last line without a line end (`printf hello`) counts once the process closes stdout.
    const onEnd = () => {
      consider(partial);
      stop();
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
  }
}
