import type { ToolCallView } from '../../services/conversation/types';
import { sanitizeLabel, sanitizeStrict } from '../../services/terminal/sanitize';
import { AskFrame, layoutAsk, type AskField, type AskLayoutInput } from './AskFrame';
import { layoutFrame, SHORTENED_NOTE, type FrameButton, type FrameLayout, type FrameParts } from './frameLayout';
import { innerWidth } from './BoxFrame';
import { editorRows } from './editorView';
import { graphemes, lineWidth, markWhitespace, truncate, width, wrapLine, wrapWords, type Line } from './text';
import type { Theme } from '../../terminal/theme';
import { pushAll } from '../../services/terminal/rows';
import { sanitizeName } from '../../services/terminal/look-alike';
import { trustNotes, trustWarns } from './trustNotes';

/** The answers, in button order; `e` opens the reason line. */
export const APPROVAL_BUTTONS: FrameButton[] = [
  { key: 'y', label: 'Allow once', short: 'once' },
  { key: 't', label: 'Always this tool', short: 'tool' },
  { key: 's', label: 'Always this server', short: 'server' },
  { key: 'n', label: 'Deny', short: 'deny' },
  { key: 'e', label: 'Deny with reason', short: 'reason' },
  { key: 'a', label: 'Edit arguments', short: 'edit' },
  { key: 'r', label: 'Save a rule', short: 'rule' },
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
export function approvalParts(call: ToolCallView, columns: number, confinement?: string): FrameParts {
  const callLine = wrapLine([{ text: 'call ', tone: 'muted' }, { text: sanitizeLabel(call.wireName), tone: 'bold' }], columns);
  const identity =
    call.alias !== undefined || call.tool !== undefined
      ? wrapLine(
          [
            { text: 'server ', tone: 'muted' },
            { text: sanitizeName(call.alias ?? '?'), tone: 'accent' },
            { text: ' · tool ', tone: 'muted' },
            { text: sanitizeName(call.tool ?? '?'), tone: 'accent' },
          ],
          columns,
        )
      : [];
  const header: Line[] = [...callLine, ...identity];
  // How the server's `sandbox` config confines what this call can do (`sandboxed: no network · …`).
  if (confinement) pushAll(header, wrapWords(sanitizeLabel(confinement), columns, 'muted'));
  // What the user did to this call so far: said first, so the edited call is never mistaken for the model's.
  pushAll(header, editNotes(call, columns));
  const description = (call.description ?? '').split('\n').find((line) => line.trim() !== '');
  if (description) header.push([{ text: truncate(sanitizeLabel(description.trim()), columns), tone: 'muted' }]);
  // Said before the arguments: the user must know the tool is not the one they allowed before.
  const changed = call.definitionChanged ? sanitizeLabel(call.definitionChanged) : undefined;
  if (changed) pushAll(header, wrapWords(`▲ This tool changed since it was first seen or last approved: ${changed}. Earlier "always" approvals are suspended until you allow it again.`, columns, 'warn'));
  // Why a call a rule would allow asks (the argument guard): said before the arguments too.
  const warnings = (call.warnings ?? []).map((warning) => `${sanitizeLabel(warning.where)}: ${sanitizeLabel(warning.reason)}`);
  if (warnings.length > 0) {
    pushAll(header, wrapWords(`▲ Check the arguments${call.warnings!.some((warning) => warning.kind === 'hidden-characters') ? ' (allowing takes the key twice)' : ''}:`, columns, 'warn'));
    for (const warning of warnings.slice(0, MAX_HEADER_WARNINGS)) pushAll(header, wrapWords(`• ${warning}`, columns, 'warn'));
    if (warnings.length > MAX_HEADER_WARNINGS) header.push([{ text: truncate(`• and ${warnings.length - MAX_HEADER_WARNINGS} more, listed below the arguments`, columns), tone: 'warn' }]);
  }
  const trust = trustNotes(call, columns);
  pushAll(header, trust.full);
  const compactHeader: Line[] = [...(identity.length > 0 ? identity : callLine)];
  // How the call is confined stays in view on a short frame too (its first row, as the command frame does).
  if (confinement) compactHeader.push([{ text: truncate(sanitizeLabel(confinement), columns), tone: 'muted' }]);
  // What the user did stays in view on a short frame too: a refused edit says why at every size.
  if (call.edited) compactHeader.push([{ text: truncate(`✎ arguments edited by you: ${sanitizeLabel(call.edited)}`, columns), tone: 'warn' }]);
  if (call.retry) compactHeader.push([{ text: truncate(`✗ ${call.retry.field === 'args' ? 'edit not used' : 'rule not saved'}: ${sanitizeLabel(call.retry.problem)}`, columns), tone: 'error' }]);
  if (changed) compactHeader.push([{ text: truncate(`▲ changed since last approved: ${changed}`, columns), tone: 'warn' }]);
  if (warnings.length > 0) compactHeader.push([{ text: truncate(`▲ ${warnings.length > 1 ? `${warnings.length} findings: ` : ''}${warnings[0]}`, columns), tone: 'warn' }]);
  pushAll(compactHeader, trust.compact);
  const oneRowHeader = oneRow(call, `${changed !== undefined ? ' ▲ changed' : warnings.length > 0 ? ' ▲ check arguments' : ''}${trust.flags}`, columns);

  const args = argumentText(call);
  const body: Line[] = [];
  for (const line of markWhitespace(sanitizeStrict(args.text.length > 0 ? args.text : '(none)'))) {
    pushAll(body, wrapLine(line, columns));
  }
  if (warnings.length > MAX_HEADER_WARNINGS) {
    body.push([], [{ text: 'why this call asks:', tone: 'warn' }]);
    for (const warning of warnings) pushAll(body, wrapWords(`• ${warning}`, columns, 'warn'));
  }
  const bodyLabel: Line = [{ text: args.parsed ? 'arguments' : 'arguments (not valid JSON, shown as sent)', tone: 'muted' }];
  return { header, compactHeader, oneRowHeader, bodyLabel, body };
}

/** The user's edit, a rejected edit or rule line, a rule saved that did not decide the call. */
function editNotes(call: ToolCallView, columns: number): Line[] {
  const lines: Line[] = [];
  if (call.edited) pushAll(lines, wrapWords(`✎ Arguments edited by you (the model sent others): ${sanitizeLabel(call.edited)}`, columns, 'warn'));
  if (call.retry) pushAll(lines, wrapWords(`✗ ${call.retry.field === 'args' ? 'Your edit was not used' : 'The rule was not saved'}: ${sanitizeLabel(call.retry.problem)}`, columns, 'error'));
  if (call.notice) pushAll(lines, wrapWords(sanitizeLabel(call.notice), columns, 'accent'));
  return lines;
}

/** Findings listed in the header; more go below the arguments (the header must leave room for them). */
const MAX_HEADER_WARNINGS = 3;

/** Cuts the middle out of `text` (marked `…`) so it takes at most `max` columns: both ends stay. */
function elideMiddle(text: string, max: number): string {
  if (width(text) <= max) return text;
  const parts = graphemes(text);
  const room = Math.max(0, max - 1);
  let head = '';
  let used = 0;
  let front = 0;
  while (front < parts.length && used + width(parts[front]!) <= Math.ceil(room / 2)) {
    used += width(parts[front]!);
    head += parts[front++];
  }
  let tail = '';
  for (let back = parts.length - 1; back >= front && used + width(parts[back]!) <= room; back--) {
    used += width(parts[back]!);
    tail = parts[back] + tail;
  }
  return `${head}…${tail}`;
}

/**
 * The one row kept in view when not even the compact header fits (the whole header then scrolls
 * above the arguments): server and tool, their middles cut out when too long, saying so. The names
 * come first; the `changed` flag and the note give way to them on a narrow frame (the border is
 * drawn in the warning colour, and the `…` still shows the cut).
 */
function oneRow(call: ToolCallView, flagText: string, columns: number): Line {
  const identity = call.alias !== undefined || call.tool !== undefined;
  const names = identity ? [sanitizeName(call.alias ?? '?'), sanitizeName(call.tool ?? '?')] : [sanitizeLabel(call.wireName)];
  const avail = columns - (identity ? width('server  · tool ') : width('call '));
  const needed = names.reduce((sum, name) => sum + width(name), 0);
  if (needed + width(flagText) <= avail) return rowOf(identity, names, flagText, '');
  if (needed <= avail) return rowOf(identity, names, '', '');
  // The names have to be cut: the flag and the note stay while the names keep MIN_NAME_ROOM.
  const flag = avail - width(flagText + SHORTENED_NOTE) >= MIN_NAME_ROOM ? flagText : '';
  const note = avail - width(flag + SHORTENED_NOTE) >= MIN_NAME_ROOM ? SHORTENED_NOTE : '';
  const room = Math.max(names.length * 2, avail - width(flag + note));
  const aliasRoom = Math.min(width(names[0]!), Math.max(2, Math.floor(room / 3)));
  const cut = identity ? [elideMiddle(names[0]!, aliasRoom), elideMiddle(names[1]!, room - aliasRoom)] : [elideMiddle(names[0]!, room)];
  return rowOf(identity, cut, flag, note);
}

/** Below this many columns for the names, the flag and the note are left out of the one-row header. */
const MIN_NAME_ROOM = 24;

function rowOf(identity: boolean, names: string[], flag: string, note: string): Line {
  const row: Line = identity
    ? [{ text: 'server ', tone: 'muted' }, { text: names[0]!, tone: 'accent' }, { text: ' · tool ', tone: 'muted' }, { text: names[1]!, tone: 'accent' }]
    : [{ text: 'call ', tone: 'muted' }, { text: names[0]!, tone: 'bold' }];
  if (flag) row.push({ text: flag, tone: 'warn' });
  if (note) row.push({ text: note, tone: 'muted' });
  return row;
}

const REASON_FIELD: AskField = { mode: 'reason', prompt: [{ text: 'Reason: ', tone: 'accent' }], help: 'Enter deny with this reason · Esc back' };
const RULE_FIELD: AskField = { mode: 'rule', prompt: [{ text: 'Rule: ', tone: 'accent' }], help: 'allow|deny project|everywhere tool [arg=glob] · Enter save · Esc back' };

/** Rows of the arguments field at most: the rest scrolls with the cursor. */
const ARGS_ROWS = 10;

/** The arguments field: several lines of JSON under the call, the buttons' place. */
function layoutArguments(input: ApprovalLayoutInput): FrameLayout {
  const inner = innerWidth(input.width);
  const { rows, cursorRow } = editorRows(input.ui.field, inner);
  const room = Math.max(1, Math.min(ARGS_ROWS, Math.floor((input.maxHeight - 4) / 2)));
  const top = Math.max(0, Math.min(cursorRow - room + 1, rows.length - room));
  // A refused edit says why right above the field: the header that also says it may be scrolled away on a short frame.
  const label: Line = input.editProblem
    ? [{ text: truncate(`✗ edit not used: ${sanitizeLabel(input.editProblem)}`, inner), tone: 'error' }]
    : [{ text: truncate('edit the arguments (JSON):', inner), tone: 'accent' }];
  const help: Line = [{ text: truncate('Enter check and show again · Ctrl+J new line · Ctrl+G $EDITOR · Esc back', inner), tone: 'muted' }];
  return layoutFrame({
    parts: input.parts,
    footer: [label, ...rows.slice(top, top + room), help],
    compactFooter: rows.slice(cursorRow, cursorRow + 1),
    maxHeight: input.maxHeight,
    columns: inner,
    scrollTop: input.ui.scrollTop,
    seen: input.ui.seen,
    ...(input.ui.seenRuns ? { seenRuns: input.ui.seenRuns } : {}),
    unreadNote: [{ text: 'read every line first', tone: 'warn' }],
  });
}

export interface ApprovalLayoutInput {
  parts: FrameParts;
  width: number;
  maxHeight: number;
  ui: AskLayoutInput['ui'];
  /** The keys work (the delay passed and everything has been on screen). */
  armed: boolean;
  /** Why the last edit of the arguments was refused (shown above the arguments field). */
  editProblem?: string;
}

export function layoutApproval(input: ApprovalLayoutInput): FrameLayout {
  if (input.ui.mode === 'args') return layoutArguments(input);
  return layoutAsk({ ...input, buttons: APPROVAL_BUTTONS, field: input.ui.mode === 'rule' ? RULE_FIELD : REASON_FIELD });
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
  return <AskFrame title="Run this tool?" tone={call.definitionChanged || call.warnings?.length || trustWarns(call) ? 'warn' : 'accent'} {...rest} />;
}
