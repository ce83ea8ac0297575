import sliceAnsi from 'slice-ansi';
import { narrowWidth } from './narrow-width';
import { leavesStyleOpen, overErasedCells, stylesInForce } from './sgr-state';
import { planScroll, regionKeepsLayout, sameRow, scrolled, scrollSequence, type Row } from './screenScroll';

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
 *
 * The transcript is not part of Ink's frame (see transcript/layer.ts): it is a region at the
 * top-left corner that Ink leaves blank and this writer fills in, and whose rows the terminal
 * scrolls itself when they moved up.
 */

const SYNC_START = '\x1b[?2026h';
const SYNC_END = '\x1b[?2026l';
const HIDE_CURSOR = '\x1b[?25l';
const RESET = '\x1b[0m';
const ERASE_LINE_RIGHT = '\x1b[K';
const ERASE_LINE = '\x1b[2K';

export interface ScreenTarget {
  write(data: string): unknown;
  columns?: number;
  rows?: number;
}

/**
 * A block at the top-left corner of the screen drawn by someone other than Ink (the transcript):
 * Ink leaves it blank, the writer puts these rows there. Inactive while its size is 0.
 */
export interface ScreenRegion {
  readonly width: number;
  readonly height: number;
  /** The region's rows top to bottom (missing rows are blank), none wider than `width`. */
  rows(): readonly string[];
}

/**
 * For a row that keeps its width and changes only in a few plain characters (a spinner's glyph,
 * an elapsed second, a token count), the changed cells alone: where they start, the styles in
 * force there and the new characters. Undefined when that is not simply so (an escape sequence or
 * a character of uncertain width inside or before the change); the row is then written whole.
 */
export function changedCells(old: string, now: string): { column: number; styles: string; text: string } | undefined {
  const shorter = Math.min(old.length, now.length);
  let start = 0;
  while (start < shorter && old.charCodeAt(start) === now.charCodeAt(start)) start++;
  // Never start inside an escape sequence or a surrogate pair.
  const escape = now.lastIndexOf('\x1b', start - 1);
  if (escape >= 0 && !/[@-~]/.test(now.slice(escape + 2, start))) start = escape;
  if (start > 0 && now.charCodeAt(start - 1) >= 0xd800 && now.charCodeAt(start - 1) <= 0xdbff) start--;
  let end = 0;
  while (end < shorter - start && old.charCodeAt(old.length - 1 - end) === now.charCodeAt(now.length - 1 - end)) end++;
  const before = old.slice(start, old.length - end);
  const after = now.slice(start, now.length - end);
  if (after.length === 0 || before.includes('\x1b') || after.includes('\x1b')) return undefined;
  // A low surrogate or a joiner right after the change would belong to it: leave such rows whole.
  const next = now.charCodeAt(now.length - end);
  if (end > 0 && ((next >= 0xdc00 && next <= 0xdfff) || next === 0x200d || (next >= 0x300 && next <= 0x36f) || (next >= 0xfe00 && next <= 0xfe0f))) return undefined;
  const prefix = now.slice(0, start);
  const column = narrowWidth(prefix);
  const width = narrowWidth(after);
  if (column === undefined || width === undefined || width !== narrowWidth(before)) return undefined;
  return { column, styles: stylesInForce(prefix), text: after };
}

/**
 * For a line that grew (a streamed answer's last row, a word at a time), what to write from where
 * it first differs: that column, the styles in force there and the rest of the line. Only when
 * the rest covers every cell the old rest took and all widths are certain; undefined otherwise.
 */
export function grownCells(old: string, now: string): { column: number; styles: string; text: string } | undefined {
  const shorter = Math.min(old.length, now.length);
  let start = 0;
  while (start < shorter && old.charCodeAt(start) === now.charCodeAt(start)) start++;
  if (start === 0) return undefined;
  const escape = now.lastIndexOf('\x1b', start - 1);
  if (escape >= 0 && !/[@-~]/.test(now.slice(escape + 2, start))) start = escape;
  const prefix = now.slice(0, start);
  const column = narrowWidth(prefix);
  const width = narrowWidth(now.slice(start));
  const oldWidth = narrowWidth(old.slice(start));
  if (column === undefined || width === undefined || oldWidth === undefined || width < oldWidth) return undefined;
  return { column, styles: stylesInForce(prefix), text: now.slice(start) };
}

