import { describe, expect, it } from 'vitest';
import { acceptAnswer, formFromSchema, formProblems, initialInputs } from '../../../src/services/mcp/elicitation-form';
import type { ElicitationForm } from '../../../src/services/mcp/types';
import { makeKey, type KeyEvent } from '../../../src/terminal/keyboard/keys';
import { APPROVAL_DELAY_MS } from '../../../src/ui/keys/frameKeys';
import { committedInputs, formKey, linkKey, newFormUi, type FormKeyContext } from '../../../src/ui/keys/formKeys';
import { statusKeys } from '../../../src/ui/keys/keymap';

// The form and link frames' keys (docs/ARCHITECTURE.md, Security invariants 2 and 9 apply to them
// as to the approval frame): no answer early, from a paste or a typed-ahead burst; the buttons are
// reached only by passing every field; typing edits the focused field.

const read = formFromSchema({
  type: 'object',
  properties: { name: { type: 'string' }, ok: { type: 'boolean' }, hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }, { const: 'h2', title: 'Batman' }] }, tools: { type: 'array', items: { enum: ['a', 'b'] } } },
  required: ['name'],
});
const form = (read as { form: ElicitationForm }).form;
const context: FormKeyContext = { form, shownAt: 0, problems: (inputs) => formProblems(form, inputs), accept: (inputs) => acceptAnswer(form, inputs) };
const late = APPROVAL_DELAY_MS + 1;
const key = (name: Parameters<typeof makeKey>[0], extra: Partial<KeyEvent> = {}) => makeKey(name, { at: late, ...extra });
const type = (text: string) => makeKey('text', { text, at: late });

function run(keys: KeyEvent[], start = newFormUi('e1', form, initialInputs(form))) {
  let ui = start;
  let last: ReturnType<typeof formKey> | undefined;
  for (const k of keys) {
    last = formKey(ui, k, context);
    ui = last.ui;
  }
  return { ui, last: last! };
}

describe('form frame keys', () => {
  it('types into the focused text field, ticks a yes/no, picks choices, and accepts from the buttons', () => {
    const { ui, last } = run([
      type('A'), type('d'), type('a'), key('down'),
      type(' '), key('down'),
      key('right'), type(' '), key('down'),
      key('right'), type(' '), key('down'),
      key('return'),
    ]);
    expect(ui.focus).toBe(4);
    expect(last.answer).toEqual({ action: 'accept', content: { name: 'Ada', ok: true, hero: 'h2', tools: ['b'] } });
  });

  it('does not wrap: ↑ on the first field stays, so the buttons are reached only past every field', () => {
    const { ui } = run([key('up')]);
    expect(ui.focus).toBe(0);
  });

  it('an accept with problems marks every field and moves to the first problem', () => {
    const { ui, last } = run([key('down'), key('down'), key('down'), key('down'), key('return')]);
    expect(last.answer).toBeUndefined();
    expect(last.hint).toMatch(/need a fix/);
    expect(ui.focus).toBe(0);
    expect(ui.checked.every(Boolean)).toBe(true);
  });

  it('takes no answer too early, from a burst, from a paste, or from a key read before the frame', () => {
    const onButtons = run([type('x'), key('down'), key('down'), key('down'), key('down')]).ui;
    for (const early of [makeKey('return', { at: 10 }), makeKey('return', { at: late, burst: true }), makeKey('escape', { at: -5 })]) {
      const result = formKey(onButtons, early, context);
      expect(result.answer, JSON.stringify(early)).toBeUndefined();
      expect(result.hint).toBeDefined();
    }
    expect(formKey(onButtons, key('return'), context).answer).toEqual({ action: 'accept', content: { name: 'x', ok: false } });
  });

  it('a paste goes into a text field (newlines as spaces) and never answers; elsewhere it is refused', () => {
    const pasted = makeKey('paste', { text: 'Grace\nHopper\n', paste: true, at: late });
    const { ui, last } = run([pasted]);
    expect(last.answer).toBeUndefined();
    expect(committedInputs(ui, form)[0]).toBe('Grace Hopper ');
    const onBoolean = run([key('down')]).ui;
    const refused = formKey(onBoolean, pasted, context);
    expect(refused.answer).toBeUndefined();
    expect(refused.hint).toMatch(/pasted text/);
  });

  it('Esc cancels, Decline declines', () => {
    expect(run([key('escape')]).last.answer).toEqual({ action: 'cancel' });
    expect(run([type('x'), key('down'), key('down'), key('down'), key('down'), key('right'), key('return')]).last.answer).toEqual({ action: 'decline' });
  });
});

describe('link frame keys', () => {
  it('o opens, n declines, Esc cancels; a URL that may not be opened is never accepted', () => {
    expect(linkKey(0, type('o'), { shownAt: 0 }).answer).toEqual({ action: 'accept' });
    expect(linkKey(0, type('n'), { shownAt: 0 }).answer).toEqual({ action: 'decline' });
    expect(linkKey(0, key('escape'), { shownAt: 0 }).answer).toEqual({ action: 'cancel' });
    const refused = linkKey(0, type('o'), { shownAt: 0, urlProblem: 'plain http: is allowed only to this machine' });
    expect(refused.answer).toBeUndefined();
    expect(refused.hint).toMatch(/not opened/);
  });

  it('the retry question (after a URL-required error): r runs the call again, o opens nothing, r does nothing elsewhere', () => {
    expect(linkKey(0, type('r'), { shownAt: 0, retry: true }).answer).toEqual({ action: 'accept' });
    expect(linkKey(0, type('o'), { shownAt: 0, retry: true }).answer).toBeUndefined();
    expect(linkKey(0, type('n'), { shownAt: 0, retry: true }).answer).toEqual({ action: 'decline' });
    expect(linkKey(0, type('r'), { shownAt: 0 }).answer).toBeUndefined();
    expect(linkKey(0, makeKey('text', { text: 'r', at: 5 }), { shownAt: 0, retry: true }).answer).toBeUndefined();
  });

  it("the status bar names only the frame's own key: o for a URL, r for the retry question", () => {
    expect(statusKeys('link')).toBe('o open · n decline · Esc cancel');
    expect(statusKeys('link', { retryQuestion: true })).toBe('r retry · n decline · Esc cancel');
  });

  it('takes nothing early or pasted', () => {
    expect(linkKey(0, makeKey('text', { text: 'o', at: 5 }), { shownAt: 0 }).answer).toBeUndefined();
    expect(linkKey(0, makeKey('paste', { text: 'o', paste: true, at: late }), { shownAt: 0 }).answer).toBeUndefined();
  });
});
