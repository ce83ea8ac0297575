import { EventEmitter } from 'node:events';

// eslint-disable-next-line no-control-regex
const ESCAPE_SEQUENCE = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

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
