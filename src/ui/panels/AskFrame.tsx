import type { FrameUi } from '../../state/types';
import { BoxFrame, innerWidth } from './BoxFrame';
import { fieldLine } from './editorView';
import { answerButtons, layoutFrame, type FrameButton, type FrameLayout, type FrameParts } from './frameLayout';
import { lineWidth, truncate, type Line, type Tone } from './text';
import type { Theme } from '../../terminal/theme';

/**
 * The parts the tool-call and command frames share: a pinned header, a scrolling body, and either
 * the answer buttons or a one-line field (a deny reason, an edited command) at the bottom.
 */

/** The one-line field a frame opens instead of its buttons. */
export interface AskField {
  /** The `ui.mode` that shows it. */
  mode: FrameUi['mode'];
  prompt: Line;
  /** What Enter and Esc do, under the field. */
  help: string;
}

export interface AskLayoutInput {
  parts: FrameParts;
  width: number;
  maxHeight: number;
  ui: Pick<FrameUi, 'button' | 'scrollTop' | 'mode' | 'field' | 'seen' | 'seenRuns'>;
  /** The keys work (the delay passed and everything has been on screen). */
  armed: boolean;
  buttons: FrameButton[];
  field: AskField;
}

export function layoutAsk({ parts, width, maxHeight, ui, armed, buttons, field }: AskLayoutInput): FrameLayout {
  const inner = innerWidth(width);
  const inField = ui.mode === field.mode;
  const fieldRow: Line = [...field.prompt, ...fieldLine(ui.field, Math.max(1, inner - lineWidth(field.prompt)))];
  const answers = answerButtons(buttons, ui.button, armed, inner);
  // On a very short screen: the field without its help, or the buttons on one row.
  const footer: Line[] = inField ? [fieldRow, [{ text: truncate(field.help, inner), tone: 'muted' }]] : answers.footer;
  const compactFooter: Line[] = inField ? [fieldRow] : answers.compactFooter;
  return layoutFrame({
    parts,
    footer,
    compactFooter,
    maxHeight,
    columns: inner,
    scrollTop: ui.scrollTop,
    seen: ui.seen,
    ...(ui.seenRuns ? { seenRuns: ui.seenRuns } : {}),
    unreadNote: [{ text: 'read every line first', tone: 'warn' }],
  });
}

export interface AskFrameProps {
  title: string;
  /** This frame's place among those waiting (`1 of 3`); no badge for a single one. */
  position: number;
  count: number;
  width: number;
  layout: FrameLayout;
  theme: Theme;
  tone: Tone;
}

/** The inline frame that asks before something runs. */
export function AskFrame({ title, position, count, width, layout, theme, tone }: AskFrameProps) {
  return (
    <BoxFrame
      width={width}
      title={[{ text: title, tone: 'bold' }]}
      badge={count > 1 ? [{ text: `${position} of ${count}`, tone: 'accent' }] : undefined}
      lines={layout.rows}
      theme={theme}
      tone={tone}
    />
  );
}
