import type { SamplingPart, SamplingRequest } from '../../services/mcp/types';
import { sanitizeLabel, sanitizeStrict } from '../../services/terminal/sanitize';
import type { FrameUi } from '../../state/types';
import type { Theme } from '../../terminal/theme';
import { AskFrame } from './AskFrame';
import { innerWidth } from './BoxFrame';
import { editorRows } from './editorView';
import { answerButtons, layoutFrame, type FrameButton, type FrameLayout, type FrameParts } from './frameLayout';
import { markWhitespace, truncate, truncateLine, wrapLine, wrapWords, type Line } from './text';
import { pushAll } from '../../services/terminal/rows';

/**
 * A server's sampling request, shown before it goes to the model and again with the model's
 * answer before that goes back (the person in the loop both ways). Everything from the server or
 * the model is escaped; whitespace runs are marked, as in the command frame, so what is approved
 * is what is sent.
 */

export type SamplingFrameStage = 'request' | 'running' | 'result';

export const SAMPLING_BUTTONS: Record<SamplingFrameStage, FrameButton[]> = {
  request: [
    { key: 'y', label: 'Send to the model', short: 'send' },
    { key: 'e', label: 'Edit', short: 'edit' },
    { key: 'n', label: 'Deny', short: 'deny' },
  ],
  running: [{ key: 'n', label: 'Cancel', short: 'cancel' }],
  result: [
    { key: 'y', label: 'Return to the server', short: 'return' },
    { key: 'e', label: 'Edit', short: 'edit' },
    { key: 'n', label: 'Deny', short: 'deny' },
  ],
};

/** Characters of one text shown; the rest is sent (or returned) all the same, and `e` shows it. */
export const SHOWN_TEXT_CHARS = 20_000;

export interface SamplingView {
  request: SamplingRequest;
  model: string;
  stage: SamplingFrameStage;
  /** The answer so far, or in full. */
  text: string;
  stopReason?: string;
  /** Why the last edit was not used, or what a limit changed. */
  problem?: string;
}

function mediaLabel(part: Extract<SamplingPart, { data: string }>): string {
  const padding = part.data.endsWith('==') ? 2 : part.data.endsWith('=') ? 1 : 0;
  const bytes = Math.max(0, Math.floor((part.data.length * 3) / 4) - padding);
  return `[${sanitizeLabel(part.mimeType)}, ${bytes < 1024 ? `${bytes} B` : `${Math.round(bytes / 1024)} KB`}]`;
}

/** Text as escaped, marked, wrapped rows (a very long one cut, saying so). */
function textRows(text: string, columns: number): Line[] {
  const shown = text.length > SHOWN_TEXT_CHARS ? text.slice(0, SHOWN_TEXT_CHARS) : text;
  const rows = markWhitespace(sanitizeStrict(shown)).flatMap((line) => wrapLine(line, columns));
  if (shown !== text) pushAll(rows, wrapWords(`… ${text.length - SHOWN_TEXT_CHARS} more characters, not shown here (they are sent as they are; e shows them all)`, columns, 'warn'));
  return rows;
}

function partRows(part: SamplingPart, columns: number): Line[] {
  if (part.type === 'text') return textRows(part.text, columns);
  if (part.type === 'other') return [[{ text: truncate(`[${sanitizeLabel(part.kind)} content: not supported, sent as a placeholder]`, columns), tone: 'warn' }]];
  return [[{ text: truncate(`${part.type} ${mediaLabel(part)}`, columns), tone: 'muted' }]];
}

function preferencesLine(request: SamplingRequest): string | undefined {
  const preferences = request.modelPreferences;
  if (!preferences) return undefined;
  const parts: string[] = [];
  if (preferences.hints?.length) parts.push(`hints ${preferences.hints.join(', ')}`);
  if (preferences.costPriority !== undefined) parts.push(`cost ${preferences.costPriority}`);
  if (preferences.speedPriority !== undefined) parts.push(`speed ${preferences.speedPriority}`);
  if (preferences.intelligencePriority !== undefined) parts.push(`intelligence ${preferences.intelligencePriority}`);
  return parts.length > 0 ? `prefers: ${parts.join(' · ')}` : undefined;
}

