import { FRAME_CHROME_ROWS } from './BoxFrame';
import { lineWidth, type Line, type Tone } from './text';

export interface FrameButton {
  /** The key that presses it. */
  key: string;
  label: string;
  /** Used when the full labels do not fit on one row. */
  short: string;
}

/**
 * The buttons, on as few rows as fit `columns`: full labels when they fit on one row, else short
 * ones, wrapped. The focused one is drawn inverse; all are dim while the keys are locked.
 */
export function buttonRows(buttons: FrameButton[], focused: number, enabled: boolean, columns: number): Line[] {
  const render = (useShort: boolean) =>
    buttons.map((button, index): Line => {
      const label = useShort ? button.short : button.label;
      const text = ` ${button.key} ${label} `;
      if (!enabled) return [{ text: `[${text.trim()}]`, tone: 'muted' }];
      if (index === focused) return [{ text: `[${text.trim()}]`, tone: 'selected' }];
      return [
        { text: '[' },
        { text: button.key, tone: 'accent' },
        { text: ` ${label}]` },
      ];
    });
  const gap = 1;
  const fits = (cells: Line[]) => cells.reduce((sum, cell) => sum + lineWidth(cell), 0) + gap * (cells.length - 1) <= columns;
  let cells = render(false);
  if (!fits(cells)) cells = render(true);
  const rows: Line[] = [];
  let row: Line = [];
  let used = 0;
  for (const cell of cells) {
    const cellWidth = lineWidth(cell);
    if (used > 0 && used + gap + cellWidth > columns) {
      rows.push(row);
      row = [];
      used = 0;
    }
    if (used > 0) {
      row.push({ text: ' '.repeat(gap) });
      used += gap;
    }
    row.push(...cell);
    used += cellWidth;
  }
  if (row.length > 0) rows.push(row);
  return rows;
}

/**
 * What a frame shows, split by what may scroll: the header says what is being asked about and is
 * always on screen; only the body (the arguments, the command) scrolls.
 */
export interface FrameParts {
  header: Line[];
  /** Used instead of `header` when the full one would leave the body too few rows. */
  compactHeader?: Line[];
  /** Names the body (`arguments`); while the body scrolls, the scroll counter joins it. */
  bodyLabel?: Line;
  body: Line[];
}

export interface FrameLayout {
  /** The rows inside the border: the header, the visible part of the body, then the footer. */
  rows: Line[];
  /** Rows including the border. */
  height: number;
  /** Body rows in all, and how many are shown. */
  total: number;
  viewport: number;
  /** The first body row shown (clamped). */
  scrollTop: number;
}

export interface FrameLayoutInput {
  parts: FrameParts;
  footer: Line[];
  /** Rows the frame may use, border included. */
  maxHeight: number;
  scrollTop: number;
  /** Appended to the scroll line while part of the body has not been on screen. */
  unreadNote?: Line;
  /** Body rows already seen (exclusive); decides whether `unreadNote` shows. */
  seen?: number;
}

/** A scrolling body keeps at least this many rows before the header is compacted. */
const MIN_BODY_ROWS = 3;

/**
 * Fits header, body and footer into `maxHeight`. The header never scrolls away; when the body
 * does not fit it scrolls under a counter line (`arguments · lines 4–9 of 30`), and a header too
 * tall to leave the body room gives way to its compact form.
 */
export function layoutFrame({ parts, footer, maxHeight, scrollTop, unreadNote, seen = 0 }: FrameLayoutInput): FrameLayout {
  const { body, bodyLabel } = parts;
  const room = Math.max(1, maxHeight - FRAME_CHROME_ROWS - footer.length);
  const total = body.length;
  const labelRows = bodyLabel ? 1 : 0;
  const whole = (header: Line[]): FrameLayout => {
    const rows = [...header, ...(bodyLabel ? [bodyLabel] : []), ...body, ...footer];
    return { rows, height: rows.length + FRAME_CHROME_ROWS, total, viewport: total, scrollTop: 0 };
  };
  if (parts.header.length + labelRows + total <= room) return whole(parts.header);
  const compact = parts.compactHeader ?? parts.header;
  let header = parts.header;
  if (room - header.length - 1 < Math.min(MIN_BODY_ROWS, total)) {
    if (compact.length + labelRows + total <= room) return whole(compact);
    header = compact;
  }
  // The counter line takes the label's place, so scrolling costs no extra row.
  const viewport = Math.max(1, room - header.length - 1);
  const top = Math.max(0, Math.min(scrollTop, total - viewport));
  const bottom = Math.min(total, top + viewport);
  const scrollLine: Line = bodyLabel ? [...bodyLabel, { text: ' · ', tone: 'muted' }] : [];
  scrollLine.push({ text: `lines ${top + 1}–${bottom} of ${total}`, tone: 'muted' as Tone });
  const unread = unreadNote !== undefined && Math.max(seen, bottom) < total;
  if (top > 0) scrollLine.push({ text: ' ↑', tone: 'muted' });
  // The note says more than `more` does, and the line has to fit beside the sidebar.
  if (bottom < total) scrollLine.push({ text: unread ? ' ↓' : ' ↓ more', tone: 'muted' });
  if (unread) scrollLine.push({ text: ' · ', tone: 'muted' }, ...unreadNote);
  const rows = [...header, scrollLine, ...body.slice(top, bottom), ...footer];
  return { rows, height: rows.length + FRAME_CHROME_ROWS, total, viewport, scrollTop: top };
}
