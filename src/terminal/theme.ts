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
  /** Inline `code` in answers. */
  code?: string;
  /** Which background the colours are for. */
  background?: 'dark' | 'light';
}

/**
 * `background`: the terminal's (asked with OSC 11, or `ui.theme`). On a light background white text
 * disappears and yellow or cyan barely show, so those roles get darker colours there.
 */
export function createTheme(env: NodeJS.ProcessEnv = process.env, background: 'dark' | 'light' = 'dark'): Theme {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return { color: false };
  if (background === 'light') {
    return {
      color: true,
      background,
      accent: '#0550ae',
      muted: '#6e7781',
      user: '#0550ae',
      // The terminal's own foreground: dark on a light background.
      assistant: undefined,
      error: '#cf222e',
      warn: '#9a6700',
      ok: '#1a7f37',
      info: '#0550ae',
      border: '#8c959f',
      focusBorder: '#0550ae',
      marker: '#8250df',
      code: '#953800',
    };
  }
  return {
    color: true,
    background,
    code: 'yellow',
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
