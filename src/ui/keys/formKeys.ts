import type { ElicitationAnswer, ElicitationForm, FieldInput } from '../../services/mcp/types';
import type { FormUi } from '../../state/types';
import { EMPTY_EDITOR } from '../../state/slices/ui';
import { applyEditorKey, editorFromText, expandText } from '../input/editor';
import type { KeyEvent } from '../../terminal/keyboard/keys';
import { actionFor } from './keymap';
import { lockReason } from './frameKeys';

/**
 * What a key does in the form and link frames (a server's elicitation): pure, like frameKey, so
 * the rules that protect the user are tested directly. No answer (accept, decline, cancel, open)
 * is taken within APPROVAL_DELAY_MS of the frame appearing, nor from a pasted or typed-ahead key,
 * nor from one read before the frame was shown. The buttons are below the last field and ↑/↓ do
 * not wrap, so reaching them passes every field. Pasted text goes into a text field only.
 */

export const FORM_BUTTONS = ['accept', 'decline', 'cancel'] as const;
export const LINK_BUTTONS = ['accept', 'decline', 'cancel'] as const;

export interface FormKeyContext {
  form: ElicitationForm;
  shownAt: number;
  problems: (inputs: readonly FieldInput[]) => Array<string | undefined>;
  accept: (inputs: readonly FieldInput[]) => ElicitationAnswer | undefined;
}

export interface FormKeyResult {
  ui: FormUi;
  answer?: ElicitationAnswer;
  hint?: string;
  handled: boolean;
}

const isTextField = (form: ElicitationForm, focus: number) => {
  const kind = form.fields[focus]?.kind;
  return kind === 'text' || kind === 'number';
};

/** The form's UI for a new head: the first field focused, the inputs as the runtime prefilled them. */
export function newFormUi(id: string, form: ElicitationForm, initial: readonly FieldInput[]): FormUi {
  const inputs = [...initial];
  return { id, focus: 0, inputs, editor: isTextField(form, 0) ? editorFromText(String(inputs[0] ?? '')) : EMPTY_EDITOR, option: 0, button: 0, checked: form.fields.map(() => false) };
}

/** The inputs with the focused text field's editor written back. */
export function committedInputs(ui: FormUi, form: ElicitationForm): FieldInput[] {
  if (!isTextField(form, ui.focus)) return ui.inputs;
  const inputs = [...ui.inputs];
  inputs[ui.focus] = expandText(ui.editor);
  return inputs;
}

function focusOn(ui: FormUi, form: ElicitationForm, focus: number): FormUi {
  const inputs = committedInputs(ui, form);
  const checked = [...ui.checked];
  if (ui.focus < form.fields.length && focus !== ui.focus) checked[ui.focus] = true;
  const target = Math.max(0, Math.min(form.fields.length, focus));
  const field = form.fields[target];
  const chosen = field?.kind === 'choice' ? field.options.findIndex((option) => (inputs[target] as string[] | undefined)?.includes(option.value)) : -1;
  return { ...ui, focus: target, inputs, checked, editor: isTextField(form, target) ? editorFromText(String(inputs[target] ?? '')) : EMPTY_EDITOR, option: Math.max(0, chosen) };
}

function toggle(ui: FormUi, form: ElicitationForm): FormUi {
  const field = form.fields[ui.focus];
  const inputs = [...ui.inputs];
  if (field?.kind === 'boolean') inputs[ui.focus] = inputs[ui.focus] !== true;
  else if (field?.kind === 'choice') {
    const value = field.options[ui.option]?.value;
    if (value === undefined) return ui;
    const chosen = Array.isArray(inputs[ui.focus]) ? (inputs[ui.focus] as string[]) : [];
    if (field.multiple) inputs[ui.focus] = chosen.includes(value) ? chosen.filter((item) => item !== value) : field.options.map((option) => option.value).filter((item) => item === value || chosen.includes(item));
    else inputs[ui.focus] = chosen.includes(value) && !field.required ? [] : [value];
  } else return ui;
  const checked = [...ui.checked];
  checked[ui.focus] = true;
  return { ...ui, inputs, checked };
}

