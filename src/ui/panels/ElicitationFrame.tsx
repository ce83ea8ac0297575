import type { ElicitationForm, ElicitationRequest, FieldInput, FormField } from '../../services/mcp/types';
import { sanitizeLabel, sanitizeStrict } from '../../services/terminal/sanitize';
import type { FormUi } from '../../state/types';
import type { Theme } from '../../terminal/theme';
import { BoxFrame, FRAME_CHROME_ROWS, innerWidth } from './BoxFrame';
import { fieldLine } from './editorView';
import { buttonRows, type FrameButton } from './frameLayout';
import { truncate, truncateLine, width, wrapLine, wrapWords, type Line } from './text';
import { pushAll } from '../../services/terminal/rows';

/**
 * The frames a server's elicitation opens (README.md, "What servers may ask"): a form built from
 * the requested schema, or a URL to open. Pure: props in, rows out. Every text the server sent
 * (its message, titles, descriptions, choices, defaults, the URL) is sanitized here.
 */

/** The form's buttons, in the order the form keys move through them (formKeys.ts FORM_BUTTONS). */
export const FORM_BUTTON_LABELS = ['Accept', 'Decline', 'Cancel'] as const;
/** The link frame's buttons (formKeys.ts LINK_BUTTONS); letters as in the key table's `link` context. */
export const LINK_FRAME_BUTTONS: FrameButton[] = [
  { key: 'o', label: 'Open in browser', short: 'open' },
  { key: 'n', label: 'Decline', short: 'decline' },
  { key: 'Esc', label: 'Cancel', short: 'cancel' },
];

/** The question after a URL-required error: the call runs once more (formKeys.ts linkKey with `retry`). */
export const RETRY_FRAME_BUTTONS: FrameButton[] = [
  { key: 'r', label: 'Retry now', short: 'retry' },
  { key: 'n', label: "Don't retry", short: 'no' },
  { key: 'Esc', label: 'Cancel', short: 'cancel' },
];

const MAX_MESSAGE_ROWS = 6;
const FORM_HELP = '↑↓ field · ←→ choice · Space tick · Enter next · Esc cancel';

export interface ElicitationLayout {
  rows: Line[];
  /** Including the border. */
  height: number;
  /** Allowing (accept, open) cannot be offered: something the user must see does not fit. */
  locked?: string;
}

function header(request: ElicitationRequest, columns: number): Line[] {
  const what = request.mode === 'form' ? ' asks for input' : request.retry ? ' failed its call until a page is done' : ' asks you to open a URL';
  const rows = wrapLine([{ text: 'server ', tone: 'muted' }, { text: sanitizeLabel(request.alias), tone: 'accent' }, { text: what, tone: 'muted' }], columns);
  const message = wrapWords(sanitizeStrict(request.message.trim()), columns, 'bold').filter((line) => line.some((seg) => seg.text !== ''));
  if (message.length > MAX_MESSAGE_ROWS) {
    pushAll(rows, message.slice(0, MAX_MESSAGE_ROWS - 1));
    rows.push([{ text: truncate(`… ${message.length - MAX_MESSAGE_ROWS + 1} more lines`, columns), tone: 'muted' }]);
  } else pushAll(rows, message);
  return rows;
}

function placeholder(field: FormField): string {
  if (field.kind === 'number') {
    const range = field.minimum !== undefined || field.maximum !== undefined ? ` ${field.minimum ?? '…'}–${field.maximum ?? '…'}` : '';
    return `${field.integer ? 'whole number' : 'number'}${range}`;
  }
  if (field.kind !== 'text') return '';
  switch (field.format) {
    case 'email':
      return 'name@example.com';
    case 'uri':
      return 'https://…';
    case 'date':
      return 'YYYY-MM-DD';
    case 'date-time':
      return 'YYYY-MM-DDTHH:MM:SSZ';
  }
  return field.maxLength !== undefined ? `up to ${field.maxLength} characters` : '';
}

