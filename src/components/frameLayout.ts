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

export interface FrameLayout {
  /** The rows inside the border: the visible part of the body, then the footer. */
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
  body: Line[];
  footer: Line[];
  /** Rows the frame may use, border included. */
  maxHeight: number;
  scrollTop: number;
  /** Appended to the scroll line while part of the body has not been on screen. */
  unreadNote?: Line;
  /** Body rows already seen (exclusive); decides whether `unreadNote` shows. */
  seen?: number;
}

/** Fits body and footer into `maxHeight`; the body scrolls when it does not fit. */
export function layoutFrame({ body, footer, maxHeight, scrollTop, unreadNote, seen = 0 }: FrameLayoutInput): FrameLayout {
  const room = Math.max(1, maxHeight - FRAME_CHROME_ROWS - footer.length);
  const total = body.length;
  if (total <= room) {
    return { rows: [...body, ...footer], height: total + footer.length + FRAME_CHROME_ROWS, total, viewport: total, scrollTop: 0 };
  }
  const viewport = Math.max(1, room - 1);
  const top = Math.max(0, Math.min(scrollTop, total - viewport));
  const bottom = top + viewport;
  const scrollLine: Line = [{ text: `lines ${top + 1}–${bottom} of ${total}`, tone: 'muted' as Tone }];
  if (top > 0) scrollLine.push({ text: ' ↑', tone: 'muted' });
  if (bottom < total) scrollLine.push({ text: ' ↓ more', tone: 'muted' });
  if (unreadNote && Math.max(seen, bottom) < total) scrollLine.push({ text: ' · ', tone: 'muted' }, ...unreadNote);
  const rows = [...body.slice(top, bottom), scrollLine, ...footer];
  return { rows, height: rows.length + FRAME_CHROME_ROWS, total, viewport, scrollTop: top };
}
