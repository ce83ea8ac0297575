import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ApprovalFrame, approvalParts, layoutApproval } from './panels/ApprovalFrame';
import { innerWidth } from './panels/BoxFrame';
import { CommandFrame, commandParts, layoutCommand } from './panels/CommandFrame';
import { layoutSampling, SamplingFrame, samplingParts } from './panels/SamplingFrame';
import type { FrameParts } from './panels/frameLayout';
import type { Theme } from '../terminal/theme';
import { selectApprovalCount, selectApprovalHead, selectCommandHead, selectCommandPosition, selectCommandTotal, selectElicitationCount, selectElicitationHead, selectFormUi, selectFrameUi } from '../state/selectors';
import { ElicitationFrame, layoutForm, layoutLink, type ElicitationLayout } from './panels/ElicitationFrame';
import { committedInputs, formKey, linkKey, newFormUi } from './keys/formKeys';
import type { FormUi, PendingElicitation } from '../state/types';
import type { AppState } from '../state/store';
import type { FrameUi } from '../state/types';
import { APPROVAL_DELAY_MS, frameKey, guardEndsAt, isArmed, isTyping, type FrameAnswer, type FrameKind } from './keys/frameKeys';
import { flashHint } from '../runtime/hints';
import { KeyPriority } from '../terminal/keyboard/keyInput';
import { useKeys } from './keys/useKeys';
import { useAppState, useAppStoreApi, useUiEnv, type UiEnv } from './StoreContext';
import { approvalHead, commandHead, headOf, keyContext, samplingHead, uiFor, type Head } from './frameHeads';
import { actionFor } from './keys/keymap';
import { editorFromText, expandText } from './input/editor';
import type { AppStore } from '../state/store';

