import { EventEmitter } from 'node:events';

/**
 * Our own frame writer for the full-screen UI.
 *
 * Ink lays out and renders the React tree into a frame (one string, one line per terminal row);
 * this class puts it on the alternate screen. Ink's built-in writers are made for output that
 * grows below a shell prompt: once a frame is as tall as the terminal they clear the whole screen
 * on every render, and the incremental one loses a row when the frame ends in a newline. Here
 * every line is addressed absolutely, only lines that changed since the last frame are written,
 * and each update is wrapped in a synchronized-output block so terminals that support it never
 * show a half-drawn frame. That keeps bytes per streamed token small and the screen flicker-free.
 */

const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';
const HIDE_CURSOR = '\x1b[?25l';
const RESET = '\x1b[0m';
const ERASE_LINE_RIGHT = '\x1b[K';
const ESC = '\x1b';
const ERASE_LINE = '\x1b[2K';
const ESCAPE_SEQUENCE = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

export interface ScreenTarget {
  write(data: string): unknown;
  columns?: number;
  rows?: number;
}

export class ScreenWriter {
  private previous: string[] = [];
  private fullRepaint = true;
  /** Bytes written since start; the benchmark reads this. */
  bytesWritten = 0;

  constructor(private readonly target: ScreenTarget) {}

  /** The next frame is drawn whole (after a resize, Ctrl+L, or anything else that wrote to the screen). */
  invalidate(): void {
    this.fullRepaint = true;
  }

  render(frame: string): void {
    const rows = this.target.rows || 24;
    const lines = frame.split('\n');
    if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
    if (lines.length > rows) lines.length = rows;

    let out = '';
    if (this.fullRepaint) {
      out += HIDE_CURSOR + RESET + '\x1b[2J';
      this.previous = [];
    }
    // A changed row is erased first, then written: erasing after it would need its width (a
    // full-width row leaves the cursor on its last cell, which an erase would delete), and
    // measuring every row's width costs more than the rest of the frame. Erasing uses the current
    // background, so a reset goes first when the row written before may have left a style open.
    let styled = this.fullRepaint;
    for (let row = 0; row < lines.length; row++) {
      const line = lines[row] ?? '';
      if (!this.fullRepaint && this.previous[row] === line) continue;
      out += `\x1b[${row + 1};1H${styled ? RESET : ''}${ERASE_LINE_RIGHT}${line}`;
      styled = line.includes(ESC);
    }
    for (let row = lines.length; row < this.previous.length && row < rows; row++) {
      out += `\x1b[${row + 1};1H${RESET}${ERASE_LINE}`;
    }
    this.previous = lines;
    this.fullRepaint = false;
    if (out.length === 0) return;
    const data = SYNC_START + out + RESET + SYNC_END;
    this.bytesWritten += Buffer.byteLength(data);
    this.target.write(data);
  }
}

/**
 * What Ink gets as its stdout: it reports the real terminal's size and forwards resizes, and hands
 * each rendered frame to the ScreenWriter instead of the terminal. Ink runs in debug mode against
 * it, so every write is a whole frame; the few cursor-only writes Ink makes on its own (hiding and
 * showing the cursor) carry no text and are dropped.
 */
export class FrameSink extends EventEmitter {
  readonly isTTY = true;

  constructor(
    private readonly terminal: NodeJS.WriteStream,
    private readonly onFrame: (frame: string) => void,
  ) {
    super();
    const forwardResize = () => this.emit('resize');
    terminal.on('resize', forwardResize);
    this.once('close', () => terminal.off('resize', forwardResize));
  }

  get columns(): number {
    return this.terminal.columns || 80;
  }

  get rows(): number {
    return this.terminal.rows || 24;
  }

  write(data: string | Uint8Array): boolean {
    const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
    if (!text.includes('\n') && text.replace(ESCAPE_SEQUENCE, '').trim().length === 0) return true;
    this.onFrame(text);
    return true;
  }

  // Ink only needs these to exist on a stream.
  end(): void {}
  cork(): void {}
  uncork(): void {}
  getColorDepth(): number {
    return this.terminal.getColorDepth?.() ?? 8;
  }
  hasColors(count?: number): boolean {
    return this.terminal.hasColors?.(count) ?? true;
  }
}
