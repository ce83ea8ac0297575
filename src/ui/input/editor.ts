import { EMPTY_EDITOR, editorFromText } from '../../state/slices/ui';
import type { EditorState } from '../../state/types';
import type { KeyEvent } from '../../terminal/keyboard/keys';
import { actionFor } from '../keys/keymap';

export type { EditorState };
export { editorFromText };

/**
 * The line editor behind the input bar and the one-line prompts: a pure state machine from
 * (state, key) to the next state. Multi-line; readline keys; pastes inserted as one edit.
 *
 * A large paste is kept out of the way as a chip: the text holds one private-use character per
 * chip (the cursor steps over it, Backspace removes it whole) and `pastes` maps that character to
 * the pasted text, which `expandText` puts back when the message is sent.
 */

export const emptyEditor: EditorState = EMPTY_EDITOR;

/** A paste with this many lines or more is shown as `[pasted N lines]`. */
export const COLLAPSE_LINES = 8;
/** A paste longer than this is shown as a chip even on one line. */
export const COLLAPSE_CHARS = 2000;

const CHIP_FIRST = 0xe000;
const CHIP_LAST = 0xf8ff;

export function isChip(state: Pick<EditorState, 'pastes'>, char: string): boolean {
  return Object.prototype.hasOwnProperty.call(state.pastes, char);
}

export function lineCount(text: string): number {
  let lines = 1;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) lines++;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/** The text to send: every chip replaced by what was pasted. */
export function expandText(state: Pick<EditorState, 'text' | 'pastes'>): string {
  if (Object.keys(state.pastes).length === 0) return state.text;
  let out = '';
  for (const char of state.text) out += isChip(state, char) ? state.pastes[char] : char;
  return out;
}

function freeChip(state: EditorState, avoid: string): string | undefined {
  for (let code = CHIP_FIRST; code <= CHIP_LAST; code++) {
    const char = String.fromCharCode(code);
    if (!isChip(state, char) && !state.text.includes(char) && !avoid.includes(char)) return char;
  }
  return undefined;
}

/** Drops chips whose character is no longer in the text. */
function pruneChips(text: string, pastes: Record<string, string>): Record<string, string> {
  const keys = Object.keys(pastes);
  if (keys.length === 0) return pastes;
  const kept: Record<string, string> = {};
  for (const key of keys) if (text.includes(key)) kept[key] = pastes[key]!;
  return keys.length === Object.keys(kept).length ? pastes : kept;
}

function replaceRange(state: EditorState, start: number, end: number, insert: string, cursor: number): EditorState {
  const text = state.text.slice(0, start) + insert + state.text.slice(end);
  let literal = state.literal;
  if (start === 0 && (end > 0 || insert.length > 0)) literal = false;
  return { ...state, text, cursor, pastes: pruneChips(text, state.pastes), literal };
}

/**
 * Inserts text at the cursor. `pasted`: it came from a paste (collapsed when large, and a leading
 * `:` or `!` stays text).
 */
export function insertText(state: EditorState, raw: string, pasted = false): EditorState {
  if (raw.length === 0) return state;
  let insert = raw;
  let pastes = state.pastes;
  // A literal character that happens to equal a chip must not expand: move that chip elsewhere.
  for (const char of Object.keys(pastes)) {
    if (!raw.includes(char)) continue;
    const moved = freeChip(state, raw);
    if (!moved) break;
    const { [char]: content, ...rest } = pastes;
    pastes = { ...rest, [moved]: content! };
    state = { ...state, text: state.text.split(char).join(moved), pastes };
  }
  if (pasted && (lineCount(raw) >= COLLAPSE_LINES || raw.length > COLLAPSE_CHARS)) {
    const chip = freeChip(state, raw);
    if (chip) {
      pastes = { ...pastes, [chip]: raw };
      insert = chip;
    }
  }
  const at = state.cursor;
  const text = state.text.slice(0, at) + insert + state.text.slice(at);
  // Typing at the start makes the input typed again; pasting there makes it literal.
  const literal = at === 0 ? pasted : state.literal;
  return { ...state, text, cursor: at + insert.length, pastes, literal };
}

function lineStart(text: string, cursor: number): number {
  return text.lastIndexOf('\n', cursor - 1) + 1;
}

function lineEnd(text: string, cursor: number): number {
  const end = text.indexOf('\n', cursor);
  return end === -1 ? text.length : end;
}

/** Previous code point boundary (surrogate pairs move as one). */
function prevIndex(text: string, cursor: number): number {
  if (cursor <= 0) return 0;
  const code = text.charCodeAt(cursor - 1);
  return code >= 0xdc00 && code <= 0xdfff && cursor >= 2 ? cursor - 2 : cursor - 1;
}

function nextIndex(text: string, cursor: number): number {
  if (cursor >= text.length) return text.length;
  const code = text.charCodeAt(cursor);
  return code >= 0xd800 && code <= 0xdbff && cursor + 1 < text.length ? cursor + 2 : cursor + 1;
}

const isWordChar = (char: string | undefined) => char !== undefined && /[\p{L}\p{N}_]/u.test(char);

