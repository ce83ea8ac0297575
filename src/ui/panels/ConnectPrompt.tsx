import { sanitizeLabel } from '../../services/terminal/sanitize';
import type { SidebarUi } from '../../state/types';
import { BoxFrame, FRAME_CHROME_ROWS, innerWidth } from './BoxFrame';
import { fieldLine } from './editorView';
import { truncate, type Line } from './text';
import type { Theme } from '../../terminal/theme';

export interface ConnectPromptProps {
  prompt: NonNullable<SidebarUi['connect']>;
  width: number;
  theme: Theme;
}

export const CONNECT_PROMPT_ROWS = 3 + FRAME_CHROME_ROWS;

/** `c` in the sidebar: the URL of a server to connect, then an optional alias. */
export function ConnectPrompt({ prompt, width, theme }: ConnectPromptProps) {
  const inner = innerWidth(width);
  const label = (text: string, active: boolean): Line[number] => ({ text: text.padEnd(7), tone: active ? 'accent' : 'muted' });
  const lines: Line[] = [
    [label('URL', prompt.step === 'url'), ...fieldLine(prompt.url, inner - 7, prompt.step === 'url')],
    [label('alias', prompt.step === 'alias'), ...fieldLine(prompt.alias, inner - 7, prompt.step === 'alias')],
    prompt.error
      ? [{ text: truncate(sanitizeLabel(prompt.error), inner), tone: 'error' }]
      : [{ text: truncate(prompt.step === 'url' ? 'Enter next · Esc cancel' : 'Enter connect (alias optional) · Esc cancel', inner), tone: 'muted' }],
  ];
  return <BoxFrame width={width} title={[{ text: 'Connect an MCP server', tone: 'bold' }]} lines={lines} theme={theme} />;
}
