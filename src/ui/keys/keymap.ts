/**
 * Every key the UI understands, in one table: `:help` lists it, the status bar shows the short
 * forms that matter where the focus is, and the README's key table follows it.
 */

export type KeyContext = 'everywhere' | 'input' | 'sidebar' | 'chat' | 'approval' | 'command' | 'line' | 'details' | 'prompt';

export interface KeyBinding {
  keys: string;
  where: KeyContext;
  does: string;
  /** Shown in the status bar for this context (kept short). */
  short?: string;
}

export const KEYMAP: readonly KeyBinding[] = [
  { where: 'everywhere', keys: 'Ctrl+C', does: 'cancel the running answer, tool or command; else clear the input; else quit when pressed twice within a second' },
  { where: 'everywhere', keys: 'Ctrl+D', does: 'quit', short: 'Ctrl+D quit' },
  { where: 'everywhere', keys: 'Ctrl+L', does: 'redraw the screen' },
  { where: 'everywhere', keys: 'Ctrl+S', does: 'show or hide the MCP sidebar (it hides itself on narrow terminals)' },
  { where: 'everywhere', keys: 'Tab / Shift+Tab', does: 'move focus: input, sidebar, chat', short: 'Tab focus' },
  { where: 'everywhere', keys: 'PgUp / PgDn', does: 'scroll the transcript a page (new output follows again at the bottom)' },

  { where: 'input', keys: 'Enter', does: 'send the message (or run the :command / !shell command)', short: 'Enter send' },
  { where: 'input', keys: 'Ctrl+J / Alt+Enter', does: 'insert a newline', short: 'Ctrl+J newline' },
  { where: 'input', keys: 'Esc', does: 'cancel the running answer or tool; a message that got no answer yet, and any queued behind it, go back into the input', short: 'Esc cancel' },
  { where: 'input', keys: '↑ / ↓', does: 'previous / next message from the input history (on the first / last line)' },
  { where: 'input', keys: 'Tab', does: 'complete a :command, model name or server alias (when the input starts with :)' },
  { where: 'input', keys: 'Home / End', does: 'with an empty input: top / bottom of the transcript; else start / end of the line' },
  { where: 'input', keys: 'Ctrl+A / Ctrl+E', does: 'start / end of the line' },
  { where: 'input', keys: 'Ctrl+U / Ctrl+K', does: 'delete to the start / end of the line' },
  { where: 'input', keys: 'Ctrl+W / Alt+Backspace', does: 'delete the word before the cursor' },
  { where: 'input', keys: 'Alt+B / Alt+F', does: 'back / forward one word (also Ctrl+← / Ctrl+→)' },
  { where: 'input', keys: 'Ctrl+Y', does: 'paste back what Ctrl+U/K/W deleted' },
  { where: 'input', keys: 'paste', does: 'inserted as text, never sent by its newlines; large pastes show as [pasted N lines] and are sent whole' },

  { where: 'approval', keys: 'y', does: 'allow this call once', short: 'y once' },
  { where: 'approval', keys: 't', does: 'allow, and always allow this tool for the session', short: 't tool' },
  { where: 'approval', keys: 's', does: 'allow, and always allow every tool of this server for the session', short: 's server' },
  { where: 'approval', keys: 'n / Esc', does: 'deny', short: 'n deny' },
  { where: 'approval', keys: 'e', does: 'deny with a reason the model receives', short: 'e reason' },
  { where: 'approval', keys: '← / → and Enter', does: 'choose a button and press it' },
  { where: 'approval', keys: '↑ / ↓ PgUp PgDn', does: 'scroll long arguments (the allow keys work once everything has been on screen)', short: '↑↓ scroll' },

  { where: 'command', keys: 'y', does: 'run the proposed command', short: 'y run' },
  { where: 'command', keys: 'e', does: 'edit the command, then Enter runs it', short: 'e edit' },
  { where: 'command', keys: 'n / Esc', does: 'skip it', short: 'n skip' },

  { where: 'line', keys: 'Enter', does: 'deny with the reason typed / run the edited command', short: 'Enter confirm' },
  { where: 'line', keys: 'Esc', does: 'back to the buttons', short: 'Esc back' },

  { where: 'sidebar', keys: '↑ / ↓', does: 'select a server or tool', short: '↑↓ select' },
  { where: 'sidebar', keys: 'Enter', does: "expand a server's tools (a server that is not ready shows its error and stderr); on a tool, show its description and input schema", short: 'Enter open' },
  { where: 'sidebar', keys: 'i', does: "show the selected server's details: state, error, the last lines of its stderr", short: 'i info' },
  { where: 'sidebar', keys: 'r', does: 'reconnect the selected server', short: 'r reconnect' },
  { where: 'sidebar', keys: 'd', does: 'disconnect the selected server', short: 'd disconnect' },
  { where: 'sidebar', keys: 'c', does: 'connect a server by URL (and an optional alias)', short: 'c connect' },
  { where: 'sidebar', keys: 'other letters', does: 'typed text goes to the input, and the focus moves there' },

  { where: 'details', keys: '↑ / ↓ PgUp PgDn Home End', does: "scroll the tool's description and schema, or the server's details", short: '↑↓ scroll' },
  { where: 'details', keys: 'Esc / Enter / q', does: 'close', short: 'Esc close' },

  { where: 'prompt', keys: 'Enter', does: 'next field / connect', short: 'Enter next' },
  { where: 'prompt', keys: 'Esc', does: 'cancel', short: 'Esc cancel' },

  { where: 'chat', keys: '↑ / ↓', does: 'scroll the transcript a line', short: '↑↓ scroll' },
  { where: 'chat', keys: 'PgUp / PgDn', does: 'scroll a page' },
  { where: 'chat', keys: 'Home / End', does: 'top / bottom (End follows new output again)', short: 'Home/End' },
  { where: 'chat', keys: 'r', does: 'fold or unfold reasoning', short: 'r reasoning' },
  { where: 'chat', keys: 'x', does: 'expand or fold every tool result and long message', short: 'x expand' },
  { where: 'chat', keys: 'Esc', does: 'back to the input' },
  { where: 'chat', keys: 'other letters', does: 'typed text goes to the input, and the focus moves there' },
];

