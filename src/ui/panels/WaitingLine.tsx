import { Box } from 'ink';
import { spinnerFrame } from '../../transcript/common';
import { LineText } from './Lines';
import { truncateLine } from './text';
import type { Theme } from '../../terminal/theme';

/** A blank row, then the spinner row. */
export const WAITING_ROWS = 2;

export interface WaitingLineProps {
  /** Since the request went out (ms). */
  elapsedMs: number;
  /** Wall clock (ms), for the spinner's frame. */
  now: number;
  width: number;
  theme: Theme;
}

/**
 * Under the transcript while the model has not sent its first byte: a dim spinner and the seconds
 * waited, so a slow model is told apart from a stuck screen. It goes as soon as the answer starts.
 */
export function WaitingLine({ elapsedMs, now, width, theme }: WaitingLineProps) {
  const seconds = Math.floor(Math.max(0, elapsedMs) / 1000);
  const line = truncateLine([{ text: `${spinnerFrame(now)} waiting for the answer · ${seconds}s`, tone: 'muted' }], Math.max(1, width));
  return (
    <Box flexDirection="column" width={width} height={WAITING_ROWS}>
      <LineText line={[]} theme={theme} />
      <LineText line={line} theme={theme} />
    </Box>
  );
}
