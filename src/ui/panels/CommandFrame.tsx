import type { ProposedCommand } from '../../services/conversation/types';
import { sanitizeLabel, sanitizeStrict } from '../../services/terminal/sanitize';
import { AskFrame, layoutAsk, type AskField, type AskLayoutInput } from './AskFrame';
import type { FrameButton, FrameLayout, FrameParts } from './frameLayout';
import { markWhitespace, wrapLine, wrapWords, type Line } from './text';
import type { Theme } from '../../terminal/theme';
import { pushAll } from '../../services/terminal/rows';

export const COMMAND_BUTTONS: FrameButton[] = [
  { key: 'y', label: 'Run', short: 'run' },
  { key: 'e', label: 'Edit, then run', short: 'edit' },
  { key: 'n', label: 'Skip', short: 'skip' },
];

/**
 * The proposed command exactly as it would run, escaped, every line shown; only the command
 * scrolls. Above it, what services/shell/danger.ts found: dangerous shapes (a warning, never a
 * verdict that anything else is safe) and hidden characters (then it runs only after an edit).
 */
export function commandParts(command: string, columns: number, check: Pick<ProposedCommand, 'warnings' | 'mustEdit' | 'sandbox'> = {}): FrameParts {
  const header: Line[] = [[{ text: check.sandbox ? 'proposed by the model' : 'proposed by the model, runs in your shell here', tone: 'muted' }]];
  const compactHeader: Line[] = [];
  // How config shell.sandbox confines it (or that it will be refused): kept even when compact.
  if (check.sandbox) {
    const sandboxLines = wrapWords(sanitizeLabel(check.sandbox), columns, check.sandbox.startsWith('sandboxed:') ? 'muted' : 'warn');
    pushAll(header, sandboxLines);
    pushAll(compactHeader, sandboxLines.slice(0, 1));
  }
  for (const warning of check.warnings ?? []) pushAll(header, wrapWords(`▲ This command ${sanitizeLabel(warning)}.`, columns, 'warn'));
  if (check.mustEdit) pushAll(header, wrapWords(`▲ It cannot run as proposed: ${sanitizeLabel(check.mustEdit)}. e edits it without them.`, columns, 'warn'));
  const flags = [...(check.warnings ?? []), ...(check.mustEdit ? ['edit to run: hidden characters'] : [])];
  if (flags.length > 0) pushAll(compactHeader, wrapWords(`▲ ${sanitizeLabel(flags.join(' · '))}`, columns, 'warn').slice(0, 2));
  const body: Line[] = [];
  const marked = markWhitespace(sanitizeStrict(command));
  marked.forEach((line, index) => {
    pushAll(body, wrapLine([{ text: index === 0 ? '$ ' : '  ', tone: 'accent' }, ...line.map((seg) => ({ ...seg, tone: seg.tone ?? 'bold' }))], columns));
  });
  return { header, compactHeader, body };
}

const EDIT_FIELD: AskField = { mode: 'edit', prompt: [{ text: '$ ', tone: 'accent' }], help: 'Enter run the edited command · Esc back' };

export interface CommandLayoutInput {
  parts: FrameParts;
  width: number;
  maxHeight: number;
  ui: AskLayoutInput['ui'];
  armed: boolean;
}

export function layoutCommand(input: CommandLayoutInput): FrameLayout {
  return layoutAsk({ ...input, buttons: COMMAND_BUTTONS, field: EDIT_FIELD });
}

export interface CommandFrameProps {
  position: number;
  count: number;
  width: number;
  layout: FrameLayout;
  theme: Theme;
}

/** The inline frame that asks before a proposed shell command runs. */
export function CommandFrame(props: CommandFrameProps) {
  return <AskFrame title="Run this command?" tone="warn" {...props} />;
}
