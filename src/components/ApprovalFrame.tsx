import type { ToolCallView } from '../services/conversation/types';
import { sanitizeLabel, sanitizeStrict } from '../services/terminal/sanitize';
import { AskFrame, layoutAsk, type AskField, type AskLayoutInput } from './AskFrame';
import type { FrameButton, FrameLayout, FrameParts } from './frameLayout';
import { markWhitespace, truncate, wrapLine, wrapWords, type Line } from './text';
import type { Theme } from './theme';

/** The answers, in button order; `e` opens the reason line. */
export const APPROVAL_BUTTONS: FrameButton[] = [
  { key: 'y', label: 'Allow once', short: 'once' },
  { key: 't', label: 'Always this tool', short: 'tool' },
  { key: 's', label: 'Always this server', short: 'server' },
  { key: 'n', label: 'Deny', short: 'deny' },
  { key: 'e', label: 'Deny with reason', short: 'reason' },
];

/** The arguments as the frame shows them: pretty JSON of what will be sent, or the raw text. */
export function argumentText(call: ToolCallView): { text: string; parsed: boolean } {
  if (call.arguments !== undefined) return { text: JSON.stringify(call.arguments, null, 2), parsed: true };
  return { text: call.rawArguments, parsed: false };
}

/**
 * Everything the user approves, escaped and wrapped to `columns`. The header (full tool name,
 * server and tool, the first line of the description, what changed in the definition) stays on
 * screen while the arguments scroll under it, so what is allowed is always in view.
 */
export function approvalParts(call: ToolCallView, columns: number): FrameParts {
  const callLine = wrapLine([{ text: 'call ', tone: 'muted' }, { text: sanitizeLabel(call.wireName), tone: 'bold' }], columns);
  const identity =
    call.alias !== undefined || call.tool !== undefined
      ? wrapLine(
          [
            { text: 'server ', tone: 'muted' },
            { text: sanitizeLabel(call.alias ?? '?'), tone: 'accent' },
            { text: ' · tool ', tone: 'muted' },
            { text: sanitizeLabel(call.tool ?? '?'), tone: 'accent' },
          ],
          columns,
        )
      : [];
  const header: Line[] = [...callLine, ...identity];
  const description = (call.description ?? '').split('\n').find((line) => line.trim() !== '');
  if (description) header.push([{ text: truncate(sanitizeLabel(description.trim()), columns), tone: 'muted' }]);
  // Said before the arguments: the user must know the tool is not the one they allowed before.
  const changed = call.definitionChanged ? sanitizeLabel(call.definitionChanged) : undefined;
  if (changed) header.push(...wrapWords(`▲ This tool changed since it was first seen or last approved: ${changed}. Earlier "always" approvals are suspended until you allow it again.`, columns, 'warn'));
  const compactHeader: Line[] = [...(identity.length > 0 ? identity : callLine)];
  if (changed) compactHeader.push([{ text: truncate(`▲ changed since last approved: ${changed}`, columns), tone: 'warn' }]);

  const args = argumentText(call);
  const body: Line[] = [];
  for (const line of markWhitespace(sanitizeStrict(args.text.length > 0 ? args.text : '(none)'))) {
    body.push(...wrapLine(line, columns));
  }
  const bodyLabel: Line = [{ text: args.parsed ? 'arguments' : 'arguments (not valid JSON, shown as sent)', tone: 'muted' }];
  return { header, compactHeader, bodyLabel, body };
}

const REASON_FIELD: AskField = { mode: 'reason', prompt: [{ text: 'Reason: ', tone: 'accent' }], help: 'Enter deny with this reason · Esc back' };

export interface ApprovalLayoutInput {
  parts: FrameParts;
  width: number;
  maxHeight: number;
  ui: AskLayoutInput['ui'];
  /** The keys work (the delay passed and everything has been on screen). */
  armed: boolean;
}

export function layoutApproval(input: ApprovalLayoutInput): FrameLayout {
  return layoutAsk({ ...input, buttons: APPROVAL_BUTTONS, field: REASON_FIELD });
}

export interface ApprovalFrameProps {
  call: ToolCallView;
  /** `1 of 3`: this call's place among those waiting. */
  position: number;
  count: number;
  width: number;
  layout: FrameLayout;
  theme: Theme;
}

/** The inline frame that asks before a tool call runs. */
export function ApprovalFrame({ call, ...rest }: ApprovalFrameProps) {
  return <AskFrame title="Run this tool?" tone={call.definitionChanged ? 'warn' : 'accent'} {...rest} />;
}
