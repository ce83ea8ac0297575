import { Box, Text } from 'ink';
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { TICK_MS } from '../../transcript/common';
import { highlighterGeneration, subscribeHighlighter } from '../../transcript/highlight';
import { sharedTranscriptCache, type TranscriptCache } from '../../transcript/transcript';
import { TranscriptViewport, type ViewportInput } from '../../transcript/viewport';

/** The viewport's input, except what the view derives itself (holding still) or defaults (the cache). */
export interface ChatViewProps extends Omit<ViewportInput, 'holdStill' | 'cache'> {
  /**
   * Optional. When given, the view stays still while output arrives below a scrolled-up view (it
   * reports the offset that keeps the same rows on screen) and offsets past the top are reported
   * clamped. Without it `scrollOffset` is applied as is.
   */
  onScrollOffsetChange?: (offset: number) => void;
  /** Optional line cache; the app-wide shared one by default (measureTranscript reads the same). */
  cache?: TranscriptCache;
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

/**
 * The transcript, windowed: only the rows inside the viewport are built and rendered, from lines
 * cached per item. Bottom-anchored; when scrolled up a marker row says what is below.
 */
export function ChatView({ items, width, height, scrollOffset, theme, focused, reasoningCollapsed, expandedIds, onScrollOffsetChange, now, cache = sharedTranscriptCache }: ChatViewProps) {
  useSyncExternalStore(subscribeHighlighter, highlighterGeneration);
  const viewport = useRef<TranscriptViewport | null>(null);
  viewport.current ??= new TranscriptViewport();
  const view = viewport.current.frame({
    items,
    width,
    height,
    scrollOffset,
    theme,
    focused,
    reasoningCollapsed,
    expandedIds,
    holdStill: onScrollOffsetChange !== undefined,
    now,
    cache,
  });
  useTicker(view.clock && now === undefined);

  useEffect(() => {
    if (onScrollOffsetChange && view.offset !== scrollOffset) onScrollOffsetChange(view.offset);
  }, [onScrollOffsetChange, view.offset, scrollOffset]);

  if (view.hint !== undefined) {
    return (
      <Box flexDirection="column" width={view.width} height={view.height} overflowY="hidden" justifyContent="flex-end">
        <Text wrap="truncate-end">{view.hint}</Text>
      </Box>
    );
  }

  return (
    <Box flexDirection="column" width={view.width} height={view.height} overflowY="hidden">
      <Box flexDirection="column" height={view.marker !== undefined ? view.height - 1 : view.height} justifyContent="flex-end" overflowY="hidden">
        {view.rows.map((row, index) => (
          // Rows are keyed by position: a scrolled window reuses the same Text nodes.
          <Text key={index} wrap="truncate-end">
            {row.length > 0 ? row : ' '}
          </Text>
        ))}
      </Box>
      {view.marker !== undefined ? <Text wrap="truncate-end">{view.marker}</Text> : null}
    </Box>
  );
}
