import type { KeyEvent } from '../../terminal/keyboard/keys';

/**
 * Every key the UI understands, in one table, and the table is what the handlers dispatch on:
 * each entry binds key specs to action ids, handlers ask `actionFor(context, key)` and act on the
 * id, so a key works exactly when it is listed here. `:help` prints the table (formatKeymap), the
 * status bar shows the short forms that matter where the focus is, and the README's key tables are
 * checked against it (test/unit/readme.test.ts).
 *
 * A key spec is `[ctrl+][alt+][shift+]<name>`: a key name from keys.ts (`up`, `return`, `pageup`…),
 * one printable character (`y`), `other` (any printable text no other spec of the context takes)
 * or `paste`. Ctrl and Alt must match exactly; Shift is only looked at when the spec names it.
 * Whether a pasted or typed-ahead key may act is the handler's business (frames never let it
 * answer), not the table's.
 */

export type KeyContext = 'everywhere' | 'input' | 'edit' | 'sidebar' | 'chat' | 'approval' | 'command' | 'form' | 'link' | 'sampling' | 'line' | 'details' | 'prompt' | 'picker';

export interface KeyBinding {
  keys: string;
  where: KeyContext;
  does: string;
  /** Shown in the status bar for this context (kept short). */
  short?: string;
  /** Key spec → action id. Every key named here must be named in `keys` or `does`. */
  bind: Readonly<Record<string, string>>;
}

