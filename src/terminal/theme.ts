/**
 * Semantic colours. Panels ask for a role ("error", "muted"), never a colour, so the theme stays
 * consistent and NO_COLOR (https://no-color.org) can turn every colour off in one place. Without
 * colour, focus and selection are still visible: they use inverse video and markers, not hue.
 */
export interface Theme {
  color: boolean;
  accent?: string;
  muted?: string;
  user?: string;
  assistant?: string;
  error?: string;
  warn?: string;
  ok?: string;
  info?: string;
  border?: string;
  focusBorder?: string;
  /** Our own markers inside untrusted text (collapsed whitespace, paste chips). */
  marker?: string;
}

export function createTheme(env: NodeJS.ProcessEnv = process.env): Theme {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return { color: false };
  return {
    color: true,
    accent: 'cyan',
    muted: 'gray',
    user: 'blue',
    assistant: 'white',
    error: 'red',
    warn: 'yellow',
    ok: 'green',
    info: 'cyan',
    border: 'gray',
    focusBorder: 'cyan',
    marker: 'magenta',
  };
}
