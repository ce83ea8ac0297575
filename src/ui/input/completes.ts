import type { EditorState } from '../../state/types';

/** The word before the cursor when it is an `@path` (what Tab completes from the files here). */
export function atWordBefore(editor: Pick<EditorState, 'text' | 'cursor'>): { from: number; word: string } | undefined {
  const before = editor.text.slice(0, editor.cursor);
  const match = /(^|\s)@([^\s@]*)$/.exec(before);
  if (!match) return undefined;
  return { from: before.length - match[2]!.length, word: match[2]! };
}

/** Tab completes here instead of moving the focus: a typed `:` or `/` command, or an `@path`. */
export function completesWithTab(editor: Pick<EditorState, 'text' | 'cursor' | 'literal'>): boolean {
  if (atWordBefore(editor)) return true;
  return !editor.literal && (editor.text.startsWith(':') || editor.text.startsWith('/'));
}
