import { memo, useMemo } from 'react';
import { ChatPane } from '../components/ChatPane';
import type { Theme } from '../components/theme';
import { selectExpandedIds, selectFocus, selectItems, selectReasoningCollapsed, selectScrollOffset } from '../state/selectors';
import type { ChatItem } from '../state/types';
import { useAppState } from './StoreContext';

export interface TranscriptMeasureOptions {
  theme: Theme;
  reasoningCollapsed: boolean;
  expandedIds: ReadonlySet<string>;
}

/** How many rows the whole transcript takes at `width` (for clamping the scroll offset). */
export function transcriptRows(items: readonly ChatItem[], _width: number, _options: TranscriptMeasureOptions): number {
  return items.length;
}

export interface ChatContainerProps {
  width: number;
  height: number;
  theme: Theme;
}

/** The transcript, fed from the chat slice only: typing in the input never re-renders it. */
export const ChatContainer = memo(function ChatContainer({ width, height, theme }: ChatContainerProps) {
  const items = useAppState(selectItems);
  const focus = useAppState(selectFocus);
  useAppState(selectScrollOffset);
  useAppState(selectReasoningCollapsed);
  const expandedIds = useAppState(selectExpandedIds);
  useMemo(() => new Set(expandedIds), [expandedIds]);
  return <ChatPane items={items} width={width} height={height} theme={theme} focused={focus === 'chat'} />;
});