function wordLeft(text: string, cursor: number): number {
  let index = cursor;
  while (index > 0 && !isWordChar(text[index - 1])) index--;
  while (index > 0 && isWordChar(text[index - 1])) index--;
  return index;
}

function wordRight(text: string, cursor: number): number {
  let index = cursor;
  while (index < text.length && !isWordChar(text[index])) index++;
  while (index < text.length && isWordChar(text[index])) index++;
  return index;
}

/** Ctrl+W: back to the previous whitespace (readline's unix-word-rubout). */
function whitespaceWordLeft(text: string, cursor: number): number {
  let index = cursor;
  while (index > 0 && /\s/.test(text[index - 1]!)) index--;
  while (index > 0 && !/\s/.test(text[index - 1]!)) index--;
  return index;
}

/** Moves one logical line up or down keeping the column; undefined at the first/last line. */
export function verticalMove(state: EditorState, direction: -1 | 1): number | undefined {
  const { text, cursor } = state;
  const start = lineStart(text, cursor);
  const column = cursor - start;
  if (direction === -1) {
    if (start === 0) return undefined;
    const prevStart = lineStart(text, start - 1);
    return Math.min(prevStart + column, start - 1);
  }
  const end = lineEnd(text, cursor);
  if (end >= text.length) return undefined;
  const nextStart = end + 1;
  return Math.min(nextStart + column, lineEnd(text, nextStart));
}

export interface EditorOptions {
  /** Enter inserts nothing and reports `submit`; Ctrl+J / Alt+Enter insert a newline when true. */
  multiline: boolean;
}

export type EditorResult =
  | { kind: 'edit'; state: EditorState }
  | { kind: 'submit'; state: EditorState }
  /** Not an editing key: the caller may use it (history, focus, completion). */
  | { kind: 'ignored' };

const edit = (state: EditorState): EditorResult => ({ kind: 'edit', state });
const move = (state: EditorState, cursor: number): EditorResult => edit({ ...state, cursor });

/**
 * Applies one key. What the key does comes from the key table (src/ui/keys/keymap.ts): Enter and
 * the newline keys from the input's context (one-line fields: the line's), the rest from the
 * editing context. Control keys that mean nothing here are swallowed, never inserted as letters.
 */
export function applyEditorKey(state: EditorState, key: KeyEvent, options: EditorOptions): EditorResult {
  const { text, cursor } = state;
  const entry = options.multiline ? actionFor('input', key) : actionFor('line', key);
  if (entry === 'input.send' || entry === 'line.confirm') return { kind: 'submit', state };
  if (entry === 'input.newline') return edit(insertText(state, '\n'));
  const kill = (start: number, end: number, cursorAt: number) => edit({ ...replaceRange(state, start, end, '', cursorAt), killed: text.slice(start, end) });
  const action = actionFor('edit', key);
  switch (action) {
    case 'edit.paste': {
      const pasted = options.multiline ? key.text : key.text.replace(/\n+/g, ' ');
      return edit(insertText(state, pasted, true));
    }
    case 'edit.type': {
      const typed = options.multiline ? key.text : key.text.replace(/\n+/g, ' ');
      return edit(insertText(state, typed, key.paste));
    }
    case 'edit.space':
      return edit(insertText(state, ' '));
    case 'edit.deleteBack': {
      if (cursor === 0) return edit(state);
      const start = prevIndex(text, cursor);
      return edit(replaceRange(state, start, cursor, '', start));
    }
    case 'edit.deleteForward': {
      if (cursor >= text.length) return edit(state);
      const end = nextIndex(text, cursor);
      return edit(replaceRange(state, cursor, end, '', cursor));
    }
    case 'edit.charLeft':
      return move(state, prevIndex(text, cursor));
    case 'edit.charRight':
      return move(state, nextIndex(text, cursor));
    case 'edit.wordLeft':
      return move(state, wordLeft(text, cursor));
    case 'edit.wordRight':
      return move(state, wordRight(text, cursor));
    case 'edit.lineStart':
      return move(state, lineStart(text, cursor));
    case 'edit.lineEnd':
      return move(state, lineEnd(text, cursor));
    case 'edit.lineUp':
    case 'edit.lineDown': {
      const target = verticalMove(state, action === 'edit.lineUp' ? -1 : 1);
      return target === undefined ? { kind: 'ignored' } : move(state, target);
    }
    case 'edit.killLineStart': {
      const start = lineStart(text, cursor);
      return kill(start, cursor, start);
    }
    case 'edit.killLineEnd': {
      const end = lineEnd(text, cursor);
      // At the end of a line, Ctrl+K joins the next one (like Emacs).
      return kill(cursor, end === cursor && end < text.length ? end + 1 : end, cursor);
    }
    case 'edit.killToSpace': {
      const start = whitespaceWordLeft(text, cursor);
      return kill(start, cursor, start);
    }
    case 'edit.killWordBack': {
      const start = wordLeft(text, cursor);
      return kill(start, cursor, start);
    }
    case 'edit.killWordForward':
      return kill(cursor, wordRight(text, cursor), cursor);
    case 'edit.yank':
      return state.killed ? edit(insertText(state, state.killed)) : edit(state);
    default:
      return { kind: 'ignored' };
  }
}
