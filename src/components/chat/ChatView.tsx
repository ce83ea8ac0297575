import { Box, Text } from 'ink';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { ChatItem } from '../../state/types';
import type { Theme } from '../theme';
import { TICK_MS } from './common';
import { highlighterGeneration, subscribeHighlighter } from './highlight';
import { chatStyles } from './style';
import { serialize, truncateSpans, type Span } from './text';
import { sharedTranscriptCache, transcriptWindow, type Anchor, type TranscriptCache } from './transcript';

export interface ChatViewProps {
  items: ChatItem[];
  width: number;
  height: number;
  /** Lines up from the bottom; 0 follows new output. */
  scrollOffset: number;
  theme: Theme;
  focused: boolean;
  reasoningCollapsed: boolean;
  /** Tool, command, user and status items shown in full rather than as a preview. */
  expandedIds: ReadonlySet<string>;
  /**
   * Optional. When given, the view stays still while output arrives below a scrolled-up view (it
   * reports the offset that keeps the same rows on screen) and offsets past the top are reported
   * clamped. Without it `scrollOffset` is applied as is.
   */
  onScrollOffsetChange?: (offset: number) => void;
  /** Optional fixed clock (ms) for spinners and elapsed times; by default the view ticks while something runs. */
  now?: number;
  /** Optional line cache; the app-wide shared one by default (measureTranscript reads the same). */
  cache?: TranscriptCache;
}

/** What changed at the end of the transcript: new items or a newer version of the last one. */
function tailFingerprint(items: readonly ChatItem[]): string {
  const last = items[items.length - 1];
  return last ? `${items.length}:${last.id}:${last.version}` : '0';
}

/**
 * Tracks whether output arrived below while the view is scrolled up: the tail of the transcript
 * is remembered when the user leaves the bottom and compared on every render after that.
 */
function useNewOutputBelow(items: readonly ChatItem[], scrolled: boolean): boolean {
  const seen = useRef<string | undefined>(undefined);
  if (!scrolled) {
    seen.current = undefined;
    return false;
  }
  const fingerprint = tailFingerprint(items);
  seen.current ??= fingerprint;
  return seen.current !== fingerprint;
}

/** Re-renders every tick while `active` (spinners and elapsed times of running tools). */
function useTicker(active: boolean): void {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setTick((tick) => tick + 1), TICK_MS);
    return () => clearInterval(timer);
  }, [active]);
}

function markerRow(newOutput: boolean, linesBelow: number, width: number, theme: Theme): string {
  const styles = chatStyles(theme);
  const below = `${linesBelow} ${linesBelow === 1 ? 'line' : 'lines'} below`;
  const spans: Span[] = newOutput
    ? [{ text: '↓ new output', style: { ...styles.accent, bold: true } }, { text: ` · ${below}`, style: styles.muted }]
    : [{ text: `↓ ${below}`, style: styles.muted }];
  return serialize(truncateSpans(spans, width));
}

/**
 * The transcript, windowed: only the rows inside the viewport are built and rendered, from lines
 * cached per item. Bottom-anchored; when scrolled up a marker row says what is below.
 */
export function ChatView({ items, width, height, scrollOffset, theme, focused, reasoningCollapsed, expandedIds, onScrollOffsetChange, now, cache = sharedTranscriptCache }: ChatViewProps) {
  useSyncExternalStore(subscribeHighlighter, highlighterGeneration);
  const anchorRef = useRef<{ anchor?: Anchor; offset: number; width: number } | undefined>(undefined);
  const viewWidth = Math.max(1, width);
  const viewHeight = Math.max(1, height);

  const scrolled = scrollOffset > 0;
  const newOutput = useNewOutputBelow(items, scrolled);
  const contentHeight = scrolled && viewHeight > 1 ? viewHeight - 1 : viewHeight;
  // Hold the rows still while output arrives below, but only when the parent can learn the new
  // offset; a changed scrollOffset means the user scrolled and wins over the anchor.
  const previous = anchorRef.current;
  const holdStill = onScrollOffsetChange !== undefined && scrolled && previous !== undefined && previous.offset === scrollOffset && previous.width === viewWidth;
  const view = transcriptWindow(items, viewWidth, contentHeight, scrollOffset, { theme, reasoningCollapsed, expandedIds, now }, holdStill ? previous.anchor : undefined, cache);
  anchorRef.current = { anchor: view.anchor, offset: view.offset, width: viewWidth };
  useTicker(view.clock && now === undefined);

  useEffect(() => {
    if (onScrollOffsetChange && view.offset !== scrollOffset) onScrollOffsetChange(view.offset);
  }, [onScrollOffsetChange, view.offset, scrollOffset]);

  if (view.rows.length === 0) {
    const styles = chatStyles(theme);
    const hint = `${focused ? 'Chat (focused). ' : ''}Type a message and press Enter. :help lists commands and keys.`;
    return (
      <Box flexDirection="column" width={viewWidth} height={viewHeight} overflowY="hidden" justifyContent="flex-end">
        <Text wrap="truncate-end">{serialize(truncateSpans([{ text: hint, style: styles.muted }], viewWidth))}</Text>
      </Box>
    );
  }

  const showMarker = scrolled && view.offset > 0 && viewHeight > 1;
  return (
    <Box flexDirection="column" width={viewWidth} height={viewHeight} overflowY="hidden">
      <Box flexDirection="column" height={showMarker ? viewHeight - 1 : viewHeight} justifyContent="flex-end" overflowY="hidden">
        {view.rows.map((row, index) => (
          // Rows are keyed by position: a scrolled window reuses the same Text nodes.
          <Text key={index} wrap="truncate-end">
            {row.length > 0 ? row : ' '}
          </Text>
        ))}
      </Box>
      {showMarker ? (
        <Text wrap="truncate-end">{markerRow(newOutput, view.offset, viewWidth, theme)}</Text>
      ) : null}
    </Box>
  );
}