/**
 * The printable keys a panel uses as commands (the one-character entries above). Any other
 * printable key typed there is meant for the input.
 */
export function commandLetters(context: KeyContext): ReadonlySet<string> {
  return new Set(KEYMAP.filter((binding) => binding.where === context && [...binding.keys].length === 1).map((binding) => binding.keys));
}

const CONTEXT_TITLES: Record<KeyContext, string> = {
  everywhere: 'Everywhere',
  input: 'Input',
  approval: 'Tool call frame',
  command: 'Command frame',
  line: 'Reason or command line (in a frame)',
  sidebar: 'Sidebar',
  details: 'Tool details',
  prompt: 'Connect prompt',
  chat: 'Chat',
};

/** The key table as plain lines for `:help` (no styling, no terminal width assumptions). */
export function formatKeymap(): string[] {
  const lines: string[] = [];
  const keyWidth = Math.max(...KEYMAP.map((binding) => binding.keys.length));
  for (const context of Object.keys(CONTEXT_TITLES) as KeyContext[]) {
    const bindings = KEYMAP.filter((binding) => binding.where === context);
    if (bindings.length === 0) continue;
    lines.push(`${CONTEXT_TITLES[context]}:`);
    for (const binding of bindings) lines.push(`  ${binding.keys.padEnd(keyWidth)}  ${binding.does}`);
  }
  return lines;
}

/** The short key hints for the status bar in this context, most important first. */
export function statusKeys(context: KeyContext, options: { busy?: boolean } = {}): string {
  const shorts = KEYMAP.filter((binding) => binding.where === context && binding.short).map((binding) => binding.short!);
  if (context === 'input') {
    const input = options.busy ? shorts : shorts.filter((short) => short !== 'Esc cancel');
    return [...input, 'Tab focus', 'Ctrl+D quit'].join(' · ');
  }
  if (context === 'sidebar' || context === 'chat') return [...shorts, 'Tab focus'].join(' · ');
  return shorts.join(' · ');
}