/** What the last drawn frame showed; keys are checked against it. */
interface ShownFrame {
  id: string;
  kind: FrameKind | 'elicitation';
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

/** The answer lets something run (or go to the model, or back to a server). */
function allows(answer: FrameAnswer): boolean {
  if (answer.kind === 'sampling') return answer.answer.action === 'approve';
  // A rule line may allow the call it was typed on.
  return answer.kind === 'approval' ? answer.answer.action === 'allow' || answer.answer.action === 'rule' : answer.answer.action === 'run';
}

/**
 * The approval or command frame at the head of its queue, laid out to fit `maxHeight`, and the
 * key handler that answers it. The chat pane gives the transcript whatever height is left.
 */
export function useActiveFrame(width: number, maxHeight: number, theme: Theme, screenRows = maxHeight): { node: ReactNode; height: number } {
  const store = useAppStoreApi();
  const env = useUiEnv();
  const approval = useAppState(selectApprovalHead);
  const approvalCount = useAppState(selectApprovalCount);
  const command = useAppState(selectCommandHead);
  const commandPosition = useAppState(selectCommandPosition);
  const commandTotal = useAppState(selectCommandTotal);
  const frameUi = useAppState(selectFrameUi);
  const elicitation = useAppState(selectElicitationHead);
  const elicitationCount = useAppState(selectElicitationCount);
  const formUi = useAppState(selectFormUi);
  const sampling = useAppState((state) => state.samplings[0]);
  const samplingCount = useAppState((state) => state.samplings.length);
  const shown = useRef<ShownFrame | undefined>(undefined);
  // When the head was first drawn. A frame's key delay counts from then: a command queued behind
  // approvals (or pushed back by one) was queued long before the user sees it.
  const drawnSince = useRef<{ key: string; at: number } | undefined>(undefined);
  const [, setTick] = useState(0);

  const head: Head | undefined = approval
    ? approvalHead(approval)
    : elicitation
      ? { kind: 'elicitation', id: elicitation.id, shownAt: elicitation.shownAt }
      : command
        ? commandHead(command)
        : sampling
          ? samplingHead(sampling)
          : undefined;
  const inner = innerWidth(width);
  const call = approval?.request.call;
  const confinement = useAppState((state) => (call?.alias !== undefined ? state.servers[call.alias]?.sandbox : undefined));
  const proposed = command?.command;
  const { parts, broken } = useMemo((): { parts: FrameParts; broken: boolean } => {
    try {
      if (call) return { parts: approvalParts(call, inner, confinement), broken: false };
      if (proposed !== undefined) return { parts: commandParts(proposed.command, inner, proposed), broken: false };
      if (sampling) {
        const view = { request: sampling.request, model: sampling.model, stage: sampling.stage, text: sampling.text, ...(sampling.result?.stopReason ? { stopReason: sampling.result.stopReason } : {}), ...(sampling.problem ? { problem: sampling.problem } : {}) };
        return { parts: samplingParts(view, inner), broken: false };
      }
      return { parts: { header: [], body: [] }, broken: false };
    } catch (error) {
      // Never approve what could not be shown: the allow keys stay locked, deny still works.
      const message = error instanceof Error ? error.message : String(error);
      return { parts: { header: [[{ text: `this ${call ? 'call' : proposed !== undefined ? 'command' : 'request'} could not be shown (${message}); deny it`, tone: 'error' as const }]], body: [] }, broken: true };
    }
  }, [call, confinement, proposed, sampling, inner]);

  const now = Date.now();
  let node: ReactNode = null;
  let height = 0;
  let armedLater = false;
  let shownAt: number | undefined;
  let guardEnd: number | undefined;
  if (head?.kind === 'elicitation' && elicitation) {
    const headKey = `${head.kind}:${head.id}`;
    if (drawnSince.current?.key !== headKey) drawnSince.current = { key: headKey, at: now };
    shownAt = Math.max(head.shownAt, drawnSince.current.at);
    const ui = formUiFor(elicitation, formUi);
    const early = now - shownAt < APPROVAL_DELAY_MS;
    const layout = layoutElicitation(elicitation, ui, width, maxHeight, !early);
    const locked = layout.locked ?? (layout.height > screenRows ? CLIPPED_HINT : undefined);
    armedLater = early && !locked;
    shown.current = { id: head.id, kind: 'elicitation', shownAt, total: 0, viewport: 0, width, lead: 0, locked };
    height = layout.height;
    const title = elicitation.request.mode === 'form' ? 'A server asks for input' : elicitation.request.retry ? 'Run the call again?' : 'Open this URL?';
    node = <ElicitationFrame title={title} layout={layout} position={1} count={elicitationCount} width={width} theme={theme} tone={elicitation.urlProblem ? 'warn' : 'accent'} />;
  } else if (head) {
    const headKey = `${head.kind}:${head.id}`;
    if (drawnSince.current?.key !== headKey) drawnSince.current = { key: headKey, at: now };
    shownAt = Math.max(head.shownAt, drawnSince.current.at);
    const layoutFor = (ui: FrameUi, armed: boolean) =>
      head.kind === 'approval'
        ? layoutApproval({ parts, width, maxHeight, ui, armed, ...(call?.retry?.field === 'args' ? { editProblem: call.retry.problem } : {}) })
        : head.kind === 'command'
          ? layoutCommand({ parts, width, maxHeight, ui, armed })
          : layoutSampling({ parts, stage: sampling?.stage ?? 'request', width, maxHeight, ui, armed });
    // Whether header rows scroll with the body depends on the sizes, not on the scroll position.
    const lead = layoutFor(uiFor(frameUi, head, width, 0), false).leadRows;
    const ui = uiFor(frameUi, head, width, lead);
    const probe = layoutFor(ui, false);
    // Never allow what could not be shown: a frame that failed to lay out, or one taller than the
    // rows it has on screen (what is cut off was never seen). Scrolling and denying still work.
    const locked = broken ? BROKEN_HINT : probe.height > screenRows ? CLIPPED_HINT : undefined;
    const context = keyContext(head, { shownAt, total: probe.total, viewport: probe.viewport });
    const armed = !locked && isArmed(ui, context, now);
    guardEnd = guardEndsAt(ui, shownAt);
    armedLater = !locked && !armed && now < guardEnd;
    const layout = armed ? layoutFor(ui, true) : probe;
    shown.current = { id: head.id, kind: head.kind, shownAt, total: probe.total, viewport: layout.viewport, width, lead, locked, command: head.command };
    height = layout.height;
    if (approval && call) {
      const request = approval.request;
      const count = Math.max(request.count, approvalCount);
      const position = request.count >= approvalCount ? request.position : 1;
      node = <ApprovalFrame call={call} position={position} count={count} width={width} layout={layout} theme={theme} />;
    } else if (command) {
      node = <CommandFrame position={commandPosition} count={commandTotal} width={width} layout={layout} theme={theme} />;
    } else if (sampling) {
      node = <SamplingFrame stage={sampling.stage} position={1} count={samplingCount} width={width} layout={layout} theme={theme} />;
    }
  } else {
    shown.current = undefined;
    drawnSince.current = undefined;
  }

  // Redraw when the key delay is over, so the buttons light up.
  const headId = head?.id;
  useEffect(() => {
    if (!armedLater || guardEnd === undefined) return;
    const timer = setTimeout(() => setTick((tick) => tick + 1), Math.max(0, guardEnd - Date.now()) + 5);
    return () => clearTimeout(timer);
  }, [armedLater, headId, guardEnd]);

  useKeys((key) => {
    const state = store.getState();
    const current = headOf(state);
    if (!current) return false;
    const drawn = shown.current;
    if (!drawn || drawn.id !== current.id) {
      // The frame is queued but not on screen yet: nothing may answer it, and nothing leaks past it
      // but typing, which stays in the input.
      return !(key.ctrl || key.meta || isTyping(key));
    }
    if (current.kind === 'elicitation') return elicitationKey(store.getState(), key, drawn, (hint) => flashHint(store, hint));
    const ui = uiFor(state.frameUi, current, drawn.width, drawn.lead);
    if (ui.mode === 'args' && actionFor('line', key) === 'line.externalEditor') {
      // Only if the same frame still has the arguments field open when the editor returns.
      editInEditor(env, store, expandText(ui.field), (text) => {
        const now = store.getState().frameUi;
        if (now?.id === ui.id && now.mode === 'args') store.getState().setFrameUi({ ...now, field: editorFromText(text) });
      });
      return true;
    }
    if ((current.kind === 'samplingRequest' || current.kind === 'samplingResult') && actionFor('sampling', key) === 'sampling.externalEditor') {
      // The saved text opens in the edit field: it is used only by a deliberate Enter there, as typed edits are.
      editInEditor(env, store, ui.mode === 'edit' ? expandText(ui.field) : (current.command ?? ''), (text) => {
        const now = store.getState();
        const head = headOf(now);
        if (head?.id !== current.id) return;
        now.setFrameUi({ ...uiFor(now.frameUi, head, drawn.width, drawn.lead), mode: 'edit', field: editorFromText(text), button: 1 });
      });
      return true;
    }
    let result = frameKey(ui, key, keyContext(current, drawn));
    if (drawn.locked && result.answer && allows(result.answer)) result = { ui: result.ui, handled: true, hint: drawn.locked };
    if (result.ui !== ui) state.setFrameUi(result.ui);
    if (result.hint) flashHint(store, result.hint);
    if (result.answer) {
      state.setFrameUi(undefined);
      if (result.answer.kind === 'approval') state.answerApproval(result.answer.answer, current.id);
      else if (result.answer.kind === 'command') state.answerCommand(result.answer.answer, current.id);
      else state.answerSampling(result.answer.answer, current.id);
    }
    return result.handled;
  }, KeyPriority.frame);

  return { node, height };
}

/** Runs the external editor on `text` (Ctrl+G); `use` gets what was saved; a failure is a status line. */
function editInEditor(env: UiEnv, store: AppStore, text: string, use: (text: string) => void): void {
  if (!env.editExternally) {
    flashHint(store, 'no external editor here');
    return;
  }
  void env.editExternally(text).then((result) => {
    if ('error' in result) store.getState().addStatus('error', `external editor: ${result.error}; the frame is unchanged`);
    else use(result.text);
  });
}

/** The form frame's state for this head: its own once keys were pressed, else fresh from the prefilled inputs. */
function formUiFor(pending: PendingElicitation, formUi: FormUi | undefined): FormUi {
  if (formUi?.id === pending.id) return formUi;
  return newFormUi(pending.id, pending.form ?? { fields: [] }, pending.initial ?? []);
}

function layoutElicitation(pending: PendingElicitation, ui: FormUi, width: number, maxHeight: number, armed: boolean): ElicitationLayout {
  const request = pending.request;
  if (request.mode === 'url') return layoutLink({ request, urlProblem: pending.urlProblem, button: ui.button, width, maxHeight, armed });
  const form = pending.form ?? { fields: [] };
  const all = pending.problems?.(committedInputs(ui, form)) ?? [];
  const problems = all.map((problem, index) => (ui.checked[index] ? problem : undefined));
  return layoutForm({ request, form, ui, problems, width, maxHeight, armed });
}

/** A key for the elicitation frame at the head of the queue: the pure form / link keys decide. */
function elicitationKey(state: AppState, key: Parameters<typeof formKey>[1], drawn: ShownFrame, hint: (text: string) => void): boolean {
  const pending = state.elicitations[0];
  if (!pending) return false;
  const ui = formUiFor(pending, state.formUi);
  if (pending.request.mode === 'url') {
    const result = linkKey(ui.button, key, { shownAt: drawn.shownAt, urlProblem: pending.urlProblem ?? drawn.locked, retry: pending.request.retry !== undefined });
    if (result.button !== ui.button) state.setFormUi({ ...ui, button: result.button });
    if (result.hint) hint(result.hint);
    if (result.answer) state.answerElicitation(result.answer, pending.id);
    return result.handled;
  }
  const form = pending.form ?? { fields: [] };
  const result = formKey(ui, key, {
    form,
    shownAt: drawn.shownAt,
    problems: pending.problems ?? (() => []),
    accept: (inputs) => (drawn.locked ? undefined : pending.accept?.(inputs)),
  });
  if (result.ui !== ui) state.setFormUi(result.ui);
  if (result.hint) hint(drawn.locked && !result.answer ? `${result.hint}` : result.hint);
  if (result.answer) state.answerElicitation(result.answer, pending.id);
  return result.handled;
}