function valueLine(field: FormField, input: FieldInput | undefined, focused: boolean, ui: FormUi, columns: number): Line {
  switch (field.kind) {
    case 'text':
    case 'number': {
      if (focused) return fieldLine(ui.editor, columns);
      const text = typeof input === 'string' ? input : '';
      return text ? [{ text: truncate(sanitizeLabel(text), columns) }] : [{ text: truncate(placeholder(field), columns), tone: 'muted' }];
    }
    case 'boolean':
      return [{ text: input === true ? '[x] yes' : '[ ] no', tone: focused ? 'selected' : undefined }];
    case 'choice': {
      const chosen = Array.isArray(input) ? input : [];
      const line: Line = [];
      field.options.forEach((option, index) => {
        const mark = field.multiple ? (chosen.includes(option.value) ? '[x]' : '[ ]') : chosen.includes(option.value) ? '(•)' : '( )';
        if (index > 0) line.push({ text: '  ' });
        line.push({ text: `${mark} ${sanitizeLabel(option.label)}`, tone: focused && index === ui.option ? 'selected' : chosen.includes(option.value) ? 'bold' : undefined });
      });
      return line;
    }
  }
}

/** The rows of one field: its title and value, its description, its problem. */
function fieldRows(field: FormField, index: number, ui: FormUi, problem: string | undefined, columns: number): Line[] {
  const focused = ui.focus === index;
  const title: Line = [{ text: focused ? '› ' : '  ', tone: 'accent' }, { text: sanitizeLabel(field.title), tone: 'bold' }, ...(field.required ? [{ text: ' *', tone: 'warn' as const }] : []), { text: ': ' }];
  const titleWidth = title.reduce((sum, seg) => sum + width(seg.text), 0);
  const rows: Line[] = [];
  if (field.kind === 'choice') {
    rows.push(truncateLine(title, columns));
    pushAll(rows, wrapLine([{ text: '    ' }, ...valueLine(field, ui.inputs[index], focused, ui, columns - 4)], columns));
  } else if (titleWidth + 12 <= columns) {
    rows.push([...title, ...valueLine(field, ui.inputs[index], focused, ui, columns - titleWidth)]);
  } else {
    rows.push(truncateLine(title, columns), [{ text: '    ' }, ...valueLine(field, ui.inputs[index], focused, ui, columns - 4)]);
  }
  const description = field.description?.split('\n').find((line) => line.trim() !== '');
  if (description) rows.push([{ text: truncate(`    ${sanitizeLabel(description.trim())}`, columns), tone: 'muted' }]);
  if (problem) rows.push([{ text: truncate(`    ▲ ${problem}`, columns), tone: 'error' }]);
  return rows;
}

function formButtons(ui: FormUi, fields: number, armed: boolean, columns: number): Line {
  const onButtons = ui.focus >= fields;
  const line: Line = [];
  FORM_BUTTON_LABELS.forEach((label, index) => {
    if (index > 0) line.push({ text: ' ' });
    line.push({ text: `[${label}]`, tone: !armed ? 'muted' : onButtons && index === ui.button ? 'selected' : undefined });
  });
  return truncateLine(line, columns);
}

export interface FormLayoutInput {
  request: ElicitationRequest;
  form: ElicitationForm;
  ui: FormUi;
  /** The problem to show under each field (only the fields already checked). */
  problems: ReadonlyArray<string | undefined>;
  width: number;
  maxHeight: number;
  armed: boolean;
}