export const KEYMAP = [
  { where: 'everywhere', keys: 'Ctrl+C', does: 'cancel the running answer, tool or command; else clear the input; else quit when pressed twice within a second', bind: { 'ctrl+c': 'app.interrupt' } },
  { where: 'everywhere', keys: 'Ctrl+D', does: 'quit', short: 'Ctrl+D quit', bind: { 'ctrl+d': 'app.quit' } },
  { where: 'everywhere', keys: 'Ctrl+L', does: 'redraw the screen', bind: { 'ctrl+l': 'app.redraw' } },
  { where: 'everywhere', keys: 'Ctrl+S', does: 'show or hide the MCP sidebar (it hides itself on narrow terminals)', bind: { 'ctrl+s': 'sidebar.toggle' } },
  { where: 'everywhere', keys: 'Tab / Shift+Tab', does: 'move focus: input, sidebar, chat', short: 'Tab focus', bind: { tab: 'focus.next', 'shift+tab': 'focus.previous' } },
  { where: 'everywhere', keys: 'PgUp / PgDn', does: 'scroll the transcript a page (new output follows again at the bottom)', bind: { pageup: 'transcript.pageUp', pagedown: 'transcript.pageDown' } },
  { where: 'everywhere', keys: 'Ctrl+Home / Ctrl+End', does: 'top / bottom of the transcript (except in the sidebar)', bind: { 'ctrl+home': 'transcript.top', 'ctrl+end': 'transcript.bottom' } },
  { where: 'everywhere', keys: 'paste', does: 'from the sidebar or the chat: goes to the input, and the focus moves there', bind: { paste: 'focus.pasteIntoInput' } },

  { where: 'input', keys: 'Enter', does: 'send the message (or run the :command / !shell command)', short: 'Enter send', bind: { return: 'input.send' } },
  { where: 'input', keys: 'Ctrl+J / Alt+Enter', does: 'insert a newline (also Shift+Enter / Ctrl+Enter where the terminal tells them apart)', short: 'Ctrl+J newline', bind: { 'ctrl+j': 'input.newline', 'alt+return': 'input.newline', 'shift+return': 'input.newline', 'ctrl+return': 'input.newline' } },
  { where: 'input', keys: 'Esc', does: 'cancel the running answer or tool; a message that got no answer yet, and any queued behind it, go back into the input; twice on an empty input: pick an earlier message to go back to (:rewind)', short: 'Esc cancel', bind: { escape: 'input.cancel' } },
  { where: 'input', keys: '↑ / ↓', does: 'previous / next message from the input history (on the first / last line)', bind: { up: 'input.historyPrevious', down: 'input.historyNext' } },
  { where: 'input', keys: 'Tab', does: 'complete a :command or /command, model name or server alias (when the input starts with : or /), or an @file path', bind: { tab: 'input.complete' } },
  { where: 'input', keys: 'Ctrl+G / Ctrl+X Ctrl+E', does: 'edit the message in $VISUAL / $EDITOR; what you save becomes the input', bind: { 'ctrl+g': 'input.externalEditor', 'ctrl+x': 'input.chordPrefix', 'ctrl+e': 'input.chordEditor' } },
  { where: 'input', keys: 'Home / End', does: 'with an empty input: top / bottom of the transcript; else start / end of the line', bind: { home: 'transcript.top', end: 'transcript.bottom' } },

  { where: 'edit', keys: '← / →', does: 'back / forward one character (also Ctrl+B / Ctrl+F)', bind: { left: 'edit.charLeft', right: 'edit.charRight', 'ctrl+b': 'edit.charLeft', 'ctrl+f': 'edit.charRight' } },
  { where: 'edit', keys: '↑ / ↓', does: 'up / down a line in a message of several lines', bind: { up: 'edit.lineUp', down: 'edit.lineDown' } },
  { where: 'edit', keys: 'Ctrl+A / Ctrl+E', does: 'start / end of the line (also Home / End)', bind: { 'ctrl+a': 'edit.lineStart', 'ctrl+e': 'edit.lineEnd', home: 'edit.lineStart', end: 'edit.lineEnd' } },
  { where: 'edit', keys: 'Backspace / Delete', does: 'delete the character before / under the cursor (also Ctrl+H)', bind: { backspace: 'edit.deleteBack', delete: 'edit.deleteForward', 'ctrl+h': 'edit.deleteBack' } },
  { where: 'edit', keys: 'Ctrl+U / Ctrl+K', does: 'delete to the start / end of the line', bind: { 'ctrl+u': 'edit.killLineStart', 'ctrl+k': 'edit.killLineEnd' } },
  { where: 'edit', keys: 'Ctrl+W / Alt+Backspace', does: 'delete the word before the cursor (Ctrl+W: back to the last space; also Ctrl+Backspace)', bind: { 'ctrl+w': 'edit.killToSpace', 'alt+backspace': 'edit.killWordBack', 'ctrl+backspace': 'edit.killWordBack' } },
  { where: 'edit', keys: 'Alt+D', does: 'delete the word after the cursor', bind: { 'alt+d': 'edit.killWordForward' } },
  { where: 'edit', keys: 'Alt+B / Alt+F', does: 'back / forward one word (also Ctrl+← / Ctrl+→, Alt+← / Alt+→)', bind: { 'alt+b': 'edit.wordLeft', 'alt+f': 'edit.wordRight', 'ctrl+left': 'edit.wordLeft', 'ctrl+right': 'edit.wordRight', 'alt+left': 'edit.wordLeft', 'alt+right': 'edit.wordRight' } },
  { where: 'edit', keys: 'Ctrl+Y', does: 'paste back what Ctrl+U/K/W deleted', bind: { 'ctrl+y': 'edit.yank' } },
  { where: 'edit', keys: 'paste', does: 'inserted as text, never sent by its newlines; large pastes show as [pasted N lines] and are sent whole', bind: { paste: 'edit.paste' } },
  { where: 'edit', keys: 'other letters', does: 'typed at the cursor (Space too)', bind: { other: 'edit.type', space: 'edit.space' } },

  { where: 'approval', keys: 'y', does: 'allow this call once', short: 'y once', bind: { y: 'approval.allowOnce' } },
  { where: 'approval', keys: 't', does: 'allow, and always allow this tool for the session', short: 't tool', bind: { t: 'approval.allowTool' } },
  { where: 'approval', keys: 's', does: 'allow, and always allow every tool of this server for the session', short: 's server', bind: { s: 'approval.allowServer' } },
  { where: 'approval', keys: 'n / Esc', does: 'deny', short: 'n deny', bind: { n: 'frame.no', escape: 'frame.no' } },
  { where: 'approval', keys: 'e', does: 'deny with a reason the model receives', short: 'e reason', bind: { e: 'frame.edit' } },
  { where: 'approval', keys: 'a', does: "edit the arguments as JSON: Enter checks them against the tool's input schema and shows the edited call again (Ctrl+J new line, Ctrl+G in $VISUAL / $EDITOR, Esc back)", short: 'a edit', bind: { a: 'approval.editArguments' } },
  { where: 'approval', keys: 'r', does: 'save a rule for this project or everywhere: allow or deny, one tool or alias__*, narrowed by name=glob arguments; the call is then decided by the rules again', short: 'r rule', bind: { r: 'approval.saveRule' } },
  { where: 'approval', keys: '← / → and Enter', does: 'choose a button and press it (Tab / Shift+Tab choose too); a new frame starts on deny, so Enter alone never allows', bind: { left: 'frame.buttonPrevious', right: 'frame.buttonNext', tab: 'frame.buttonNext', 'shift+tab': 'frame.buttonPrevious', return: 'frame.press' } },
  { where: 'approval', keys: '↑ / ↓ PgUp PgDn', does: 'scroll long arguments (the allow keys work once everything has been on screen; Home / End too)', short: '↑↓ scroll', bind: { up: 'frame.scrollUp', down: 'frame.scrollDown', pageup: 'frame.pageUp', pagedown: 'frame.pageDown', home: 'frame.top', end: 'frame.bottom' } },
  { where: 'approval', keys: 'paste / other letters', does: 'answer nothing: a pasted, typed-ahead or early key never answers a frame; typing while keys keep arriving (every key restarts the 400 ms guard) goes to the input and stays there', bind: { paste: 'frame.refusePaste', other: 'frame.refuseText' } },

  { where: 'command', keys: 'y', does: 'run the proposed command', short: 'y run', bind: { y: 'command.run' } },
  { where: 'command', keys: 'e', does: 'edit the command, then Enter runs it', short: 'e edit', bind: { e: 'frame.edit' } },
  { where: 'command', keys: 'n / Esc', does: 'skip it', short: 'n skip', bind: { n: 'frame.no', escape: 'frame.no' } },
  { where: 'command', keys: '← / → and Enter', does: 'choose a button and press it (Tab / Shift+Tab choose too); a new frame starts on skip, so Enter alone never runs it', bind: { left: 'frame.buttonPrevious', right: 'frame.buttonNext', tab: 'frame.buttonNext', 'shift+tab': 'frame.buttonPrevious', return: 'frame.press' } },
  { where: 'command', keys: '↑ / ↓ PgUp PgDn', does: 'scroll a long command (it runs once everything has been on screen; Home / End too)', bind: { up: 'frame.scrollUp', down: 'frame.scrollDown', pageup: 'frame.pageUp', pagedown: 'frame.pageDown', home: 'frame.top', end: 'frame.bottom' } },
  { where: 'command', keys: 'paste / other letters', does: 'answer nothing: a pasted, typed-ahead or early key never answers a frame; typing while keys keep arriving (every key restarts the 400 ms guard) goes to the input and stays there', bind: { paste: 'frame.refusePaste', other: 'frame.refuseText' } },

  { where: 'form', keys: '↑ / ↓', does: 'previous / next field; below the last field are the buttons (Tab / Shift+Tab too)', short: '↑↓ field', bind: { up: 'form.previous', down: 'form.next', tab: 'form.next', 'shift+tab': 'form.previous' } },
  { where: 'form', keys: 'Enter', does: 'next field; on the buttons, press the chosen one (Accept sends the form once every field is valid)', short: 'Enter next', bind: { return: 'form.enter' } },
  { where: 'form', keys: '← / →', does: 'move between the choices of a choice field, or between the buttons; in a text field, the cursor', bind: { left: 'form.left', right: 'form.right' } },
  { where: 'form', keys: 'Space', does: 'tick or untick a yes/no field or the choice under the cursor (in a text field: a space)', short: 'Space tick', bind: { ' ': 'form.toggle' } },
  { where: 'form', keys: 'Esc', does: 'cancel: the server is told you dismissed the form', short: 'Esc cancel', bind: { escape: 'form.cancel' } },
  { where: 'form', keys: 'paste / other letters', does: 'typed or pasted into a text field (editing keys as in the input); they never press a button', bind: { paste: 'form.paste', other: 'form.type' } },

  { where: 'link', keys: 'o', does: 'open the URL in the browser (only https:, or http: to this machine)', short: 'o open', bind: { o: 'link.open' } },
  { where: 'link', keys: 'r', does: 'after a URL-required error: run the failed call once more (you are done at the page)', short: 'r retry', bind: { r: 'link.retry' } },
  { where: 'link', keys: 'n', does: 'decline: the server is told you will not open it', short: 'n decline', bind: { n: 'link.decline' } },
  { where: 'link', keys: 'Esc', does: 'cancel: dismiss the request', short: 'Esc cancel', bind: { escape: 'link.cancel' } },
  { where: 'link', keys: '← / → and Enter', does: 'choose a button and press it (Tab / Shift+Tab choose too)', bind: { left: 'frame.buttonPrevious', right: 'frame.buttonNext', tab: 'frame.buttonNext', 'shift+tab': 'frame.buttonPrevious', return: 'frame.press' } },
  { where: 'link', keys: 'paste / other letters', does: 'answer nothing: a pasted, typed-ahead or early key never answers a frame', bind: { paste: 'frame.refusePaste', other: 'frame.refuseText' } },

  { where: 'sampling', keys: 'y', does: "send a server's sampling request to the model; then return the model's answer to the server", short: 'y approve', bind: { y: 'sampling.approve' } },
  { where: 'sampling', keys: 'e', does: 'edit the request (system prompt, max tokens, messages) or the answer: Enter uses the edit, Ctrl+J starts a new line, Esc goes back', short: 'e edit', bind: { e: 'frame.edit' } },
  { where: 'sampling', keys: 'Ctrl+G', does: 'edit the request or the answer in $VISUAL / $EDITOR; what you save comes back in the edit field, where Enter uses it', bind: { 'ctrl+g': 'sampling.externalEditor' } },
  { where: 'sampling', keys: 'n / Esc', does: 'deny (the server is told the user rejected it); while the model answers, cancel', short: 'n deny', bind: { n: 'frame.no', escape: 'frame.no' } },
  { where: 'sampling', keys: '← / → and Enter', does: 'choose a button and press it (Tab / Shift+Tab choose too)', bind: { left: 'frame.buttonPrevious', right: 'frame.buttonNext', tab: 'frame.buttonNext', 'shift+tab': 'frame.buttonPrevious', return: 'frame.press' } },
  { where: 'sampling', keys: '↑ / ↓ PgUp PgDn', does: 'scroll the request or the answer (approving needs every line on screen once; Home / End too)', short: '↑↓ scroll', bind: { up: 'frame.scrollUp', down: 'frame.scrollDown', pageup: 'frame.pageUp', pagedown: 'frame.pageDown', home: 'frame.top', end: 'frame.bottom' } },
  { where: 'sampling', keys: 'paste / other letters', does: 'answer nothing: a pasted, typed-ahead or early key never answers a frame', bind: { paste: 'frame.refusePaste', other: 'frame.refuseText' } },

  { where: 'line', keys: 'Enter', does: 'deny with the reason typed / run the edited command (also Ctrl+J)', short: 'Enter confirm', bind: { return: 'line.confirm', 'ctrl+j': 'line.confirm' } },
  { where: 'line', keys: 'Esc', does: 'back to the buttons', short: 'Esc back', bind: { escape: 'line.back' } },
  { where: 'line', keys: 'Ctrl+G', does: "the tool call's arguments field: edit them in $VISUAL / $EDITOR; what you save comes back into the field", bind: { 'ctrl+g': 'line.externalEditor' } },

  { where: 'sidebar', keys: '↑ / ↓', does: 'select a server or tool', short: '↑↓ select', bind: { up: 'sidebar.up', down: 'sidebar.down' } },
  { where: 'sidebar', keys: 'Home / End', does: 'select the first / last row', bind: { home: 'sidebar.first', end: 'sidebar.last' } },
  { where: 'sidebar', keys: 'Enter', does: "expand a server's tools and resources (a server that is not ready shows its error and stderr); on a tool, show its description and input schema; on a resource (`◇`, `●` when it changed), show it in the transcript", short: 'Enter open', bind: { return: 'sidebar.open' } },
  { where: 'sidebar', keys: '→ / ←', does: "expand / fold a server's tools (→ on a tool shows its details)", bind: { right: 'sidebar.expand', left: 'sidebar.fold' } },
  { where: 'sidebar', keys: 'i', does: "show the selected server's details: state, error, the last lines of its stderr", short: 'i info', bind: { i: 'sidebar.info' } },
  { where: 'sidebar', keys: 'r', does: 'reconnect the selected server', short: 'r reconnect', bind: { r: 'sidebar.reconnect' } },
  { where: 'sidebar', keys: 'o', does: "open the selected server's sign-in address in the browser (shown in full in the sidebar first; only https, or http to this machine)", bind: { o: 'sidebar.openSignIn' } },
  { where: 'sidebar', keys: 'd', does: 'disconnect the selected server', short: 'd disconnect', bind: { d: 'sidebar.disconnect' } },
  { where: 'sidebar', keys: 'c', does: 'connect a server by URL (and an optional alias)', short: 'c connect', bind: { c: 'sidebar.connect' } },
  { where: 'sidebar', keys: 'p', does: 'show every approval rule in force and the tools it matches (:permissions)', short: 'p rules', bind: { p: 'sidebar.permissions' } },
  { where: 'sidebar', keys: 'Space / t', does: 'switch the selected tool, or every tool of the selected server, off or on for the model (the server stays connected; remembered for this directory)', short: 'Space on/off', bind: { ' ': 'sidebar.toggleTool', t: 'sidebar.toggleTool' } },
  { where: 'sidebar', keys: 'Esc', does: 'back to the input', bind: { escape: 'focus.input' } },
  { where: 'sidebar', keys: 'other letters', does: 'typed text goes to the input, and the focus moves there', bind: { other: 'focus.typeIntoInput' } },

  { where: 'details', keys: '↑ / ↓ PgUp PgDn Home End', does: "scroll the tool's description and schema, or the server's details", short: '↑↓ scroll', bind: { up: 'details.scrollUp', down: 'details.scrollDown', pageup: 'details.pageUp', pagedown: 'details.pageDown', home: 'details.top', end: 'details.bottom' } },
  { where: 'details', keys: 'Esc / Enter / q', does: 'close', short: 'Esc close', bind: { escape: 'details.close', return: 'details.close', q: 'details.close' } },
  { where: 'details', keys: 'Tab / Shift+Tab', does: 'close, and move the focus on', bind: { tab: 'details.leave', 'shift+tab': 'details.leave' } },

  { where: 'prompt', keys: 'Enter', does: 'next field / connect (also Ctrl+J)', short: 'Enter next', bind: { return: 'prompt.submit', 'ctrl+j': 'prompt.submit' } },
  { where: 'prompt', keys: 'Tab', does: 'the other field (Shift+Tab too)', bind: { tab: 'prompt.switchField', 'shift+tab': 'prompt.switchField' } },
  { where: 'prompt', keys: 'Esc', does: 'cancel', short: 'Esc cancel', bind: { escape: 'prompt.cancel' } },

  { where: 'picker', keys: '↑ / ↓', does: 'select a row (PgUp / PgDn a page)', short: '↑↓ select', bind: { up: 'picker.up', down: 'picker.down', pageup: 'picker.pageUp', pagedown: 'picker.pageDown' } },
  { where: 'picker', keys: 'Enter', does: 'choose the selected row', short: 'Enter choose', bind: { return: 'picker.choose' } },
  { where: 'picker', keys: 'Esc', does: 'close without choosing', short: 'Esc close', bind: { escape: 'picker.close' } },
  { where: 'picker', keys: 'other letters', does: 'filter the list (the editing keys work on the filter)', bind: { other: 'picker.filter' } },

  { where: 'chat', keys: '↑ / ↓', does: 'scroll the transcript a line', short: '↑↓ scroll', bind: { up: 'chat.lineUp', down: 'chat.lineDown' } },
  { where: 'chat', keys: 'PgUp / PgDn', does: 'scroll a page', bind: { pageup: 'transcript.pageUp', pagedown: 'transcript.pageDown' } },
  { where: 'chat', keys: 'Home / End', does: 'top / bottom (End follows new output again)', short: 'Home/End', bind: { home: 'transcript.top', end: 'transcript.bottom' } },
  { where: 'chat', keys: 'r', does: 'fold or unfold reasoning', short: 'r reasoning', bind: { r: 'chat.toggleReasoning' } },
  { where: 'chat', keys: 'x', does: 'expand or fold every tool result and long message', short: 'x expand', bind: { x: 'chat.toggleExpanded' } },
  { where: 'chat', keys: 'Esc', does: 'back to the input', bind: { escape: 'focus.input' } },
  { where: 'chat', keys: 'other letters', does: 'typed text goes to the input, and the focus moves there', bind: { other: 'focus.typeIntoInput' } },
] as const satisfies readonly KeyBinding[];

