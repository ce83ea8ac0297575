import { Box } from 'ink';
import { memo, useCallback, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { measureTranscript, TICK_MS } from '../../transcript/index';
import { ChatView } from '../panels/ChatView';
import { WaitingLine } from '../panels/WaitingLine';
import type { Theme } from '../../terminal/theme';
import { selectExpandedIds, selectFocus, selectItems, selectReasoningCollapsed, selectScrollOffset } from '../../state/selectors';
import type { AppState } from '../../state/store';
import type { ChatItem } from '../../state/types';
import { useAppState, useAppStoreApi, useUiEnv } from '../StoreContext';
import type { TranscriptLayer } from '../../transcript/layer';

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

/**
 * The transcript. In the terminal it is drawn by the transcript layer beside Ink, and this keeps
 * its place in the layout; elsewhere (tests) ChatView renders it. Either way typing in the input
 * never re-renders it.
 */
export const ChatContainer = memo(function ChatContainer(props: ChatContainerProps) {
  const { transcriptLayer } = useUiEnv();
  return transcriptLayer ? <TranscriptPlaceholder layer={transcriptLayer} {...props} /> : <ChatViewContainer {...props} />;
});

/** A blank box of the transcript's size; the layer draws into it. Re-renders only when the size changes. */
function TranscriptPlaceholder({ layer, width, height, theme }: ChatContainerProps & { layer: TranscriptLayer }) {
  // During render, not in an effect: Ink hands this frame to the screen writer within the commit,
  // before any effect runs, and the writer needs the new size for it.
  layer.attach({ width: Math.max(1, width), height: Math.max(1, height), theme });
  // A layout effect's cleanup runs within the commit too, before the frame without this box is drawn.
  useLayoutEffect(() => () => layer.detach(), [layer]);
  return <Box width={width} height={height} />;
}

/** ChatView fed from the chat slice only. */
function ChatViewContainer({ width, height, theme }: ChatContainerProps) {
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
}

/** The model has been asked and has not answered yet (no byte of the answer so far). */
export const selectAwaitingFirstByte = (state: AppState) => state.brokerState === 'waiting';

/**
 * The waiting line under the transcript, with its own clock: only this re-renders while it ticks.
 * The layout gives it WAITING_ROWS while selectAwaitingFirstByte holds.
 */
export const WaitingContainer = memo(function WaitingContainer({ width, theme }: { width: number; theme: Theme }) {
  const [since] = useState(() => Date.now());
  const [now, setNow] = useState(since);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return <WaitingLine elapsedMs={now - since} now={now} width={width} theme={theme} />;
});