export function samplingParts(view: SamplingView, columns: number): FrameParts {
  const { request } = view;
  const who: Line = [{ text: 'server ', tone: 'muted' }, { text: sanitizeLabel(request.alias), tone: 'accent' }, { text: ' asks your model for an answer', tone: 'muted' }];
  const settings = [`model ${view.model}`, `up to ${request.maxTokens} tokens`, ...(request.temperature !== undefined ? [`temperature ${request.temperature}`] : [])].join(' · ');
  const header: Line[] = [...wrapLine(who, columns), ...wrapWords(sanitizeLabel(settings), columns, 'muted')];
  const preferences = preferencesLine(request);
  if (preferences) pushAll(header, wrapWords(sanitizeLabel(preferences), columns, 'muted'));
  if (request.stopSequences?.length) pushAll(header, wrapWords(`stops at: ${request.stopSequences.map((stop) => JSON.stringify(stop)).map(sanitizeLabel).join(', ')}`, columns, 'muted'));
  if (request.includeContext && request.includeContext !== 'none') {
    pushAll(header, wrapWords(`asks to include context (${sanitizeLabel(request.includeContext)}): none is sent, only the messages below`, columns, 'warn'));
  }
  if (view.problem) pushAll(header, wrapWords(sanitizeLabel(view.problem), columns, 'warn'));
  const compactHeader: Line[] = [truncateLine(who, columns), [{ text: truncate(sanitizeLabel(settings), columns), tone: 'muted' }]];

  const body: Line[] = [];
  if (view.stage === 'request') {
    if (request.systemPrompt !== undefined) {
      body.push([{ text: 'system prompt', tone: 'bold' }]);
      pushAll(body, textRows(request.systemPrompt, columns));
    }
    for (const message of request.messages) {
      body.push([{ text: message.role, tone: 'bold' }]);
      for (const part of message.content) pushAll(body, partRows(part, columns));
    }
    return { header, compactHeader, bodyLabel: [{ text: 'request', tone: 'muted' }], body };
  }
  const answer = view.text.length > 0 ? textRows(view.text, columns) : [[{ text: view.stage === 'running' ? 'waiting for the model…' : '(empty answer)', tone: 'muted' as const }]];
  pushAll(body, answer);
  const label = view.stage === 'running' ? 'answer, streaming' : `answer${view.stopReason ? ` (${sanitizeLabel(view.stopReason)})` : ''}`;
  return { header, compactHeader, bodyLabel: [{ text: label, tone: 'muted' }], body };
}

/** Rows of the edit field at most: the rest scrolls with the cursor. */
const EDIT_ROWS = 8;

export interface SamplingLayoutInput {
  parts: FrameParts;
  stage: SamplingFrameStage;
  width: number;
  maxHeight: number;
  ui: Pick<FrameUi, 'button' | 'scrollTop' | 'mode' | 'field' | 'seen' | 'seenRuns'>;
  armed: boolean;
}

export function layoutSampling({ parts, stage, width, maxHeight, ui, armed }: SamplingLayoutInput): FrameLayout {
  const inner = innerWidth(width);
  const buttons = SAMPLING_BUTTONS[stage];
  const editing = ui.mode === 'edit';
  let footer: Line[];
  let compactFooter: Line[];
  if (editing) {
    const { rows, cursorRow } = editorRows(ui.field, inner);
    const room = Math.max(1, Math.min(EDIT_ROWS, Math.floor((maxHeight - 4) / 2)));
    const top = Math.max(0, Math.min(cursorRow - room + 1, rows.length - room));
    const help: Line = [{ text: truncate('Enter use the edit · Ctrl+J new line · Esc back', inner), tone: 'muted' }];
    const label: Line = [{ text: truncate(stage === 'request' ? 'edit the request (### sections; media parts stay as they are):' : 'edit the answer:', inner), tone: 'accent' }];
    footer = [label, ...rows.slice(top, top + room), help];
    compactFooter = rows.slice(cursorRow, cursorRow + 1);
  } else {
    ({ footer, compactFooter } = answerButtons(buttons, ui.button, armed, inner));
  }
  return layoutFrame({
    parts,
    footer,
    compactFooter,
    maxHeight,
    columns: inner,
    scrollTop: ui.scrollTop,
    seen: ui.seen,
    ...(ui.seenRuns ? { seenRuns: ui.seenRuns } : {}),
    ...(stage === 'running' ? {} : { unreadNote: [{ text: 'read every line first', tone: 'warn' }] }),
  });
}

export interface SamplingFrameProps {
  stage: SamplingFrameStage;
  position: number;
  count: number;
  width: number;
  layout: FrameLayout;
  theme: Theme;
}

const TITLES: Record<SamplingFrameStage, string> = {
  request: 'Sampling request: send to your model?',
  running: 'Sampling: the model is answering',
  result: "Sampling: return the model's answer to the server?",
};

/** The inline frame for a server's sampling request. */
export function SamplingFrame({ stage, ...props }: SamplingFrameProps) {
  return <AskFrame title={TITLES[stage]} tone={stage === 'running' ? 'accent' : 'warn'} {...props} />;
}
