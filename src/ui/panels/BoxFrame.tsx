import { Box, Text } from 'ink';
import { LineText, toneStyle } from './Lines';
import { lineWidth, padLine, truncateLine, type Line, type Tone } from './text';
import type { Theme } from '../../terminal/theme';

export interface BoxFrameProps {
  width: number;
  title: Line;
  /** Shown at the right end of the top border (e.g. `1 of 3`). */
  badge?: Line;
  lines: Line[];
  theme: Theme;
  tone?: Tone;
}

/** Columns inside the border and its one-space padding. */
export const innerWidth = (width: number) => Math.max(1, width - 4);
/** Rows the border adds around the lines. */
export const FRAME_CHROME_ROWS = 2;

/**
 * A rounded box drawn line by line, so its height is known before rendering (the chat pane gives
 * the transcript whatever the frame leaves) and every line is cut to the width it was given.
 */
export function BoxFrame({ width, title, badge, lines, theme, tone = 'accent' }: BoxFrameProps) {
  const inner = innerWidth(width);
  const border = toneStyle(tone === 'accent' ? undefined : tone, theme);
  const borderColor = tone === 'accent' ? theme.focusBorder : border.color;
  const titleLine = truncateLine([{ text: ' ' }, ...title, { text: ' ' }], Math.max(0, width - 4));
  const badgeLine = badge ? truncateLine([{ text: ' ' }, ...badge, { text: ' ' }], Math.max(0, width - 6 - lineWidth(titleLine))) : [];
  const fill = Math.max(0, width - 3 - lineWidth(titleLine) - lineWidth(badgeLine));
  return (
    <Box flexDirection="column" width={width}>
      <Text wrap="truncate-end">
        <Text color={borderColor}>╭─</Text>
        <LineText line={titleLine} theme={theme} />
        <Text color={borderColor}>{'─'.repeat(fill)}</Text>
        {badgeLine.length > 0 ? <LineText line={badgeLine} theme={theme} /> : null}
        <Text color={borderColor}>╮</Text>
      </Text>
      {lines.map((line, index) => (
        <Text key={index} wrap="truncate-end">
          <Text color={borderColor}>│ </Text>
          <LineText line={padLine(line, inner)} theme={theme} />
          <Text color={borderColor}> │</Text>
        </Text>
      ))}
      <Text wrap="truncate-end">
        <Text color={borderColor}>╰{'─'.repeat(Math.max(0, width - 2))}╯</Text>
      </Text>
    </Box>
  );
}