type Values<T> = T extends unknown ? T[keyof T] : never;
type Entry = (typeof KEYMAP)[number];

/** Every action the table names. */
export type KeyAction = Values<Entry['bind']>;
/** The actions of one context. */
export type ContextAction<C extends KeyContext> = Values<Extract<Entry, { where: C }>['bind']>;

interface KeySpec {
  ctrl: boolean;
  meta: boolean;
  /** Undefined: Shift does not matter. */
  shift?: boolean;
  /** A key name, one character, `other` or `paste`. */
  base: string;
}

export function parseSpec(spec: string): KeySpec {
  const parts = spec.split('+');
  // `+` itself as a key would be the last part after an empty one.
  const base = parts.pop()!;
  const mods = new Set(parts);
  for (const mod of mods) if (mod !== 'ctrl' && mod !== 'alt' && mod !== 'shift') throw new Error(`unknown modifier ${mod} in key spec ${spec}`);
  return { ctrl: mods.has('ctrl'), meta: mods.has('alt'), ...(mods.has('shift') ? { shift: true } : {}), base };
}

const isCharSpec = (base: string) => [...base].length === 1;

function specMatches(spec: KeySpec, key: KeyEvent): boolean {
  if (spec.ctrl !== key.ctrl || spec.meta !== key.meta) return false;
  if (spec.shift !== undefined && spec.shift !== key.shift) return false;
  if (spec.base === 'paste') return key.name === 'paste';
  if (spec.base === 'other') return key.name === 'text';
  if (isCharSpec(spec.base)) {
    // With Ctrl or Alt a letter arrives as `char:<letter>`; alone it is typed text.
    return spec.ctrl || spec.meta ? key.name === `char:${spec.base}` : key.name === 'text' && key.text === spec.base;
  }
  return key.name === spec.base;
}

