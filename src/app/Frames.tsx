import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApprovalFrame, approvalParts, layoutApproval } from '../components/ApprovalFrame';
import { innerWidth } from '../components/BoxFrame';
import { CommandFrame, commandParts, layoutCommand } from '../components/CommandFrame';
import type { FrameParts } from '../components/frameLayout';
import type { Theme } from '../components/theme';
import { selectApprovalCount, selectApprovalHead, selectCommandHead, selectCommandPosition, selectCommandTotal, selectFrameUi } from '../state/selectors';
import type { AppState } from '../state/store';
import type { FrameUi } from '../state/types';
import { APPROVAL_DELAY_MS, frameKey, isArmed, newFrameUi, type FrameKeyContext, type FrameKind } from './frameKeys';
import { flashHint } from './hints';
import { KeyPriority } from './input/keyInput';
import { useKeys } from './input/useKeys';
import { useAppState, useAppStoreApi } from './StoreContext';

/** What the last drawn frame showed; keys are checked against it. */
interface ShownFrame {
  id: string;
  kind: FrameKind;
  shownAt: number;
  total: number;
  viewport: number;
  width: number;
  command?: string;
}

interface Head {
  kind: FrameKind;
  id: string;
  shownAt: number;
  command?: string;
}

function headOf(state: AppState): Head | undefined {
  const approval = state.approvals[0];
  if (approval) return { kind: 'approval', id: approval.request.call.id, shownAt: approval.shownAt };
  const command = state.commands[0];
  if (command) return { kind: 'command', id: command.command.id, shownAt: command.shownAt, command: command.command.command };
  return undefined;
}

/** The frame's UI state for this head: fresh for a new head, `seen` reset when the width changed. */
function uiFor(frameUi: FrameUi | undefined, id: string, width: number): FrameUi {
  const ui = frameUi && frameUi.id === id ? frameUi : newFrameUi(id, 0, width);
  return ui.seenWidth === width ? ui : { ...ui, seen: 0, seenWidth: width };
}

/**
 * The approval or command frame at the head of its queue, laid out to fit `maxHeight`, and the
 * key handler that answers it. The chat pane gives the transcript whatever height is left.
 */
export function useActiveFrame(width: number, maxHeight: number, theme: Theme, screenRows = maxHeight): { node: ReactNode; height: number } {
  const store = useAppStoreApi();
  const approval = useAppState(selectApprovalHead);
  const approvalCount = useAppState(selectApprovalCount);
  const command = useAppState(selectCommandHead);
  const commandPosition = useAppState(selectCommandPosition);
  const commandTotal = useAppState(selectCommandTotal);
  const frameUi = useAppState(selectFrameUi);
  const shown = useRef<ShownFrame | undefined>(undefined);
  // When the head was first drawn. A frame's key delay counts from then: a command queued behind
  // approvals (or pushed back by one) was queued long before the user sees it.
  const drawnSince = useRef<{ key: string; at: number } | undefined>(undefined);
  const [, setTick] = useState(0);

  const head: Head | undefined = approval
    ? { kind: 'approval', id: approval.request.call.id, shownAt: approval.shownAt }
    : command
      ? { kind: 'command', id: command.command.id, shownAt: command.shownAt, command: command.command.command }
      : undefined;
  const inner = innerWidth(width);
  const call = approval?.request.call;
  const commandText = command?.command.command;
  const { parts, broken } = useMemo((): { parts: FrameParts; broken: boolean } => {
    try {
      if (call) return { parts: approvalParts(call, inner), broken: false };
      if (commandText !== undefined) return { parts: commandParts(commandText, inner), broken: false };
      return { parts: { header: [], body: [] }, broken: false };
    } catch (error) {
      // Never approve what could not be shown: the allow keys stay locked, deny still works.
      const message = error instanceof Error ? error.message : String(error);
      return { parts: { header: [[{ text: `this ${call ? 'call' : 'command'} could not be shown (${message}); deny it`, tone: 'error' as const }]], body: [] }, broken: true };
    }
  }, [call, commandText, inner]);

  const now = Date.now();
  let node: ReactNode = null;
  let height = 0;
  let armedLater = false;
  let shownAt: number | undefined;
  if (head) {
    const headKey = `${head.kind}:${head.id}`;
    if (drawnSince.current?.key !== headKey) drawnSince.current = { key: headKey, at: now };
    shownAt = Math.max(head.shownAt, drawnSince.current.at);
    const ui = uiFor(frameUi, head.id, width);
    const layoutFor = (armed: boolean) =>
      head.kind === 'approval' ? layoutApproval({ parts, width, maxHeight, ui, armed }) : layoutCommand({ parts, width, maxHeight, ui, armed });
    const probe = layoutFor(false);
    // A frame taller than the rows it has on screen is clipped: what is cut off was never seen.
    const clipped = probe.height > screenRows;
    const total = broken || clipped ? Number.MAX_SAFE_INTEGER : probe.total;
    const context: FrameKeyContext = { kind: head.kind, shownAt, total, viewport: probe.viewport, command: head.command };
    const armed = isArmed(ui, context, now);
    armedLater = !armed && now - shownAt < APPROVAL_DELAY_MS;
    const layout = armed ? layoutFor(true) : probe;
    shown.current = { id: head.id, kind: head.kind, shownAt, total, viewport: layout.viewport, width, command: head.command };
    height = layout.height;
    if (approval && call) {
      const request = approval.request;
      const count = Math.max(request.count, approvalCount);
      const position = request.count >= approvalCount ? request.position : 1;
      node = <ApprovalFrame call={call} position={position} count={count} width={width} layout={layout} theme={theme} />;
    } else {
      node = <CommandFrame position={commandPosition} count={commandTotal} width={width} layout={layout} theme={theme} />;
    }
  } else {
    shown.current = undefined;
    drawnSince.current = undefined;
  }

  // Redraw when the key delay is over, so the buttons light up.
  const headId = head?.id;
  useEffect(() => {
    if (!armedLater || shownAt === undefined) return;
    const timer = setTimeout(() => setTick((tick) => tick + 1), Math.max(0, shownAt + APPROVAL_DELAY_MS - Date.now()) + 5);
    return () => clearTimeout(timer);
  }, [armedLater, headId, shownAt]);

  useKeys((key) => {
    const state = store.getState();
    const current = headOf(state);
    if (!current) return false;
    const drawn = shown.current;
    if (!drawn || drawn.id !== current.id) {
      // The frame is queued but not on screen yet: nothing may answer it, and nothing leaks past it.
      return !(key.ctrl || key.meta);
    }
    const ui = uiFor(state.frameUi, current.id, drawn.width);
    const result = frameKey(ui, key, { kind: current.kind, shownAt: drawn.shownAt, total: drawn.total, viewport: drawn.viewport, command: current.command });
    if (result.ui !== ui) state.setFrameUi(result.ui);
    if (result.hint) flashHint(store, result.hint);
    if (result.answer) {
      state.setFrameUi(undefined);
      if (result.answer.kind === 'approval') state.answerApproval(result.answer.answer, current.id);
      else state.answerCommand(result.answer.answer, current.id);
    }
    return result.handled;
  }, KeyPriority.frame);

  return { node, height };
}
