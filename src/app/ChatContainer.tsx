import { memo, useCallback, useMemo } from 'react';
import { ChatView, measureTranscript } from '../components/chat/index';
import type { Theme } from '../components/theme';
import { selectExpandedIds, selectFocus, selectItems, selectReasoningCollapsed, selectScrollOffset } from '../state/selectors';
import type { ChatItem } from '../state/types';
import { useAppState, useAppStoreApi } from './StoreContext';

export interface TranscriptMeasureOptions {
  theme: Theme;
  reasoningCollapsed: boolean;
  expandedIds: ReadonlySet<string>;
}

/** How many rows the whole transcript takes at `width` (for clamping the scroll offset). */
export function transcriptRows(items: readonly ChatItem[], width: number, options: TranscriptMeasureOptions): number {
  return measureTranscript(items, Math.max(1, width), options);
}

export interface ChatContainerProps {
  width: number;
  height: number;
  theme: Theme;
}

/** The transcript, fed from the chat slice only: typing in the input never re-renders it. */
export const ChatContainer = memo(function ChatContainer({ width, height, theme }: ChatContainerProps) {
  const store = useAppStoreApi();
  const items = useAppState(selectItems);
  const focus = useAppState(selectFocus);
  const scrollOffset = useAppState(selectScrollOffset);
  const reasoningCollapsed = useAppState(selectReasoningCollapsed);
  const expandedList = useAppState(selectExpandedIds);
  const expandedIds = useMemo(() => new Set(expandedList), [expandedList]);
  // The view reports the offset it actually shows (clamped at the top, held still while output
  // arrives below a scrolled-up view), so PgUp/PgDn continue from what is on screen.
  const onScrollOffsetChange = useCallback((offset: number) => store.getState().setScrollOffset(offset), [store]);
  return (
    <ChatView
      items={items}
      width={width}
      height={height}
      scrollOffset={scrollOffset}
      theme={theme}
      focused={focus === 'chat'}
      reasoningCollapsed={reasoningCollapsed}
      expandedIds={expandedIds}
      onScrollOffsetChange={onScrollOffsetChange}
    />
  );
});
