import type { ToolCallView } from '../services/conversation/types';
import { sanitizeLabel, sanitizeStrict } from '../services/terminal/sanitize';
import type { FrameUi } from '../state/types';
import { BoxFrame, innerWidth } from './BoxFrame';
import { fieldLine } from './editorView';
import { buttonRows, layoutFrame, type FrameButton, type FrameLayout } from './frameLayout';
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
 * Everything the user approves, escaped and wrapped to `columns`: the full tool name, server and
 * tool, the first line of the description, what changed in the definition, every argument.
 */
export function approvalBody(call: ToolCallView, columns: number): Line[] {
  const lines: Line[] = [];
  lines.push(...wrapLine([{ text: 'call ', tone: 'muted' }, { text: sanitizeLabel(call.wireName), tone: 'bold' }], columns));
  if (call.alias !== undefined || call.tool !== undefined) {
    lines.push(
      ...wrapLine(
        [
          { text: 'server ', tone: 'muted' },
          { text: sanitizeLabel(call.alias ?? '?'), tone: 'accent' },
          { text: ' · tool ', tone: 'muted' },
          { text: sanitizeLabel(call.tool ?? '?'), tone: 'accent' },
        ],
        columns,
      ),
    );
  }
  const description = (call.description ?? '').split('\n').find((line) => line.trim() !== '');
  if (description) lines.push([{ text: truncate(sanitizeLabel(description.trim()), columns), tone: 'muted' }]);
  if (call.definitionChanged) {
    // Said before the arguments: the user must know the tool is not the one they allowed before.
    lines.push(...wrapWords(`▲ This tool changed since it was first seen or last approved: ${sanitizeLabel(call.definitionChanged)}. Earlier "always" approvals are suspended until you allow it again.`, columns, 'warn'));
  }
  const args = argumentText(call);
  lines.push([{ text: args.parsed ? 'arguments' : 'arguments (not valid JSON, shown as sent)', tone: 'muted' }]);
  for (const line of markWhitespace(sanitizeStrict(args.text.length > 0 ? args.text : '(none)'))) {
    lines.push(...wrapLine(line, columns));
  }
  return lines;
}

export interface ApprovalLayoutInput {
  body: Line[];
  width: number;
  maxHeight: number;
  ui: Pick<FrameUi, 'button' | 'scrollTop' | 'mode' | 'field' | 'seen'>;
  /** The keys work (the delay passed and everything has been on screen). */
  armed: boolean;
}

export function layoutApproval({ body, width, maxHeight, ui, armed }: ApprovalLayoutInput): FrameLayout {
  const inner = innerWidth(width);
  const footer: Line[] =
    ui.mode === 'reason'
      ? [
          [{ text: 'Reason: ', tone: 'accent' }, ...fieldLine(ui.field, inner - 8)],
          [{ text: truncate('Enter deny with this reason · Esc back', inner), tone: 'muted' }],
        ]
      : buttonRows(APPROVAL_BUTTONS, ui.button, armed, inner);
  return layoutFrame({
    body,
    footer,
    maxHeight,
    scrollTop: ui.scrollTop,
    seen: ui.seen,
    unreadNote: [{ text: 'read to the end to enable the keys', tone: 'warn' }],
  });
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
export function ApprovalFrame({ call, position, count, width, layout, theme }: ApprovalFrameProps) {
  return (
    <BoxFrame
      width={width}
      title={[{ text: 'Run this tool?', tone: 'bold' }]}
      badge={count > 1 ? [{ text: `${position} of ${count}`, tone: 'accent' }] : undefined}
      lines={layout.rows}
      theme={theme}
      tone={call.definitionChanged ? 'warn' : 'accent'}
    />
  );
}
