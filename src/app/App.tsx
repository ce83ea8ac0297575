import { Box, useInput } from 'ink';
import { useCallback, useMemo } from 'react';
import { ChatPane } from '../components/ChatPane';
import { InputBar } from '../components/InputBar';
import { Sidebar } from '../components/Sidebar';
import { StatusBar } from '../components/StatusBar';
import { createTheme, type Theme } from '../components/theme';
import {
  selectBrokerState,
  selectDraft,
  selectFocus,
  selectHint,
  selectItems,
  selectModelName,
  selectServerCounts,
  selectServerList,
  sidebarShown,
} from '../state/selectors';
import { useAppState, useAppStoreApi, useController } from './StoreContext';
import { useTerminalSize } from './useTerminalSize';

/** A second Ctrl+C within this window quits. */
export const QUIT_WINDOW_MS = 1000;
const SIDEBAR_WIDTH = 32;
const INPUT_HEIGHT = 3;
const STATUS_HEIGHT = 1;

function ChatContainer({ width, height, theme }: { width: number; height: number; theme: Theme }) {
  const items = useAppState(selectItems);
  const focus = useAppState(selectFocus);
  return <ChatPane items={items} width={width} height={height} theme={theme} focused={focus === 'chat'} />;
}

function SidebarContainer({ width, height, theme }: { width: number; height: number; theme: Theme }) {
  const servers = useAppState(selectServerList);
  const focus = useAppState(selectFocus);
  return <Sidebar servers={servers} width={width} height={height} focused={focus === 'sidebar'} theme={theme} />;
}

function InputContainer({ width, theme }: { width: number; theme: Theme }) {
  const store = useAppStoreApi();
  const controller = useController();
  const draft = useAppState(selectDraft);
  const focus = useAppState(selectFocus);
  const onChange = useCallback((value: string) => store.getState().setDraft(value), [store]);
  const onSubmit = useCallback(
    (value: string) => {
      if (value.trim().length === 0) return;
      store.getState().setDraft('');
      controller.submit(value);
    },
    [store, controller],
  );
  return <InputBar value={draft} onChange={onChange} onSubmit={onSubmit} focused={focus === 'input'} width={width} theme={theme} />;
}

function StatusContainer({ width, theme }: { width: number; theme: Theme }) {
  const modelName = useAppState(selectModelName);
  const brokerState = useAppState(selectBrokerState);
  const serverCounts = useAppState(selectServerCounts);
  const hint = useAppState(selectHint);
  const focus = useAppState(selectFocus);
  const keys = focus === 'input' ? 'Enter send · Tab focus · Ctrl+S sidebar · Ctrl+D quit' : 'Tab focus · Esc back';
  return <StatusBar modelName={modelName} brokerState={brokerState} serverCounts={serverCounts} hint={hint} keys={keys} width={width} theme={theme} />;
}

/** Keys that work everywhere: quit, cancel, focus and sidebar. */
function useGlobalKeys(columns: number) {
  const store = useAppStoreApi();
  const controller = useController();
  useInput((input, key) => {
    const state = store.getState();
    if (key.ctrl && input === 'd') {
      controller.quit();
      return;
    }
    if (key.ctrl && input === 'c') {
      if (controller.cancel()) return;
      if (state.draft.length > 0) {
        state.setDraft('');
        return;
      }
      const now = Date.now();
      if (state.quitArmedAt !== undefined && now - state.quitArmedAt <= QUIT_WINDOW_MS) {
        controller.quit();
        return;
      }
      state.armQuit(now);
      state.setHint('press Ctrl+C again to quit');
      setTimeout(() => {
        if (store.getState().quitArmedAt === now) {
          store.getState().armQuit(undefined);
          store.getState().setHint(undefined);
        }
      }, QUIT_WINDOW_MS);
      return;
    }
    if (key.ctrl && input === 's') {
      state.toggleSidebar(sidebarShown(state, columns));
      return;
    }
    if (key.tab) {
      state.cycleFocus(key.shift ? -1 : 1);
      return;
    }
    if (key.escape && state.focus !== 'input') {
      state.setFocus('input');
    }
  });
}

export function App() {
  const { columns, rows } = useTerminalSize();
  const theme = useMemo(() => createTheme(), []);
  const showSidebar = useAppState((state) => sidebarShown(state, columns));
  useGlobalKeys(columns);

  const height = Math.max(6, rows);
  const mainHeight = height - INPUT_HEIGHT - STATUS_HEIGHT;
  const sidebarWidth = showSidebar ? Math.min(SIDEBAR_WIDTH, Math.floor(columns / 3)) : 0;
  const chatWidth = columns - sidebarWidth;

  return (
    <Box flexDirection="column" width={columns} height={height}>
      <Box flexDirection="row" height={mainHeight}>
        <ChatContainer width={chatWidth} height={mainHeight} theme={theme} />
        {showSidebar ? <SidebarContainer width={sidebarWidth} height={mainHeight} theme={theme} /> : null}
      </Box>
      <InputContainer width={columns} theme={theme} />
      <StatusContainer width={columns} theme={theme} />
    </Box>
  );
}
