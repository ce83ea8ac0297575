import type { PendingSampling } from '../state/slices/sampling';
import type { AppState } from '../state/store';
import type { FrameUi } from '../state/types';
import { newFrameUi, type FrameKeyContext, type FrameKind } from './keys/frameKeys';
import { editorFromText } from './input/editor';

// Which frame is at the head of the queues (a tool call, an elicitation, a command, a sampling
// review), what its keys need to know, and its UI state as it was left (Frames.tsx draws it).

const SAMPLING_KIND = { request: 'samplingRequest', running: 'samplingRunning', result: 'samplingResult' } as const;

/** A sampling frame, once no tool-call or command frame waits (those came first, or belong to the turn in front). */
export function samplingHead(sampling: PendingSampling): Head {
  return { kind: SAMPLING_KIND[sampling.stage], id: sampling.frameId, shownAt: sampling.shownAt, command: sampling.editText };
}

export interface Head extends Pick<FrameKeyContext, 'command' | 'mustEdit' | 'edited' | 'confirmAllow' | 'argumentsText' | 'ruleText'> {
  kind: FrameKind | 'elicitation';
  id: string;
  shownAt: number;
  /** A rejected argument edit or rule line: the frame opens on that field again, with its text. */
  retry?: { field: 'args' | 'rule'; text: string };
}

const CONFIRM_HIDDEN = 'hidden characters in the arguments';

export function approvalHead(entry: AppState['approvals'][number]): Head {
  const call = entry.request.call;
  const hidden = call.warnings?.some((warning) => warning.kind === 'hidden-characters');
  const argumentsText = call.arguments !== undefined ? JSON.stringify(call.arguments, null, 2) : call.rawArguments;
  const ruleText = call.alias !== undefined && call.tool !== undefined ? `allow project ${call.alias}__${call.tool}` : '';
  return {
    kind: 'approval',
    id: call.id,
    shownAt: entry.shownAt,
    argumentsText,
    ruleText,
    ...(call.retry ? { retry: { field: call.retry.field, text: call.retry.text } } : {}),
    ...(hidden ? { confirmAllow: CONFIRM_HIDDEN } : {}),
  };
}

export function commandHead(entry: AppState['commands'][number]): Head {
  const proposed = entry.command;
  return { kind: 'command', id: proposed.id, shownAt: entry.shownAt, command: proposed.command, ...(proposed.mustEdit ? { mustEdit: proposed.mustEdit, edited: proposed.edited ?? '' } : {}) };
}

export function headOf(state: AppState): Head | undefined {
  const approval = state.approvals[0];
  if (approval) return approvalHead(approval);
  const elicitation = state.elicitations[0];
  if (elicitation) return { kind: 'elicitation', id: elicitation.id, shownAt: elicitation.shownAt };
  const command = state.commands[0];
  if (command) return commandHead(command);
  const sampling = state.samplings[0];
  if (sampling) return samplingHead(sampling);
  return undefined;
}

/** The key context of a head as drawn. */
export function keyContext(head: Head, drawn: { shownAt: number; total: number; viewport: number }): FrameKeyContext {
  const { kind, command, mustEdit, edited, confirmAllow, argumentsText, ruleText } = head;
  return {
    kind: kind as FrameKind,
    shownAt: drawn.shownAt,
    total: drawn.total,
    viewport: drawn.viewport,
    command,
    ...(mustEdit ? { mustEdit, edited } : {}),
    ...(confirmAllow ? { confirmAllow } : {}),
    ...(argumentsText !== undefined ? { argumentsText } : {}),
    ...(ruleText !== undefined ? { ruleText } : {}),
  };
}

/**
 * The frame's UI state for this head: fresh for a new head, `seen` reset when the width changed,
 * and the scroll position and `seen` moved with the body when the header rows above it (`lead`)
 * changed, so what was read stays read and nothing unread counts as read.
 */
export function uiFor(frameUi: FrameUi | undefined, head: Pick<Head, 'id' | 'kind' | 'retry'>, width: number, lead: number): FrameUi {
  const id = head.id;
  if (!frameUi || frameUi.id !== id) {
    const fresh = { ...newFrameUi(id, 0, width, head.kind as FrameKind), seenLead: lead };
    // An edit or rule line that could not be used comes back as it was typed, to be put right.
    return head.retry ? { ...fresh, mode: head.retry.field, field: editorFromText(head.retry.text) } : fresh;
  }
  if (frameUi.seenWidth !== width) return { ...frameUi, seen: 0, seenRuns: [], seenWidth: width, seenLead: lead };
  const shift = lead - (frameUi.seenLead ?? 0);
  if (shift === 0) return frameUi;
  const seenRuns = (frameUi.seenRuns ?? []).map(([from, to]) => [Math.max(0, from + shift), Math.max(0, to + shift)] as const).filter(([from, to]) => to > from);
  return { ...frameUi, seen: Math.max(0, frameUi.seen + shift), seenRuns, scrollTop: Math.max(0, frameUi.scrollTop + shift), seenLead: lead };
}