/** How specific a spec is: the most specific match wins (Shift named > a key > `other`). */
function rank(spec: KeySpec): number {
  if (spec.base === 'other') return 0;
  return spec.shift ? 2 : 1;
}

type Compiled = { spec: KeySpec; action: KeyAction }[];
const compiled = new Map<KeyContext, Compiled>();

function bindingsOf(context: KeyContext): Compiled {
  let list = compiled.get(context);
  if (!list) {
    list = [];
    for (const binding of KEYMAP as readonly KeyBinding[]) {
      if (binding.where !== context) continue;
      for (const [spec, action] of Object.entries(binding.bind)) list.push({ spec: parseSpec(spec), action: action as KeyAction });
    }
    list.sort((a, b) => rank(b.spec) - rank(a.spec));
    compiled.set(context, list);
  }
  return list;
}

/** The action `key` has in `context`, from the table; undefined when the table gives it none there. */
export function actionFor<C extends KeyContext>(context: C, key: KeyEvent): ContextAction<C> | undefined {
  for (const { spec, action } of bindingsOf(context)) if (specMatches(spec, key)) return action as ContextAction<C>;
  return undefined;
}

/** The letter that gives `action` in `context` (frame buttons show it), from the table. */
export function letterFor<C extends KeyContext>(context: C, action: ContextAction<C>): string {
  for (const { spec, action: bound } of bindingsOf(context)) {
    if (bound === action && !spec.ctrl && !spec.meta && isCharSpec(spec.base)) return spec.base;
  }
  throw new Error(`the key table binds no letter to ${action} in ${context}`);
}

