import { Text } from 'ink';
import { memo } from 'react';
import { lineWidth, type Line, type Seg, type Tone } from './text';
import type { Theme } from '../../terminal/theme';

interface ToneStyle {
  color?: string;
  dimColor?: boolean;
  bold?: boolean;
  inverse?: boolean;
}

export function toneStyle(tone: Tone | undefined, theme: Theme): ToneStyle {
  switch (tone) {
    case undefined:
    case 'plain':
      return {};
    case 'muted':
      return theme.color ? { color: theme.muted } : { dimColor: true };
    case 'accent':
      return { color: theme.accent, bold: !theme.color };
    case 'warn':
      return { color: theme.warn, bold: true };
    case 'error':
      return { color: theme.error, bold: true };
    case 'ok':
      return { color: theme.ok };
    case 'bold':
      return { bold: true };
    case 'marker':
      return theme.color ? { color: theme.marker, inverse: false, bold: true } : { inverse: true };
    case 'selected':
      return { inverse: true, bold: true, color: theme.accent };
    case 'cursor':
      return { inverse: true };
    case 'chip':
      return theme.color ? { color: theme.accent, bold: true } : { inverse: true };
  }
}

function SegText({ seg, theme }: { seg: Seg; theme: Theme }) {
  return <Text {...toneStyle(seg.tone, theme)}>{seg.text}</Text>;
}

/** One pre-laid-out line (never wraps: the layout already fitted it). The same line object is not drawn again. */
export const LineText = memo(function LineText({ line, theme }: { line: Line; theme: Theme }) {
  return (
    <Text wrap="truncate-end">
      {lineWidth(line) === 0 ? ' ' : line.map((seg, index) => <SegText key={index} seg={seg} theme={theme} />)}
    </Text>
  );
});
