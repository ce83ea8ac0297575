import { Box } from 'ink';
import { useEffect, useMemo, useRef } from 'react';
import { CONNECT_PROMPT_ROWS } from './panels/ConnectPrompt';
import { pickerHeight } from './panels/Picker';
import { PickerContainer } from './containers/PickerContainer';
import { MIN_FRAME_HEIGHT } from './panels/frameLayout';
import { inputBarHeight } from './panels/InputBar';
import { WAITING_ROWS } from './panels/WaitingLine';
import { createTheme } from '../terminal/theme';
import { sidebarShown } from '../state/selectors';
import { ChatContainer, selectAwaitingFirstByte, transcriptRows, WaitingContainer } from './containers/ChatContainer';
import { PanelBoundary } from './ErrorBoundary';
import { useActiveFrame } from './Frames';
import { handleChatKey, handleCoreKey, handleNavigationKey, type TranscriptGeometry } from './keys/globalKeys';
import { InputContainer } from './containers/InputContainer';
import { KeyPriority } from '../terminal/keyboard/keyInput';
import { useKeys } from './keys/useKeys';
import { StatusContainer } from './containers/StatusContainer';
import { ConnectContainer, DetailsContainer, SidebarContainer } from './containers/SidebarContainer';
import { useAppState, useAppStoreApi, useController, useUiEnv } from './StoreContext';
import { useTerminalSize } from './useTerminalSize';

export { QUIT_WINDOW_MS } from './keys/globalKeys';

/** The sidebar takes about a fifth of the columns, between these widths. */
export const SIDEBAR_MIN_WIDTH = 32;
export const SIDEBAR_MAX_WIDTH = 60;
const SIDEBAR_GAP = 1;
const STATUS_HEIGHT = 1;
/** The transcript keeps at least this many rows when a frame is shown. */
const MIN_TRANSCRIPT_ROWS = 3;

/** Rows the input may grow to: a quarter of the screen, between 1 and 10. */
export const maxInputRows = (rows: number) => Math.max(1, Math.min(10, Math.floor(rows / 4)));

/**
 * The sidebar's width: a fifth of the columns, at least SIDEBAR_MIN_WIDTH (server names and
 * tool names stay readable) and at most SIDEBAR_MAX_WIDTH (past that it is empty space), and never
 * more than a third, so the transcript always keeps two thirds of the screen (a pinned sidebar on a
 * narrow terminal included). The transcript layer and the screen writer get the rest of the row
 * through the layout below, so this is the one place the split is decided.
 */
export function sidebarWidthFor(columns: number, shown: boolean): number {
  if (!shown) return 0;
  const wanted = Math.min(SIDEBAR_MAX_WIDTH, Math.max(SIDEBAR_MIN_WIDTH, Math.floor(columns / 5)));
  return Math.min(wanted, Math.floor(columns / 3));
}