/**
 * What each action does in one handler. A handler returns true when it took the key, false to
 * pass it on to the handlers below it.
 */
export type ActionHandlers<A extends string, Args extends unknown[]> = { readonly [K in A]?: (...args: Args) => boolean };

/** Runs the handler for `action`, if this set has one; false (pass the key on) otherwise. */
export function runAction<A extends string, Args extends unknown[]>(handlers: ActionHandlers<A, Args>, action: A | undefined, ...args: Args): boolean {
  if (action === undefined) return false;
  const handler = handlers[action];
  return handler ? handler(...args) : false;
}

const CONTEXT_TITLES: Record<KeyContext, string> = {
  everywhere: 'Everywhere',
  input: 'Input',
  edit: 'Editing (the input, the reason and command lines, the connect prompt, a picker\'s filter)',
  approval: 'Tool call frame',
  command: 'Command frame',
  form: 'Form frame (a server asks for input)',
  link: 'Link frame (a server asks you to open a URL)',
  sampling: 'Sampling frame',
  line: 'Reason, command, rule or arguments field (in a frame)',
  sidebar: 'Sidebar',
  details: 'Tool details',
  prompt: 'Connect prompt',
  picker: 'Picker (:model, :resume, :rewind)',
  chat: 'Chat',
};

/** The contexts in the order `:help` and the README list them, with their titles. */
export const KEY_CONTEXTS = Object.entries(CONTEXT_TITLES).map(([context, title]) => ({ context: context as KeyContext, title }));

