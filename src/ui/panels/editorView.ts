import type { EditorState } from '../../state/types';
import { chipLabel, cursorPosition, editorTokens, layoutEditor } from './editorLayout';
import { lineWidth, width as textWidth, type Line, type Tone } from './text';

/**
 * How an editor's text looks on screen: every character passes the sanitizer (a pasted escape
 * sequence shows as `\x1b`, never acts), paste chips show as `[pasted N lines]`, and the cursor is
 * an inverse cell.
 */

export { chipLabel };

function push(line: Line, text: string, tone: Tone | undefined) {
  const last = line[line.length - 1];
  if (last && last.tone === tone) last.text += text;
  else line.push({ text, tone });
}

export interface EditorRows {
  rows: Line[];
  /** The row the cursor is on. */
  cursorRow: number;
}

/**
 * Lays the text out in rows of `columns` cells, wrapped at word boundaries like the transcript
 * (see editorLayout), with the cursor drawn as an inverse cell. A row is one cell wider than
 * `columns` when the cursor is in the spare cell at its end. `focused` false draws no cursor.
 */
export function editorRows(state: Pick<EditorState, 'text' | 'pastes' | 'cursor'>, columns: number, focused = true): EditorRows {
  const layout = layoutEditor(state, columns);
  const cursor = cursorPosition(layout, state.cursor);
  const rows: Line[] = layout.rows.map((placed, rowIndex) => {
    const line: Line = [];
    let cursorDrawn = false;
    for (const { token, hanging } of placed) {
      if (hanging || token.kind === 'newline') continue;
      const isCursor = focused && rowIndex === cursor.row && token.index === state.cursor;
      cursorDrawn ||= isCursor;
      push(line, token.text, isCursor ? 'cursor' : token.tone);
    }
    // At the end of a line or text, or on a space hanging past the row's end: a blank cursor cell.
    if (focused && rowIndex === cursor.row && !cursorDrawn) {
      push(line, ' '.repeat(Math.max(0, Math.min(cursor.col, layout.columns) - lineWidth(line))), undefined);
      push(line, ' ', 'cursor');
    }
    return line;
  });
  return { rows, cursorRow: cursor.row };
}

/**
 * One line of an editor (prompts): scrolled sideways so the cursor stays in view.
 */
export function fieldLine(state: Pick<EditorState, 'text' | 'pastes' | 'cursor'>, columns: number, focused = true): Line {
  const limit = Math.max(4, columns);
  const all = editorTokens(state, Infinity).map((token) => ({ ...token, text: token.kind === 'newline' ? '⏎' : token.text, tone: token.kind === 'newline' ? ('marker' as Tone) : token.tone }));
  if (focused && state.cursor >= state.text.length) all.push({ text: ' ', tone: undefined, index: state.text.length, width: 1, kind: 'space' });
  if (all.length === 0) return [];
  const cursorAt = Math.max(0, all.findIndex((token) => token.index === state.cursor));
  // Take tokens to the left of the cursor while they fit, then fill to the right.
  let start = cursorAt;
  let used = textWidth(all[cursorAt]?.text ?? '');
  while (start > 0 && used + textWidth(all[start - 1]!.text) <= limit - 1) {
    start--;
    used += textWidth(all[start]!.text);
  }
  let end = Math.min(all.length, cursorAt + 1);
  const room = start > 0 ? limit - 1 : limit;
  while (end < all.length && used + textWidth(all[end]!.text) <= room) {
    used += textWidth(all[end]!.text);
    end++;
  }
  const line: Line = [];
  if (start > 0) push(line, '…', 'muted');
  for (let i = start; i < end; i++) {
    const token = all[i]!;
    push(line, token.text, focused && i === cursorAt ? 'cursor' : token.tone);
  }
  return line;
}