export function App() {
  const store = useAppStoreApi();
  const controller = useController();
  const env = useUiEnv();
  const { columns, rows } = useTerminalSize();
  const background = useAppState((state) => state.background);
  const theme = useMemo(() => createTheme(process.env, background), [background]);
  const showSidebar = useAppState((state) => sidebarShown(state, columns));
  const height = Math.max(6, rows);
  const inputRows = maxInputRows(height);
  // A number, so the layout only re-renders when the input bar's height changes, not per key.
  const inputHeight = useAppState((state) => inputBarHeight(state.editor, columns, inputRows));
  const mainHeight = Math.max(3, height - inputHeight - STATUS_HEIGHT);
  const sidebarWidth = sidebarWidthFor(columns, showSidebar);
  // One blank column keeps the transcript's text off the sidebar's border.
  const sidebarGap = showSidebar ? SIDEBAR_GAP : 0;
  const chatWidth = columns - sidebarWidth - sidebarGap;

  // A sidebar that hid itself (narrow terminal) cannot keep the focus.
  const focusOnHiddenSidebar = useAppState((state) => state.focus === 'sidebar') && !showSidebar;
  useEffect(() => {
    if (focusOnHiddenSidebar) store.getState().setFocus('input');
  }, [focusOnHiddenSidebar, store]);

  // The transcript keeps a row even beside the frame (chatHeight below): the frame has one less.
  const frame = useActiveFrame(chatWidth, Math.max(MIN_FRAME_HEIGHT, mainHeight - MIN_TRANSCRIPT_ROWS), theme, mainHeight - 1);
  const connectOpen = useAppState((state) => state.sidebarUi.connect !== undefined);
  const detailOpen = useAppState((state) => state.sidebarUi.detail !== undefined && state.focus === 'sidebar');
  const pickerOpen = useAppState((state) => state.picker !== undefined);
  const pickerItems = useAppState((state) => state.picker?.items.length ?? 0);
  const pickerMax = Math.max(5, mainHeight - MIN_TRANSCRIPT_ROWS);
  const promptHeight = (connectOpen ? CONNECT_PROMPT_ROWS : 0) + (pickerOpen ? pickerHeight(pickerMax, pickerItems) : 0);
  const showDetail = detailOpen && frame.height === 0;
  const awaiting = useAppState(selectAwaitingFirstByte) && !showDetail && frame.height === 0;
  const waitingHeight = awaiting && mainHeight - promptHeight > WAITING_ROWS + MIN_TRANSCRIPT_ROWS ? WAITING_ROWS : 0;
  const chatHeight = Math.max(1, mainHeight - frame.height - promptHeight - waitingHeight);

  const geometry = useRef<TranscriptGeometry>({ columns, height: chatHeight, totalRows: () => 0 });
  geometry.current.columns = columns;
  geometry.current.height = chatHeight;
  geometry.current.totalRows = () => {
    const state = store.getState();
    return transcriptRows(state.items, chatWidth, { theme, reasoningCollapsed: state.reasoningCollapsed, expandedIds: new Set(state.expandedIds) });
  };

  useKeys((key) => handleCoreKey(store, controller, env.redraw, key), KeyPriority.core);
  useKeys((key) => handleNavigationKey(store, geometry.current, key), KeyPriority.navigation);
  useKeys((key) => handleChatKey(store, geometry.current, key), KeyPriority.panel);

  return (
    <Box flexDirection="column" width={columns} height={height}>
      <Box flexDirection="row" height={mainHeight}>
        <Box flexDirection="column" width={chatWidth} height={mainHeight}>
          {showDetail ? (
            <PanelBoundary name="tool details">
              <DetailsContainer width={chatWidth} height={mainHeight - promptHeight} theme={theme} />
            </PanelBoundary>
          ) : (
            <>
              <PanelBoundary name="the transcript">
                <ChatContainer width={chatWidth} height={chatHeight} theme={theme} />
              </PanelBoundary>
              {waitingHeight > 0 ? <WaitingContainer width={chatWidth} theme={theme} /> : null}
              <PanelBoundary name="the frame">{frame.node}</PanelBoundary>
            </>
          )}
          {pickerOpen ? (
            <PanelBoundary name="the picker">
              <PickerContainer width={chatWidth} maxHeight={pickerMax} theme={theme} />
            </PanelBoundary>
          ) : null}
          {connectOpen ? (
            <PanelBoundary name="the connect prompt">
              <ConnectContainer width={chatWidth} theme={theme} />
            </PanelBoundary>
          ) : null}
        </Box>
        {showSidebar ? <Box width={sidebarGap} height={mainHeight} /> : null}
        {showSidebar ? (
          <PanelBoundary name="the sidebar">
            <SidebarContainer width={sidebarWidth} height={mainHeight} theme={theme} />
          </PanelBoundary>
        ) : null}
      </Box>
      <PanelBoundary name="the input">
        <InputContainer width={columns} maxRows={inputRows} theme={theme} />
      </PanelBoundary>
      <PanelBoundary name="the status bar">
        <StatusContainer width={columns} theme={theme} />
      </PanelBoundary>
    </Box>
  );
}
