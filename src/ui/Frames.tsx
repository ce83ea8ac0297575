import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApprovalFrame, approvalParts, layoutApproval } from './panels/ApprovalFrame';
import { innerWidth } from './panels/BoxFrame';
import { CommandFrame, commandParts, layoutCommand } from './panels/CommandFrame';
import type { FrameParts } from './panels/frameLayout';
import type { Theme } from '../terminal/theme';
import { selectApprovalCount, selectApprovalHead, selectCommandHead, selectCommandPosition, selectCommandTotal, selectFrameUi } from '../state/selectors';
import type { AppState } from '../state/store';
import type { FrameUi } from '../state/types';
import { APPROVAL_DELAY_MS, frameKey, isArmed, newFrameUi, type FrameAnswer, type FrameKeyContext, type FrameKind } from './keys/frameKeys';
import { flashHint } from '../runtime/hints';
import { KeyPriority } from '../terminal/keyboard/keyInput';
import { useKeys } from './keys/useKeys';
import { useAppState, useAppStoreApi } from './StoreContext';

/** What the last drawn frame showed; keys are checked against it. */
interface ShownFrame {
  id: string;
  kind: FrameKind;
  shownAt: number;
  total: number;
  viewport: number;
  width: number;
  /** The layout's `leadRows`. */
  lead: number;
  /** Why it cannot be allowed (it could not be shown in full), said when an allow key is pressed. */
  locked?: string;
  command?: string;
}

const BROKEN_HINT = 'this could not be shown: it can only be denied';
const CLIPPED_HINT = 'frame cut off: resize to allow, or n to deny';

/** The answer lets something run. */
function allows(answer: FrameAnswer): boolean {
  return answer.kind === 'approval' ? answer.answer.action === 'allow' : answer.answer.action === 'run';
}

interface Head extends Pick<FrameKeyContext, 'command' | 'mustEdit' | 'edited' | 'confirmAllow'> {
  kind: FrameKind;
  id: string;
  shownAt: number;
}

const CONFIRM_HIDDEN = 'hidden characters in the arguments';

function approvalHead(entry: AppState['approvals'][number]): Head {
  const call = entry.request.call;
  const hidden = call.warnings?.some((warning) => warning.kind === 'hidden-characters');
  return { kind: 'approval', id: call.id, shownAt: entry.shownAt, ...(hidden ? { confirmAllow: CONFIRM_HIDDEN } : {}) };
}

function commandHead(entry: AppState['commands'][number]): Head {
  const proposed = entry.command;
  return { kind: 'command', id: proposed.id, shownAt: entry.shownAt, command: proposed.command, ...(proposed.mustEdit ? { mustEdit: proposed.mustEdit, edited: proposed.edited ?? '' } : {}) };
}

function headOf(state: AppState): Head | undefined {
  const approval = state.approvals[0];
  if (approval) return approvalHead(approval);
  const command = state.commands[0];
  if (command) return commandHead(command);
  return undefined;
}

/** The key context of a head as drawn. */
function keyContext(head: Head, drawn: { shownAt: number; total: number; viewport: number }): FrameKeyContext {
  const { kind, command, mustEdit, edited, confirmAllow } = head;
  return { kind, shownAt: drawn.shownAt, total: drawn.total, viewport: drawn.viewport, command, ...(mustEdit ? { mustEdit, edited } : {}), ...(confirmAllow ? { confirmAllow } : {}) };
}

/**
 * The frame's UI state for this head: fresh for a new head, `seen` reset when the width changed,
 * and the scroll position and `seen` moved with the body when the header rows above it (`lead`)
 * changed, so what was read stays read and nothing unread counts as read.
 */
function uiFor(frameUi: FrameUi | undefined, id: string, width: number, lead: number): FrameUi {
  if (!frameUi || frameUi.id !== id) return { ...newFrameUi(id, 0, width), seenLead: lead };
  if (frameUi.seenWidth !== width) return { ...frameUi, seen: 0, seenRuns: [], seenWidth: width, seenLead: lead };
  const shift = lead - (frameUi.seenLead ?? 0);
  if (shift === 0) return frameUi;
  const seenRuns = (frameUi.seenRuns ?? []).map(([from, to]) => [Math.max(0, from + shift), Math.max(0, to + shift)] as const).filter(([from, to]) => to > from);
  return { ...frameUi, seen: Math.max(0, frameUi.seen + shift), seenRuns, scrollTop: Math.max(0, frameUi.scrollTop + shift), seenLead: lead };
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

  const head: Head | undefined = approval ? approvalHead(approval) : command ? commandHead(command) : undefined;
  const inner = innerWidth(width);
  const call = approval?.request.call;
  const proposed = command?.command;
  const { parts, broken } = useMemo((): { parts: FrameParts; broken: boolean } => {
    try {
      if (call) return { parts: approvalParts(call, inner), broken: false };
      if (proposed !== undefined) return { parts: commandParts(proposed.command, inner, proposed), broken: false };
      return { parts: { header: [], body: [] }, broken: false };
    } catch (error) {
      // Never approve what could not be shown: the allow keys stay locked, deny still works.
      const message = error instanceof Error ? error.message : String(error);
      return { parts: { header: [[{ text: `this ${call ? 'call' : 'command'} could not be shown (${message}); deny it`, tone: 'error' as const }]], body: [] }, broken: true };
    }
  }, [call, proposed, inner]);

  const now = Date.now();
  let node: ReactNode = null;
  let height = 0;
  let armedLater = false;
  let shownAt: number | undefined;
  if (head) {
    const headKey = `${head.kind}:${head.id}`;
    if (drawnSince.current?.key !== headKey) drawnSince.current = { key: headKey, at: now };
    shownAt = Math.max(head.shownAt, drawnSince.current.at);
    const layoutFor = (ui: FrameUi, armed: boolean) =>
      head.kind === 'approval' ? layoutApproval({ parts, width, maxHeight, ui, armed }) : layoutCommand({ parts, width, maxHeight, ui, armed });
    // Whether header rows scroll with the body depends on the sizes, not on the scroll position.
    const lead = layoutFor(uiFor(frameUi, head.id, width, 0), false).leadRows;
    const ui = uiFor(frameUi, head.id, width, lead);
    const probe = layoutFor(ui, false);
    // Never allow what could not be shown: a frame that failed to lay out, or one taller than the
    // rows it has on screen (what is cut off was never seen). Scrolling and denying still work.
    const locked = broken ? BROKEN_HINT : probe.height > screenRows ? CLIPPED_HINT : undefined;
    const context = keyContext(head, { shownAt, total: probe.total, viewport: probe.viewport });
    const armed = !locked && isArmed(ui, context, now);
    armedLater = !locked && !armed && now - shownAt < APPROVAL_DELAY_MS;
    const layout = armed ? layoutFor(ui, true) : probe;
    shown.current = { id: head.id, kind: head.kind, shownAt, total: probe.total, viewport: layout.viewport, width, lead, locked, command: head.command };
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
    const ui = uiFor(state.frameUi, current.id, drawn.width, drawn.lead);
    let result = frameKey(ui, key, keyContext(current, drawn));
    if (drawn.locked && result.answer && allows(result.answer)) result = { ui: result.ui, handled: true, hint: drawn.locked };
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
