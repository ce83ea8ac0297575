import { FRAME_CHROME_ROWS } from './BoxFrame';
import { lineWidth, truncateLine, width, type Line, type Tone } from './text';
import { pushAll } from '../../services/terminal/rows';

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
    pushAll(row, cell);
    used += cellWidth;
  }
  if (row.length > 0) rows.push(row);
  return rows;
}

/**
 * A frame's answer buttons as its footer, and the one-row form for a very short screen: the
 * focused button first (cut with `…`), so that what Enter answers is always on screen.
 */
export function answerButtons(buttons: FrameButton[], focused: number, enabled: boolean, columns: number): { footer: Line[]; compactFooter: Line[] } {
  const first = buttons[focused];
  const ordered = first ? [first, ...buttons.filter((_, index) => index !== focused)] : buttons;
  const oneRow = buttonRows(ordered, 0, enabled, columns).flatMap((row, index) => (index > 0 ? [{ text: ' ' }, ...row] : row));
  return { footer: buttonRows(buttons, focused, enabled, columns), compactFooter: [truncateLine(oneRow, columns)] };
}

/**
 * What a frame shows, split by what may scroll: the header says what is being asked about and is
 * always on screen; only the body (the arguments, the command) scrolls.
 */
export interface FrameParts {
  header: Line[];
  /** Used instead of `header` when the full one would leave the body too few rows. */
  compactHeader?: Line[];
  /**
   * One row pinned when not even the compact header fits: the whole header then scrolls at the
   * top of the body. It must say so when it shortened anything. Without it, the compact
   * header's first row is used, cut and marked.
   */
  oneRowHeader?: Line;
  /** Names the body (`arguments`); while the body scrolls, the scroll counter joins it. */
  bodyLabel?: Line;
  body: Line[];
}

export interface FrameLayout {
  /** The rows inside the border: the header, the visible part of the body, then the footer. */
  rows: Line[];
  /** Rows including the border: exactly what is drawn, and never more than `maxHeight` allows. */
  height: number;
  /** Rows that scroll, in all, and how many are shown. */
  total: number;
  viewport: number;
  /** The first scrolling row shown (clamped). */
  scrollTop: number;
  /**
   * Rows of the header moved to the top of the scrolling part because even the compact header
   * left no room (0 otherwise). Scroll positions and what has been seen count from the top of
   * the scrolling part, so they shift by this much when it changes.
   */
  leadRows: number;
}

export interface FrameLayoutInput {
  parts: FrameParts;
  footer: Line[];
  /** One row in place of `footer` when the full one would leave the body no row. */
  compactFooter?: Line[];
  /** Rows the frame may use, border included. */
  maxHeight: number;
  /** Columns inside the border (the parts were wrapped to it). */
  columns: number;
  scrollTop: number;
  /** Appended to the scroll line while part of the body has not been on screen. */
  unreadNote?: Line;
  /** Body rows already seen from the top (exclusive), and runs seen below a gap; decide whether `unreadNote` shows. */
  seen?: number;
  seenRuns?: readonly RowRun[];
}

/** A scrolling body keeps at least this many rows before the header is compacted. */
const MIN_BODY_ROWS = 3;
/** The scroll line and one body row: what a scrolling frame shows at the least. */
const MIN_SCROLL_ROWS = 2;
/**
 * The smallest frame that stays within its height: border, scroll line, one body row, one footer
 * row. Below this the frame is taller than it was allowed (the caller treats it as clipped).
 */
export const MIN_FRAME_HEIGHT = FRAME_CHROME_ROWS + MIN_SCROLL_ROWS + 1;

/** Said after a pinned row that was shortened: the whole header is in the rows that scroll. */
export const SHORTENED_NOTE = ' (shortened)';

/**
 * The one pinned row left when the header does not fit: its first row, saying that it was
 * shortened (the whole header is at the top of the scrolling part).
 */
function shortenedHeader(compact: Line[], columns: number): Line[] {
  const first = compact[0];
  if (!first) return [];
  if (compact.length === 1) return [first];
  if (width(SHORTENED_NOTE) + 16 <= columns) {
    return [[...truncateLine(first, columns - width(SHORTENED_NOTE)), { text: SHORTENED_NOTE, tone: 'muted' }]];
  }
  // Too narrow for the note: the row ends in `…` either way.
  const cut = truncateLine(first, columns - 1);
  return [lineWidth(cut) < lineWidth(first) ? cut : [...first, { text: '…' }]];
}

/** Rows [from, to) of a frame's scrolling part. */
export type RowRun = readonly [number, number];

