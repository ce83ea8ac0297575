import { memo } from 'react';
import { StatusBar } from '../panels/StatusBar';
import type { Theme } from '../../terminal/theme';
import {
  selectBrokerState,
  selectContextUsed,
  selectContextWindowTokens,
  selectFocus,
  selectFrameWaiting,
  selectHint,
  selectModelName,
  selectServerCounts,
  selectSomethingRuns,
  selectTokensPerSecond,
  selectUsage,
} from '../../state/selectors';
import type { AppState } from '../../state/store';
import { statusKeys, type KeyContext } from '../keys/keymap';
import { useAppState } from '../StoreContext';

/** Where the keys go right now, for the status bar's key hints. */
export function keyContext(state: AppState): KeyContext {
  if (state.frameUi && state.frameUi.mode !== 'buttons' && (state.approvals.length > 0 || state.commands.length > 0 || state.samplings.length > 0)) return 'line';
  if (state.approvals.length > 0) return 'approval';
  if (state.elicitations[0]) return state.elicitations[0].request.mode === 'form' ? 'form' : 'link';
  if (state.commands.length > 0) return 'command';
  if (state.picker) return 'picker';
  if (state.samplings.length > 0) return 'sampling';
  if (state.sidebarUi.connect) return 'prompt';
  if (state.focus === 'sidebar' && state.sidebarUi.detail) return 'details';
  return state.focus;
}

export const StatusContainer = memo(function StatusContainer({ width, theme }: { width: number; theme: Theme }) {
  const modelName = useAppState(selectModelName);
  const brokerState = useAppState(selectBrokerState);
  const serverCounts = useAppState(selectServerCounts);
  const hint = useAppState(selectHint);
  const context = useAppState(keyContext);
  const busy = useAppState(selectSomethingRuns);
  const retryQuestion = useAppState((state) => state.elicitations[0]?.request.mode === 'url' && state.elicitations[0].request.retry !== undefined);
  const tokensPerSecond = useAppState(selectTokensPerSecond);
  const usage = useAppState(selectUsage);
  const awaitingUser = useAppState(selectFrameWaiting);
  const contextUsed = useAppState(selectContextUsed);
  const contextWindow = useAppState(selectContextWindowTokens);
  useAppState(selectFocus);
  return (
    <StatusBar
      modelName={modelName}
      brokerState={brokerState}
      serverCounts={serverCounts}
      hint={hint}
      keys={statusKeys(context, { busy, retryQuestion })}
      width={width}
      theme={theme}
      tokensPerSecond={tokensPerSecond}
      usage={usage}
      awaitingUser={awaitingUser}
      contextUsed={contextUsed}
      contextWindow={contextWindow}
    />
  );
});
