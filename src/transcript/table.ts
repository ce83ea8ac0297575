import type { Tokens } from 'marked';
import { renderInline, type MarkdownContext } from './markdown';
import { mergeStyles } from './style';
import { alignSpans, serialize, spansWidth, wrapSpans, wrapToRows, type Span } from './text';
import { maxOf, pushAll } from '../services/terminal/rows';

const SEPARATOR = ' │ ';
const MIN_COLUMN = 3;

/**
 * Column widths that fit `available`: natural widths when they fit, else the widest columns give
 * way first (narrow columns such as numbers keep their width as long as possible).
 */
export function fitColumns(natural: readonly number[], available: number): number[] {
  const widths = natural.map((width) => Math.max(1, width));
  let excess = widths.reduce((sum, width) => sum + width, 0) - available;
  while (excess > 0) {
    let widest = 0;
    for (let index = 1; index < widths.length; index++) if (widths[index]! > widths[widest]!) widest = index;
    const second = maxOf(widths.filter((_, index) => index !== widest), MIN_COLUMN);
    const cut = Math.min(excess, Math.max(1, widths[widest]! - second));
    if (widths[widest]! - cut < MIN_COLUMN) break;
    widths[widest] = widths[widest]! - cut;
    excess -= cut;
  }
  return widths;
}

/** A markdown table fitted to `width`: cells wrap inside their column; too many columns become a list. */
export function renderTable(table: Tokens.Table, width: number, ctx: MarkdownContext): string[] {
  const { styles } = ctx;
  const headerStyle = styles.tableHeader;
  const header = table.header.map((cell) => renderInline(cell.tokens, headerStyle, ctx));
  const rows = table.rows.map((row) => row.map((cell) => renderInline(cell.tokens, undefined, ctx)));
  const columns = header.length;
  const available = width - SEPARATOR.length * (columns - 1);

  if (columns === 0) return [];
  if (available < columns * MIN_COLUMN) {
    // Narrow terminal: one "header: value" row per cell, a blank row between table rows.
    const out: string[] = [];
    rows.forEach((row, rowIndex) => {
      if (rowIndex > 0) out.push('');
      row.forEach((cell, column) => {
        const label: Span[] = [...(header[column] ?? []).map((part) => ({ ...part, style: mergeStyles(part.style, headerStyle) })), { text: ': ', style: headerStyle }];
        pushAll(out, wrapSpans([...label, ...cell], width));
      });
    });
    return out;
  }

  const natural = header.map((cell, column) => maxOf(rows.map((row) => spansWidth(row[column] ?? [])), spansWidth(cell)));
  const widths = fitColumns(natural, available);
  if (widths.reduce((sum, w) => sum + w, 0) > available) return renderTable({ ...table }, 0, ctx);

  const border = styles.tableBorder;
  const drawRow = (cells: Span[][]): string[] => {
    const wrapped = cells.map((cell, column) => wrapToRows(cell, widths[column]!));
    const height = maxOf(wrapped.map((lines) => lines.length), 1);
    const lines: string[] = [];
    for (let line = 0; line < height; line++) {
      const spans: Span[] = [];
      for (let column = 0; column < columns; column++) {
        if (column > 0) spans.push({ text: SEPARATOR, style: border });
        const content = wrapped[column]?.[line] ?? [];
        // The last column needs no padding unless it is aligned away from the left.
        const last = column === columns - 1;
        const align = table.align[column];
        pushAll(spans, (last && (align === 'left' || !align) ? content : alignSpans(content, widths[column]!, align)));
      }
      lines.push(serialize(spans));
    }
    return lines;
  };

  const rule = serialize([{ text: widths.map((w) => '─'.repeat(w)).join('─┼─'), style: border }]);
  const out = drawRow(header.map((cell, column) => cell.length > 0 ? cell : [{ text: '', style: headerStyle }]).slice(0, columns));
  out.push(rule);
  for (const row of rows) pushAll(out, drawRow(Array.from({ length: columns }, (_, column) => row[column] ?? [])));
  return out;
}
