import { sanitizeLabel } from '../../services/terminal/sanitize';
import type { EditorState } from '../../state/types';
import { BREAK_ANYWHERE } from '../../transcript/text';
import { truncate, width as textWidth, type Tone } from './text';

/**
 * Where every character of an editor's text goes on screen, and where every cursor position is.
 *
 * Soft wrapping follows the transcript's rules (transcript/text.ts wrapToRows): rows break at spaces,
 * the spaces at a break never start the next row, a word wider than the row (or wide East Asian
 * text, which has no spaces) is broken between characters, and wide characters take two cells.
 * Unlike the transcript, an editor cannot drop the spaces at a break: the cursor may sit on
 * them. They stay at the end of their row ("hanging"); past the row's last cell they take no
 * room, and a cursor on them is drawn in the spare cell right of the text (the input bar keeps
 * one for that). The same spare cell holds the cursor at the end of a row filled to the edge.
 *
 * Every cursor position (the start of each character, and the end of the text) has its own
 * (row, column), in order, so the mapping goes both ways; columns past the spare cell only
 * exist on hanging spaces (a run of several spaces at a break) and are drawn in the spare cell.
 */

export interface EditorToken {
  /** What is drawn: the sanitized character, a paste chip's label, '' for a newline. */
  text: string;
  tone?: Tone;
  /** UTF-16 index of the character in the editor text. */
  index: number;
  /** Cells taken (a chip or marker wider than the row is cut to it). */
  width: number;
  kind: 'char' | 'space' | 'newline';
}

export interface PlacedToken {
  token: EditorToken;
  col: number;
  /** A space at a break past the row's last cell: kept on the row, drawn only as the cursor. */
  hanging: boolean;
}

export interface CursorPosition {
  row: number;
  col: number;
}

export interface EditorLayout {
  /** Cells a row's text may fill; one more (the spare cell) holds a cursor at the row's end. */
  columns: number;
  rows: PlacedToken[][];
  /** Every cursor position, in text order: character starts, then the end of the text. */
  positions: Array<CursorPosition & { offset: number }>;
}

function lineCount(text: string): number {
  let count = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) count++;
  return text.endsWith('\n') ? count - 1 : count;
}

export function chipLabel(pasted: string): string {
  const count = lineCount(pasted);
  return count > 1 ? `[pasted ${count} lines]` : `[pasted ${pasted.length} chars]`;
}

/** The text as tokens, one per character (a surrogate pair is one), sanitized for display. */
export function editorTokens(state: Pick<EditorState, 'text' | 'pastes'>, columns: number): EditorToken[] {
  const out: EditorToken[] = [];
  let index = 0;
  for (const char of state.text) {
    if (char === '\n') out.push({ text: '', index, width: 0, kind: 'newline' });
    else if (char === ' ') out.push({ text: ' ', index, width: 1, kind: 'space' });
    else {
      const chip = Object.prototype.hasOwnProperty.call(state.pastes, char);
      let shown = chip ? chipLabel(state.pastes[char]!) : sanitizeLabel(char);
      const tone: Tone | undefined = chip ? 'chip' : shown === char ? undefined : 'marker';
      if (textWidth(shown) > columns) shown = truncate(shown, columns);
      out.push({ text: shown, tone, index, width: textWidth(shown), kind: 'char' });
    }
    index += char.length;
  }
  return out;
}

/** Runs of spaces and runs of other characters (words) of one logical line. */
function groups(line: readonly EditorToken[]): EditorToken[][] {
  const out: EditorToken[][] = [];
  for (const token of line) {
    const last = out[out.length - 1];
    if (last && (last[0]!.kind === 'space') === (token.kind === 'space')) last.push(token);
    else out.push([token]);
  }
  return out;
}

/** Like the transcript: a word with wide East Asian text may break between any two characters. */
function breaksAnywhere(word: readonly EditorToken[]): boolean {
  return word.some((token) => token.tone === undefined && token.width > 0 && BREAK_ANYWHERE.test(token.text));
}

export function layoutEditor(state: Pick<EditorState, 'text' | 'pastes'>, columns: number): EditorLayout {
  const limit = Math.max(2, columns);
  const rows: PlacedToken[][] = [[]];
  const positions: EditorLayout['positions'] = [];
  let col = 0;
  const newRow = () => {
    rows.push([]);
    col = 0;
  };
  const place = (token: EditorToken, hanging = false) => {
    rows[rows.length - 1]!.push({ token, col, hanging });
    positions.push({ offset: token.index, row: rows.length - 1, col });
    col += token.width;
  };

  const tokens = editorTokens(state, limit);
  let lineStart = 0;
  while (lineStart <= tokens.length) {
    let lineEnd = lineStart;
    while (lineEnd < tokens.length && tokens[lineEnd]!.kind !== 'newline') lineEnd++;
    let atLineStart = true;
    let endsWithSpace = false;
    for (const group of groups(tokens.slice(lineStart, lineEnd))) {
      if (group[0]!.kind === 'space') {
        endsWithSpace = true;
        for (const space of group) {
          // Indentation is text like any other and fills rows; spaces after a word hang at a break.
          if (atLineStart && col + space.width > limit) newRow();
          place(space, !atLineStart && col >= limit);
        }
        continue;
      }
      atLineStart = false;
      endsWithSpace = false;
      const wordWidth = group.reduce((sum, token) => sum + token.width, 0);
      if (col + wordWidth <= limit) {
        for (const token of group) place(token);
        continue;
      }
      if (!breaksAnywhere(group) && wordWidth <= limit && col > 0) {
        newRow();
        for (const token of group) place(token);
        continue;
      }
      // Too long for a row (or breakable anywhere): fill this row and go on in the next ones.
      for (const token of group) {
        if (col + token.width > limit && col > 0) newRow();
        place(token);
      }
    }
    const newline = tokens[lineEnd];
    if (newline) {
      // At the end of a full row the newline's cursor takes the spare cell, not a row of its own.
      place(newline);
      newRow();
      lineStart = lineEnd + 1;
      continue;
    }
    // The end of the text: where the next character goes. After a space at the row's end that is
    // the next row; after a word filling the row, the spare cell (the word may go on).
    if (col > limit || (col === limit && endsWithSpace)) newRow();
    positions.push({ offset: state.text.length, row: rows.length - 1, col });
    break;
  }
  return { columns: limit, rows, positions };
}

function findPosition(layout: EditorLayout, offset: number): number {
  const { positions } = layout;
  let low = 0;
  let high = positions.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (positions[middle]!.offset <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Where the cursor at `offset` is (an offset inside a character counts as its start). */
export function cursorPosition(layout: EditorLayout, offset: number): CursorPosition {
  const { row, col } = layout.positions[findPosition(layout, offset)]!;
  return { row, col };
}

/** The cursor position at (row, col), or the nearest one before it on that row (its first when none is). */
export function offsetAt(layout: EditorLayout, row: number, col: number): number {
  const { positions } = layout;
  if (positions.length === 0) return 0;
  const last = positions[positions.length - 1]!;
  if (row > last.row) return last.offset;
  let found: number | undefined;
  for (const position of positions) {
    if (position.row < row) continue;
    if (position.row > row || (found !== undefined && position.col > col)) break;
    found = position.offset;
  }
  return found ?? 0;
}
