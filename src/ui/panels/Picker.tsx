import { sanitizeLabel } from '../../services/terminal/sanitize';
import type { PickerItem, PickerState } from '../../state/types';
import { BoxFrame, FRAME_CHROME_ROWS, innerWidth } from './BoxFrame';
import { fieldLine } from './editorView';
import { truncate, truncateLine, width as textWidth, type Line } from './text';
import type { Theme } from '../../terminal/theme';
import { maxOf } from '../../services/terminal/rows';

/** Rows of the list at most; fewer when the screen is short. */
export const PICKER_MAX_LIST_ROWS = 10;
/** The filter line and the footer line. */
const PICKER_EXTRA_ROWS = 2;

/** A short list keeps this many rows, so rows arriving later (a server's models) do not jump much. */
const PICKER_MIN_LIST_ROWS = 3;

/** How many list rows a picker of `items` rows shows in `maxHeight` rows (border and filter line included). */
export function pickerListRows(maxHeight: number, items: number = PICKER_MAX_LIST_ROWS): number {
  const room = Math.max(1, Math.min(PICKER_MAX_LIST_ROWS, maxHeight - FRAME_CHROME_ROWS - PICKER_EXTRA_ROWS));
  return Math.min(room, Math.max(PICKER_MIN_LIST_ROWS, items));
}

/** The picker's whole height for `maxHeight` available rows. */
export function pickerHeight(maxHeight: number, items?: number): number {
  return pickerListRows(maxHeight, items) + FRAME_CHROME_ROWS + PICKER_EXTRA_ROWS;
}

/** The items the filter keeps: every word of the filter appears in the label, detail or group (any case). */
export function filterPickerItems(items: readonly PickerItem[], filter: string): PickerItem[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...items];
  return items.filter((item) => {
    const haystack = `${item.label} ${item.detail ?? ''} ${item.group ?? ''}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

export interface PickerProps {
  picker: PickerState;
  width: number;
  maxHeight: number;
  theme: Theme;
}

/** A list to choose from; every text in it may come from a server or a file, so it is sanitized. */
export function Picker({ picker, width, maxHeight, theme }: PickerProps) {
  const inner = innerWidth(width);
  const rows = pickerListRows(maxHeight, picker.items.length);
  const shown = filterPickerItems(picker.items, picker.filter.text);
  const selected = Math.min(picker.selected, Math.max(0, shown.length - 1));
  const top = Math.max(0, Math.min(selected - Math.floor(rows / 2), shown.length - rows));
  const labelWidth = Math.min(maxOf(shown.map((item) => textWidth(sanitizeLabel(item.label))), 8), Math.floor(inner * 0.6));
  const lines: Line[] = [[{ text: 'filter ', tone: 'muted' }, ...fieldLine(picker.filter, inner - 7, true)]];
  for (let row = 0; row < rows; row++) {
    const item = shown[top + row];
    if (!item) {
      lines.push(row === 0 ? [{ text: picker.items.length === 0 ? 'nothing to choose from yet' : 'nothing matches the filter', tone: 'muted' }] : []);
      continue;
    }
    const chosen = top + row === selected;
    const label = truncate(sanitizeLabel(item.label), labelWidth);
    const detail = [item.detail, item.group].filter(Boolean).map((text) => sanitizeLabel(text!)).join('  ');
    const line: Line = [
      { text: chosen ? '› ' : '  ', tone: chosen ? 'accent' : undefined },
      { text: label.padEnd(labelWidth + Math.max(0, label.length - textWidth(label))), tone: chosen ? 'selected' : undefined },
    ];
    if (detail) line.push({ text: `  ${detail}`, tone: 'muted' });
    lines.push(truncateLine(line, inner));
  }
  const count = shown.length === picker.items.length ? `${shown.length}` : `${shown.length} of ${picker.items.length}`;
  lines.push([{ text: truncate(picker.note ? sanitizeLabel(picker.note) : '↑↓ select · type to filter · Enter choose · Esc close', inner), tone: 'muted' }]);
  return <BoxFrame width={width} title={[{ text: sanitizeLabel(picker.title), tone: 'bold' }]} badge={[{ text: count, tone: 'muted' }]} lines={lines} theme={theme} />;
}
