import { sanitizeLabel } from '../services/terminal/sanitize';
import type { EditorState } from '../state/types';
import { truncate, width as textWidth, type Line, type Tone } from './text';

/**
 * How an editor's text looks on screen: every character passes the sanitizer (a pasted escape
 * sequence shows as `\x1b`, never acts), paste chips show as `[pasted N lines]`, and the cursor is
 * an inverse cell.
 */

interface Token {
  text: string;
  tone?: Tone;
  /** UTF-16 index of the character in the editor text. */
  index: number;
  newline?: boolean;
}

function lines(text: string): number {
  let count = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) count++;
  return text.endsWith('\n') ? count - 1 : count;
}

export function chipLabel(pasted: string): string {
  const count = lines(pasted);
  return count > 1 ? `[pasted ${count} lines]` : `[pasted ${pasted.length} chars]`;
}

function tokens(state: Pick<EditorState, 'text' | 'pastes'>): Token[] {
  const out: Token[] = [];
  let index = 0;
  for (const char of state.text) {
    if (char === '\n') out.push({ text: '', index, newline: true });
    else if (Object.prototype.hasOwnProperty.call(state.pastes, char)) out.push({ text: chipLabel(state.pastes[char]!), tone: 'chip', index });
    else {
      const shown = sanitizeLabel(char);
      out.push({ text: shown, tone: shown === char ? undefined : 'marker', index });
    }
    index += char.length;
  }
  return out;
}

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
 * Lays the text out in rows of at most `columns` cells, breaking anywhere, with the cursor drawn.
 * `focused` false draws no cursor.
 */
export function editorRows(state: Pick<EditorState, 'text' | 'pastes' | 'cursor'>, columns: number, focused = true): EditorRows {
  const limit = Math.max(2, columns);
  const rows: Line[] = [[]];
  let used = 0;
  let cursorRow = 0;
  const place = (text: string, tone: Tone | undefined, isCursor: boolean) => {
    let shown = text;
    let cells = textWidth(shown);
    if (cells > limit) {
      shown = truncate(shown, limit);
      cells = textWidth(shown);
    }
    if (used + cells > limit) {
      rows.push([]);
      used = 0;
    }
    if (isCursor) cursorRow = rows.length - 1;
    push(rows[rows.length - 1]!, shown, isCursor ? 'cursor' : tone);
    used += cells;
  };
  for (const token of tokens(state)) {
    const isCursor = focused && token.index === state.cursor;
    if (token.newline) {
      if (isCursor) place(' ', undefined, true);
      rows.push([]);
      used = 0;
      continue;
    }
    place(token.text, token.tone, isCursor);
  }
  if (focused && state.cursor >= state.text.length) place(' ', undefined, true);
  return { rows, cursorRow };
}

/**
 * One line of an editor (prompts): scrolled sideways so the cursor stays in view.
 */
export function fieldLine(state: Pick<EditorState, 'text' | 'pastes' | 'cursor'>, columns: number, focused = true): Line {
  const limit = Math.max(4, columns);
  const all = tokens(state).map((token) => ({ ...token, text: token.newline ? '⏎' : token.text, tone: token.newline ? ('marker' as Tone) : token.tone }));
  if (focused && state.cursor >= state.text.length) all.push({ text: ' ', tone: undefined, index: state.text.length });
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
