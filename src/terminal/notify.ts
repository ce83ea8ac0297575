// Telling someone in another window that aish-tui waits for them (README.md, "Notifications"): a
// desktop notification where the terminal is known to show one (OSC 9, OSC 777), else the bell.
// Only fixed words of our own go into the sequence, never model or server text.

export type NotifyMethod = 'bell' | 'osc9' | 'osc777' | 'off';
export type NotifySetting = NotifyMethod | 'auto';

/** What `auto` means in this terminal (from the variables terminals set). */
export function notifyMethodFor(setting: NotifySetting, env: NodeJS.ProcessEnv): NotifyMethod {
  if (setting !== 'auto') return setting;
  // Inside tmux or screen an OSC is not passed on; their bell marks the window instead.
  if (env.TMUX || env.STY) return 'bell';
  const program = env.TERM_PROGRAM ?? '';
  if (program === 'iTerm.app' || program === 'WezTerm' || program === 'ghostty' || env.TERM === 'xterm-kitty' || env.KITTY_WINDOW_ID) return 'osc9';
  if (env.VTE_VERSION || env.TERM === 'foot' || env.TERM?.startsWith('rxvt-unicode')) return 'osc777';
  return 'bell';
}

/** The bytes for one notification; empty for `off`. */
export function notifySequence(method: NotifyMethod, title: string, body: string): string {
  const clean = (text: string) => text.replace(/[\x00-\x1f\x7f-\x9f;]/g, ' ');
  switch (method) {
    case 'osc9':
      return `\x1b]9;${clean(`${title}: ${body}`)}\x07`;
    case 'osc777':
      return `\x1b]777;notify;${clean(title)};${clean(body)}\x07`;
    case 'bell':
      return '\x07';
    default:
      return '';
  }
}

export const FOCUS_REPORTING_ON = '\x1b[?1004h';
export const FOCUS_REPORTING_OFF = '\x1b[?1004l';
export const FOCUS_IN = '\x1b[I';
export const FOCUS_OUT = '\x1b[O';