let blanks = '';
/** `width` plain spaces (kept, as every frame asks for the same width). */
function spaces(width: number): string {
  if (blanks.length !== width) blanks = ' '.repeat(width);
  return blanks;
}

function splitLines(frame: string): string[] {
  const lines = frame.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

export interface ScreenWriterOptions {
  /**
   * The least time between two scrolls of the region's rows (0: scroll on every frame). Each scroll
   * costs the rows beside and around the scroll region written again, whatever it moves; when
   * lines arrive faster than this, one scroll moves them together and the rest of the screen is
   * drawn meanwhile. The rows it holds back are drawn by a timer, so the screen always catches up.
   */
  scrollIntervalMs?: number;
  now?: () => number;
  /** Called once, with the bytes of the first frame written (the start-up paint remembers them). */
  onFirstPaint?: (data: string) => void;
}

export class ScreenWriter {
  private previous: Row[] = [];
  private frame: string[] = [];
  private region: ScreenRegion | undefined;
  private fullRepaint = true;
  private lastScrollAt = Number.NEGATIVE_INFINITY;
  private heldScroll: ReturnType<typeof setTimeout> | undefined;
  /** Bytes written since start; the benchmark reads this. */
  bytesWritten = 0;

  constructor(
    private readonly target: ScreenTarget,
    private options: ScreenWriterOptions = {},
  ) {}

  /** Stops the timer of a held-back scroll (the screen is being left). */
  dispose(): void {
    clearTimeout(this.heldScroll);
    this.heldScroll = undefined;
  }

  /** The next frame is drawn whole (after a resize, Ctrl+L, or anything else that wrote to the screen). */
  invalidate(): void {
    this.fullRepaint = true;
  }

  private suspended = false;

  /**
   * Writes nothing until `resume` (another program has the terminal, e.g. an external editor);
   * frames keep arriving and the last one is drawn whole on resume.
   */
  suspend(): void {
    this.suspended = true;
  }

  resume(): void {
    this.suspended = false;
    this.invalidate();
    this.render();
  }

  /**
   * Writes a terminal request that is not a frame (`:copy`'s OSC 52) at once, between frames, so
   * the screen writer stays the only writer. False while suspended (nobody would read it).
   */
  passthrough(sequence: string): boolean {
    if (this.suspended) return false;
    this.target.write(sequence);
    return true;
  }

  /**
   * Draws the region's new rows (Ink's frame is unchanged). While a scroll is held nothing of the
   * region could be written before the held scroll's own render, which draws the rows as they are
   * then: laying them out for every frame meanwhile only found nothing to write.
   */
  repaintRegion(): void {
    if (this.heldScroll !== undefined && !this.fullRepaint) return;
    this.render();
  }

  /** Draws `region` over the top-left corner of every frame from now on (undefined: none). */
  setRegion(region: ScreenRegion | undefined): void {
    this.region = region;
  }

  private now(): number {
    return this.options.now ? this.options.now() : performance.now();
  }

  /** True when a scroll now would come too soon after the last one; then one is set for later. */
  private holdScroll(): boolean {
    const interval = this.options.scrollIntervalMs ?? 0;
    const wait = this.lastScrollAt + interval - this.now();
    if (interval <= 0 || wait <= 0) {
      clearTimeout(this.heldScroll);
      this.heldScroll = undefined;
      return false;
    }
    if (this.heldScroll === undefined) {
      this.heldScroll = setTimeout(() => {
        this.heldScroll = undefined;
        this.render();
      }, wait);
      // Never what keeps the process alive: quitting does not wait for it.
      this.heldScroll.unref?.();
    }
    return true;
  }

  /** The rows of the screen: Ink's frame with the region laid over its corner. */
  private compose(screenRows: number): { rows: Row[]; regionHeight: number } {
    const lines = this.frame.length > screenRows ? this.frame.slice(0, screenRows) : this.frame;
    const region = this.region;
    const regionHeight = region && region.width > 0 ? Math.min(region.height, screenRows) : 0;
    const rows: Row[] = [];
    const count = Math.max(lines.length, regionHeight);
    const regionRows = regionHeight > 0 ? region!.rows() : [];
    for (let row = 0; row < count; row++) {
      const line = lines[row] ?? '';
      if (row >= regionHeight) {
        rows.push({ left: line, right: '', cut: -1 });
        continue;
      }
      const width = region!.width;
      // Ink left the region blank: its line starts with that many plain spaces, or ends before.
      let right = '';
      if (line.length > width) right = line.startsWith(spaces(width)) ? line.slice(width) : sliceAnsi(line, width);
      rows.push({ left: regionRows[row] ?? '', right: right.trim().length > 0 ? right : '', cut: width });
    }
    return { rows, regionHeight };
  }

  /**
   * Draws a frame from Ink, or (without one) the last frame again with the region's current rows.
   * Only rows that changed are written; when the region's rows moved (a streamed answer
   * scrolling), the terminal scrolls them itself inside a scroll region and only what is new is
   * written.
   */
  render(frame?: string): void {
    if (frame !== undefined) this.frame = splitLines(frame);
    if (this.suspended) return;
    const screenRows = this.target.rows || 24;
    const { rows, regionHeight } = this.compose(screenRows);

    let out = '';
    let before = this.previous;
    if (this.fullRepaint) {
      out += HIDE_CURSOR + RESET + '\x1b[2J';
      before = [];
    } else {
      const plan = planScroll(before, rows, regionHeight);
      if (plan && regionKeepsLayout(before, rows, regionHeight) && this.holdScroll()) {
        // The region keeps what it shows until the timer; everything else is drawn now.
        for (let index = 0; index < regionHeight && index < rows.length; index++) rows[index] = { ...rows[index]!, left: before[index]!.left };
      } else if (plan) {
        out += scrollSequence(plan, RESET);
        before = scrolled(before, plan);
        this.lastScrollAt = this.now();
      }
    }

    // A reset goes before erasing only when the text written before left a style open (erasing
    // fills with the current background); rows close their own styles, so most need none.
    let styled = true;
    const write = (text: string) => {
      out += text;
      styled = leavesStyleOpen(text);
    };
    let cells: ReturnType<typeof changedCells>;
    for (let index = 0; index < rows.length; index++) {
      const row = rows[index]!;
      const old = before[index];
      if (sameRow(old, row)) continue;
      const reset = styled ? RESET : '';
      const line = index + 1;
      if (old && old.cut === row.cut && row.cut >= 0 && old.right === row.right) {
        // Only the region's part changed: a line that grew gets what is new; any other is erased
        // (unless blank) and written again.
        const grown = old.left === '' ? undefined : grownCells(old.left, row.left);
        const erase = old.left === '' ? '' : `\x1b[${row.cut}X`;
        if (grown) write(`\x1b[${line};${grown.column + 1}H${reset}${grown.styles}${grown.text}`);
        else write(`\x1b[${line}H${reset}${erase}${overErasedCells(row.left)}`);
      } else if (old && old.cut === -1 && row.cut === -1 && old.right === '' && row.right === '' && old.left !== '' && (cells = changedCells(old.left, row.left))) {
        // A line of Ink's that kept its width: only the characters that changed.
        write(`\x1b[${cells.column > 0 ? `${line};${cells.column + 1}` : line}H${reset}${cells.styles}${cells.text}`);
      } else if (old && old.cut === row.cut && row.cut >= 0 && old.left === row.left) {
        write(`\x1b[${line};${row.cut + 1}H${reset}${ERASE_LINE_RIGHT}${overErasedCells(row.right)}`);
      } else {
        // A changed row is erased first, then written: erasing after it would need its width (a
        // full-width row leaves the cursor on its last cell, which an erase would delete).
        const right = row.right.length > 0 ? `\x1b[${row.cut + 1}G${overErasedCells(row.right)}` : '';
        write(`\x1b[${line}H${reset}${ERASE_LINE_RIGHT}${overErasedCells(row.left)}${right}`);
      }
    }
    for (let index = rows.length; index < before.length && index < screenRows; index++) {
      if (before[index]!.left === '' && before[index]!.right === '') continue;
      out += `\x1b[${index + 1}H${RESET}${ERASE_LINE}`;
    }
    this.previous = rows;
    this.fullRepaint = false;
    if (out.length === 0) return;
    const data = SYNC_START + out + (styled ? RESET : '') + SYNC_END;
    this.bytesWritten += Buffer.byteLength(data);
    this.target.write(data);
    const onFirstPaint = this.options.onFirstPaint;
    if (onFirstPaint) {
      this.options = { ...this.options, onFirstPaint: undefined };
      onFirstPaint(data);
    }
  }
}

export { FrameSink } from './frame-sink';