/**
 * What has been on screen after rows [from, to) were: `seen` rows from the top without a gap, and
 * the runs below a gap (rows shown after a jump, as End makes). Only rows actually shown count,
 * so a jump past unread rows leaves them unread: what is approved must have been shown.
 */
export function markRead(seen: number, runs: readonly RowRun[] | undefined, from: number, to: number): { seen: number; runs: RowRun[] } {
  const all = [...(runs ?? []), [from, to] as RowRun].sort((a, b) => a[0] - b[0]);
  let prefix = seen;
  const rest: Array<[number, number]> = [];
  for (const [start, end] of all) {
    const last = rest[rest.length - 1];
    if (start <= prefix && rest.length === 0) prefix = Math.max(prefix, end);
    else if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else rest.push([start, end]);
  }
  return { seen: prefix, runs: rest };
}

/** How many rows from the top have been on screen without a gap, counting the view (`viewport` rows from `scrollTop`). */
export function rowsRead(seen: number, runs: readonly RowRun[] | undefined, scrollTop: number, viewport: number): number {
  return markRead(seen, runs, scrollTop, scrollTop + viewport).seen;
}

/**
 * Fits header, body and footer into `maxHeight`. The header never scrolls away; when the body
 * does not fit it scrolls under a counter line (`arguments · lines 4–9 of 30`), a header too tall
 * to leave the body room gives way to its compact form, and when even that does not fit, the whole
 * header moves to the top of the scrolling part (it is read like the body before the keys work)
 * with one shortened row of it pinned. The height returned is the height drawn, and it is within
 * `maxHeight` whenever `maxHeight` is at least MIN_FRAME_HEIGHT.
 */
export function layoutFrame({ parts, footer: fullFooter, compactFooter, maxHeight, columns, scrollTop, unreadNote, seen = 0, seenRuns }: FrameLayoutInput): FrameLayout {
  const { body, bodyLabel } = parts;
  const inside = maxHeight - FRAME_CHROME_ROWS;
  const footer = compactFooter && inside - fullFooter.length < MIN_SCROLL_ROWS ? compactFooter : fullFooter;
  const room = inside - footer.length;
  const total = body.length;
  const labelRows = bodyLabel ? 1 : 0;
  const whole = (header: Line[]): FrameLayout => {
    const rows = [...header, ...(bodyLabel ? [bodyLabel] : []), ...body, ...footer];
    return { rows, height: rows.length + FRAME_CHROME_ROWS, total, viewport: total, scrollTop: 0, leadRows: 0 };
  };
  const scrolled = (header: Line[], scrolling: Line[], label: Line | undefined, leadRows: number): FrameLayout => {
    const count = scrolling.length;
    const viewport = Math.max(1, room - header.length - 1);
    const top = Math.max(0, Math.min(scrollTop, count - viewport));
    const bottom = Math.min(count, top + viewport);
    // The counter line takes the label's place, so scrolling costs no extra row.
    const scrollLine: Line = label ? [...label, { text: ' · ', tone: 'muted' }] : [];
    scrollLine.push({ text: `lines ${top + 1}–${bottom} of ${count}`, tone: 'muted' as Tone });
    const unread = unreadNote !== undefined && rowsRead(seen, seenRuns, top, viewport) < count;
    if (top > 0) scrollLine.push({ text: ' ↑', tone: 'muted' });
    // The note says more than `more` does, and the line has to fit beside the sidebar.
    if (bottom < count) scrollLine.push({ text: unread ? ' ↓' : ' ↓ more', tone: 'muted' });
    if (unread) { scrollLine.push({ text: ' · ', tone: 'muted' }); pushAll(scrollLine, unreadNote); }
    const rows = [...header, scrollLine, ...scrolling.slice(top, bottom), ...footer];
    return { rows, height: rows.length + FRAME_CHROME_ROWS, total: count, viewport, scrollTop: top, leadRows };
  };

  if (parts.header.length + labelRows + total <= room) return whole(parts.header);
  if (room - parts.header.length - 1 >= Math.min(MIN_BODY_ROWS, total)) return scrolled(parts.header, body, bodyLabel, 0);
  const compact = parts.compactHeader ?? parts.header;
  if (compact.length + labelRows + total <= room) return whole(compact);
  if (room - compact.length - 1 >= Math.min(1, total)) return scrolled(compact, body, bodyLabel, 0);
  // Not even the compact header fits beside one body row (long names, a short terminal).
  const lead = [...parts.header, ...(bodyLabel ? [bodyLabel] : [])];
  const pinned = room < MIN_SCROLL_ROWS + 1 ? [] : parts.oneRowHeader ? [parts.oneRowHeader] : shortenedHeader(compact, columns);
  return scrolled(pinned, [...lead, ...body], undefined, lead.length);
}
