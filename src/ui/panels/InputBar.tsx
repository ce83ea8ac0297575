import { Box, Text } from 'ink';
import { memo } from 'react';
import type { EditorState } from '../../state/types';
import { editorRows } from './editorView';
import { LineText } from './Lines';
import type { Line } from './text';
import type { Theme } from '../../terminal/theme';

export interface InputBarProps {
  editor: EditorState;
  /** The keys come here: draws the cursor and the focus border. */
  focused: boolean;
  width: number;
  /** Most text rows shown; the view follows the cursor. */
  maxRows: number;
  theme: Theme;
  placeholder?: string;
}

const PROMPT_WIDTH = 2;
/**
 * Columns text wraps at: the width less the border and padding (4) and the prompt. The padding
 * on the right is the spare cell where a cursor at the end of a full row is drawn (editorLayout).
 */
export const inputTextColumns = (width: number) => Math.max(4, width - 4 - PROMPT_WIDTH);

type InputMode = 'chat' | 'command' | 'shell';

export function inputMode(editor: Pick<EditorState, 'text' | 'literal'>): InputMode {
  if (editor.literal) return 'chat';
  if (editor.text.startsWith(':') || /^\/[A-Za-z][\w-]*(\s|$)/.test(editor.text)) return 'command';
  if (editor.text.startsWith('!')) return 'shell';
  return 'chat';
}

let lastHeight: { editor: EditorState; width: number; maxRows: number; height: number } | undefined;

/**
 * Rows the input bar takes, border included. The layout asks on every store change (a streamed
 * token too), so the answer for the same editor state is remembered.
 */
export function inputBarHeight(editor: EditorState, width: number, maxRows: number): number {
  if (lastHeight && lastHeight.editor === editor && lastHeight.width === width && lastHeight.maxRows === maxRows) return lastHeight.height;
  const { rows } = editorRows(editor, inputTextColumns(width));
  const height = Math.min(Math.max(1, rows.length), Math.max(1, maxRows)) + 2;
  lastHeight = { editor, width, maxRows, height };
  return height;
}

function visibleRows(rows: Line[], cursorRow: number, maxRows: number): { shown: Line[]; first: number } {
  if (rows.length <= maxRows) return { shown: rows, first: 0 };
  const first = Math.max(0, Math.min(cursorRow - maxRows + 1, rows.length - maxRows));
  return { shown: rows.slice(first, first + maxRows), first };
}

/** The message being typed: multi-line, paste chips, the cursor drawn as an inverse cell. */
export const InputBar = memo(function InputBar({ editor, focused, width, maxRows, theme, placeholder }: InputBarProps) {
  const mode = inputMode(editor);
  // The prompt's colour says how Enter will treat the text: chat, a :command or a !shell command.
  const prompt = '› ';
  const promptColor = mode === 'shell' ? theme.warn : mode === 'command' ? theme.ok : theme.accent;
  const empty = editor.text.length === 0;
  // Laid out with the cursor cell either way, so the height matches inputBarHeight; without the
  // keys the cell is drawn plain (one cursor on screen: the frame's or the sidebar's, not this).
  const laidOut = editorRows(editor, inputTextColumns(width), true);
  const rows = focused ? laidOut.rows : laidOut.rows.map((row) => row.map((seg) => (seg.tone === 'cursor' ? { ...seg, tone: undefined } : seg)));
  const { shown, first } = visibleRows(rows, laidOut.cursorRow, Math.max(1, maxRows));
  // Once the bar stops growing, the border says how many rows are out of view above and below.
  const above = empty ? 0 : first;
  const below = empty ? 0 : rows.length - first - shown.length;
  const borderColor = focused ? theme.focusBorder : theme.border;
  return (
    <Box width={width} flexDirection="column">
      {above > 0 ? <BorderWithLabel width={width} top label={hiddenLabel(above, 'above')} color={borderColor} theme={theme} /> : null}
      {/* Keyed by which borders it draws: Ink sets a border edge when shown but never clears it. */}
      <Box key={`${above > 0}:${below > 0}`} width={width} flexDirection="column" borderStyle="round" borderTop={above === 0} borderBottom={below === 0} borderColor={borderColor} paddingLeft={1}>
        {empty ? (
          <Box paddingRight={1}>
            <Text wrap="truncate-end">
              <Text color={promptColor}>{prompt}</Text>
              <Text inverse={focused}> </Text>
              <Text color={theme.muted} dimColor={!theme.color}>
                {placeholder ?? 'Ask anything · :help lists commands and keys'}
              </Text>
            </Text>
          </Box>
        ) : (
          shown.map((row, index) => (
            <Box key={first + index} flexDirection="row">
              <Text color={promptColor}>{first + index === 0 ? prompt : '  '}</Text>
              <LineText line={row} theme={theme} />
            </Box>
          ))
        )}
      </Box>
      {below > 0 ? <BorderWithLabel width={width} top={false} label={hiddenLabel(below, 'below')} color={borderColor} theme={theme} /> : null}
    </Box>
  );
});

export const hiddenLabel = (count: number, where: 'above' | 'below') => `${where === 'above' ? '↑' : '↓'} ${count} more line${count === 1 ? '' : 's'} ${where}`;

/** A round border row with a note in it: `╭─ ↑ 3 more lines above ───╮`. */
function BorderWithLabel({ width, top, label, color, theme }: { width: number; top: boolean; label: string; color: string | undefined; theme: Theme }) {
  const inner = Math.max(0, width - 2);
  const text = ` ${label} `.slice(0, Math.max(0, inner - 1));
  const rest = Math.max(0, inner - 1 - text.length);
  return (
    <Text wrap="truncate-end">
      <Text color={color}>{top ? '╭─' : '╰─'}</Text>
      <Text color={theme.marker} dimColor={!theme.color}>
        {text}
      </Text>
      <Text color={color}>{`${'─'.repeat(rest)}${top ? '╮' : '╯'}`}</Text>
    </Text>
  );
}