function press(ui: FormUi, key: KeyEvent, context: FormKeyContext, button: (typeof FORM_BUTTONS)[number]): FormKeyResult {
  const reason = lockReason(key, context);
  if (reason) return { ui, handled: true, hint: reason };
  if (button === 'decline' || button === 'cancel') return { ui, handled: true, answer: { action: button } };
  const inputs = committedInputs(ui, context.form);
  const problems = context.problems(inputs);
  const first = problems.findIndex((problem) => problem !== undefined);
  if (first >= 0) {
    // Every problem is shown now, and the focus goes to the first one.
    const marked = { ...ui, inputs, checked: context.form.fields.map(() => true) };
    return { ui: focusOn({ ...marked, focus: context.form.fields.length }, context.form, first), handled: true, hint: 'some fields need a fix first (marked in the form)' };
  }
  const answer = context.accept(inputs);
  return answer ? { ui, handled: true, answer } : { ui, handled: true, hint: 'the form cannot be sent as it is' };
}

export function formKey(ui: FormUi, key: KeyEvent, context: FormKeyContext): FormKeyResult {
  const { form } = context;
  const onButtons = ui.focus >= form.fields.length;
  const field = form.fields[ui.focus];
  const action = actionFor('form', key);
  const editText = (): FormKeyResult => {
    const result = applyEditorKey(ui.editor, key, { multiline: false });
    if (result.kind === 'edit') return { ui: { ...ui, editor: result.state }, handled: true };
    return { ui, handled: !(key.ctrl || key.meta) };
  };
  switch (action) {
    case 'form.next':
      return { ui: focusOn(ui, form, ui.focus + 1), handled: true };
    case 'form.previous':
      return { ui: focusOn(ui, form, ui.focus - 1), handled: true };
    case 'form.enter':
      if (onButtons) return press(ui, key, context, FORM_BUTTONS[ui.button] ?? 'cancel');
      return { ui: focusOn(ui, form, ui.focus + 1), handled: true };
    case 'form.left':
    case 'form.right': {
      const by = action === 'form.left' ? -1 : 1;
      if (onButtons) return { ui: { ...ui, button: (ui.button + by + FORM_BUTTONS.length) % FORM_BUTTONS.length }, handled: true };
      if (field?.kind === 'choice') return { ui: { ...ui, option: (ui.option + by + field.options.length) % field.options.length }, handled: true };
      if (isTextField(form, ui.focus)) return editText();
      return { ui, handled: true };
    }
    case 'form.toggle':
      if (isTextField(form, ui.focus)) return editText();
      return { ui: toggle(ui, form), handled: true };
    case 'form.cancel':
      return press(ui, key, context, 'cancel');
    case 'form.paste':
    case 'form.type':
      if (isTextField(form, ui.focus)) return editText();
      return { ui, handled: true, ...(key.paste ? { hint: 'pasted text goes into text fields only; it never answers a form' } : {}) };
    case undefined:
      break;
  }
  // Editing keys (Backspace, Ctrl+A, …) in a text field; Ctrl/Alt keys the form does not use go on.
  if (isTextField(form, ui.focus)) return editText();
  return { ui, handled: !(key.ctrl || key.meta) };
}

export interface LinkKeyResult {
  button: number;
  answer?: ElicitationAnswer;
  hint?: string;
  handled: boolean;
}

/**
 * The link frame: open (only an allowed URL), decline, cancel. The question after a URL-required
 * error (`retry`) has retry in place of open: `o` does nothing there, `r` nothing elsewhere.
 */
export function linkKey(button: number, key: KeyEvent, context: { shownAt: number; urlProblem?: string | undefined; retry?: boolean }): LinkKeyResult {
  const answer = (choice: (typeof LINK_BUTTONS)[number]): LinkKeyResult => {
    const reason = lockReason(key, context);
    if (reason) return { button, handled: true, hint: reason };
    if (choice === 'accept' && context.urlProblem && !context.retry) return { button, handled: true, hint: `this URL is not opened: ${context.urlProblem}` };
    return { button, handled: true, answer: { action: choice } };
  };
  switch (actionFor('link', key)) {
    case 'link.open':
      return context.retry ? { button, handled: true } : answer('accept');
    case 'link.retry':
      return context.retry ? answer('accept') : { button, handled: true };
    case 'link.decline':
      return answer('decline');
    case 'link.cancel':
      return answer('cancel');
    case 'frame.buttonPrevious':
      return { button: (button + LINK_BUTTONS.length - 1) % LINK_BUTTONS.length, handled: true };
    case 'frame.buttonNext':
      return { button: (button + 1) % LINK_BUTTONS.length, handled: true };
    case 'frame.press':
      return answer(LINK_BUTTONS[button] ?? 'cancel');
    case 'frame.refusePaste':
      return { button, handled: true, hint: 'pasted text never answers a frame' };
    case 'frame.refuseText':
      return { button, handled: true };
    case undefined:
      break;
  }
  return { button, handled: !(key.ctrl || key.meta) };
}