export function layoutForm({ request, form, ui, problems, width: frameWidth, maxHeight, armed }: FormLayoutInput): ElicitationLayout {
  const columns = innerWidth(frameWidth);
  const top = header(request, columns);
  const footer: Line[] = [formButtons(ui, form.fields.length, armed, columns), [{ text: truncate(FORM_HELP, columns), tone: 'muted' }]];
  const body: Line[] = [];
  let focusStart = 0;
  let focusEnd = 0;
  form.fields.forEach((field, index) => {
    if (index === ui.focus) focusStart = body.length;
    pushAll(body, fieldRows(field, index, ui, problems[index], columns));
    if (index === ui.focus) focusEnd = body.length;
  });
  if (ui.focus >= form.fields.length) focusStart = focusEnd = body.length;
  const room = Math.max(1, maxHeight - FRAME_CHROME_ROWS - footer.length);
  // The header gives way first (down to its first row), then the fields scroll with the focus.
  const headerRows = top.length + body.length <= room ? top : top.slice(0, Math.max(1, Math.min(top.length, room - Math.min(body.length, focusEnd - focusStart + 2))));
  const bodyRoom = Math.max(1, room - headerRows.length);
  let start = 0;
  if (body.length > bodyRoom) {
    start = Math.min(Math.max(0, focusEnd - bodyRoom), focusStart);
    start = Math.max(0, Math.min(start, body.length - bodyRoom));
  }
  const shown = body.slice(start, start + bodyRoom);
  if (start > 0 && shown.length > 0) shown[0] = [{ text: truncate(`  … ${start} more rows above`, columns), tone: 'muted' }];
  const below = body.length - (start + bodyRoom);
  if (below > 0 && shown.length > 1) shown[shown.length - 1] = [{ text: truncate(`  … ${below} more rows below`, columns), tone: 'muted' }];
  const rows = [...headerRows, ...shown, ...footer];
  return { rows, height: rows.length + FRAME_CHROME_ROWS };
}

/** The URL as it will be opened, wrapped, with the host emphasised: the part that says where it goes. */
function urlRows(url: string, columns: number): Line[] {
  const clean = sanitizeLabel(url);
  const match = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/i.exec(clean);
  const line: Line = match ? [{ text: match[1]! }, { text: match[2]!, tone: 'accent' }, { text: match[3]! }] : [{ text: clean }];
  return wrapLine(line, columns).map((row) => row.map((seg) => (seg.tone === 'accent' ? { ...seg, tone: 'bold' as const } : seg)));
}

export interface LinkLayoutInput {
  request: Extract<ElicitationRequest, { mode: 'url' }>;
  urlProblem?: string | undefined;
  button: number;
  width: number;
  maxHeight: number;
  armed: boolean;
}

export function layoutLink({ request, urlProblem, button, width: frameWidth, maxHeight, armed }: LinkLayoutInput): ElicitationLayout {
  const columns = innerWidth(frameWidth);
  const top = header(request, columns);
  const url = urlRows(request.url, columns);
  const note: Line[] = request.retry
    ? wrapWords(`Press r once you are done at the page to run ${sanitizeLabel(request.alias)}__${sanitizeLabel(request.retry.tool)} once more; it also runs when the server says the page is done. Nothing is opened.`, columns, 'muted')
    : urlProblem
      ? wrapWords(`▲ This URL is not opened: ${urlProblem}.`, columns, 'warn')
      : request.fromError
        ? wrapWords('The tool call failed until this is done; once you have opened it, you are asked whether to run the call again.', columns, 'muted')
        : [];
  const footer = buttonRows(request.retry ? RETRY_FRAME_BUTTONS : LINK_FRAME_BUTTONS, button, armed, columns);
  const room = Math.max(1, maxHeight - FRAME_CHROME_ROWS);
  // The URL is what the user agrees to: the message gives way before it; a URL that does not fit locks opening.
  const fixed = url.length + note.length + footer.length;
  const headerRows = top.slice(0, Math.max(1, room - fixed));
  const rows = [...headerRows, ...url, ...note, ...footer].slice(0, room);
  const locked = fixed + 1 > room ? 'the URL does not fit on screen: make the terminal larger to open it' : undefined;
  return { rows, height: rows.length + FRAME_CHROME_ROWS, ...(locked ? { locked } : {}) };
}

export interface ElicitationFrameProps {
  title: string;
  layout: ElicitationLayout;
  position: number;
  count: number;
  width: number;
  theme: Theme;
  tone?: 'accent' | 'warn';
}

/** The inline frame of a server's elicitation. */
export function ElicitationFrame({ title, layout, position, count, width: frameWidth, theme, tone = 'accent' }: ElicitationFrameProps) {
  return (
    <BoxFrame
      width={frameWidth}
      title={[{ text: title, tone: 'bold' }]}
      badge={count > 1 ? [{ text: `${position} of ${count}`, tone: 'accent' }] : undefined}
      lines={layout.rows}
      theme={theme}
      tone={tone}
    />
  );
}
