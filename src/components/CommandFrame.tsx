import { sanitizeStrict } from '../services/terminal/sanitize';
import type { FrameUi } from '../state/types';
import { BoxFrame, innerWidth } from './BoxFrame';
import { fieldLine } from './editorView';
import { buttonRows, layoutFrame, type FrameButton, type FrameLayout } from './frameLayout';
import { markWhitespace, truncate, wrapLine, type Line } from './text';
import type { Theme } from './theme';

export const COMMAND_BUTTONS: FrameButton[] = [
  { key: 'y', label: 'Run', short: 'run' },
  { key: 'e', label: 'Edit, then run', short: 'edit' },
  { key: 'n', label: 'Skip', short: 'skip' },
];

/** The proposed command exactly as it would run, escaped, every line shown. */
export function commandBody(command: string, columns: number): Line[] {
  const lines: Line[] = [[{ text: 'proposed by the model, runs in your shell here', tone: 'muted' }]];
  const marked = markWhitespace(sanitizeStrict(command));
  marked.forEach((line, index) => {
    lines.push(...wrapLine([{ text: index === 0 ? '$ ' : '  ', tone: 'accent' }, ...line.map((seg) => ({ ...seg, tone: seg.tone ?? 'bold' }))], columns));
  });
  return lines;
}

export interface CommandLayoutInput {
  body: Line[];
  width: number;
  maxHeight: number;
  ui: Pick<FrameUi, 'button' | 'scrollTop' | 'mode' | 'field' | 'seen'>;
  armed: boolean;
}

export function layoutCommand({ body, width, maxHeight, ui, armed }: CommandLayoutInput): FrameLayout {
  const inner = innerWidth(width);
  const footer: Line[] =
    ui.mode === 'edit'
      ? [
          [{ text: '$ ', tone: 'accent' }, ...fieldLine(ui.field, inner - 2)],
          [{ text: truncate('Enter run the edited command · Esc back', inner), tone: 'muted' }],
        ]
      : buttonRows(COMMAND_BUTTONS, ui.button, armed, inner);
  return layoutFrame({
    body,
    footer,
    maxHeight,
    scrollTop: ui.scrollTop,
    seen: ui.seen,
    unreadNote: [{ text: 'read to the end to enable the keys', tone: 'warn' }],
  });
}

export interface CommandFrameProps {
  position: number;
  count: number;
  width: number;
  layout: FrameLayout;
  theme: Theme;
}

/** The inline frame that asks before a proposed shell command runs. */
export function CommandFrame({ position, count, width, layout, theme }: CommandFrameProps) {
  return (
    <BoxFrame
      width={width}
      title={[{ text: 'Run this command?', tone: 'bold' }]}
      badge={count > 1 ? [{ text: `${position} of ${count}`, tone: 'accent' }] : undefined}
      lines={layout.rows}
      theme={theme}
      tone="warn"
    />
  );
}