/** The key table as plain lines for `:help` (no styling, no terminal width assumptions). */
export function formatKeymap(): string[] {
  const lines: string[] = [];
  const keyWidth = Math.max(...KEYMAP.map((binding) => binding.keys.length));
  for (const { context, title } of KEY_CONTEXTS) {
    const bindings = KEYMAP.filter((binding) => binding.where === context);
    if (bindings.length === 0) continue;
    lines.push(`${title}:`);
    for (const binding of bindings) lines.push(`  ${binding.keys.padEnd(keyWidth)}  ${binding.does}`);
  }
  return lines;
}

/** The short key hints for the status bar in this context, most important first. */
export function statusKeys(context: KeyContext, options: { busy?: boolean; retryQuestion?: boolean } = {}): string {
  const bindings: readonly KeyBinding[] = KEYMAP;
  // The link frame is either a URL to open or the question after one (retry): each shows only its own key.
  const notHere = context === 'link' ? (options.retryQuestion ? 'link.open' : 'link.retry') : undefined;
  const shorts = bindings.filter((binding) => binding.where === context && binding.short && !Object.values(binding.bind).includes(notHere ?? '')).map((binding) => binding.short!);
  const focusHint = bindings.find((binding) => binding.bind.tab === 'focus.next')!.short!;
  const quitHint = bindings.find((binding) => binding.bind['ctrl+d'] === 'app.quit')!.short!;
  if (context === 'input') {
    const cancelHint = bindings.find((binding) => binding.where === 'input' && binding.bind.escape === 'input.cancel')?.short;
    const input = options.busy ? shorts : shorts.filter((short) => short !== cancelHint);
    return [...input, focusHint, quitHint].join(' · ');
  }
  if (context === 'sidebar' || context === 'chat') return [...shorts, focusHint].join(' · ');
  return shorts.join(' · ');
}
