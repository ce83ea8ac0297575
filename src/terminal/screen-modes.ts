// The terminal modes of the full screen, shared by the start-up paint (src/boot) and the full
// screen itself (fullScreen.ts): what one turns on, the other must find on, or turn off.

export const ENTER_ALT_SCREEN = '\x1b[?1049h';
export const LEAVE_ALT_SCREEN = '\x1b[?1049l';
export const SHOW_CURSOR = '\x1b[?25h';
export const RESET_ATTRIBUTES = '\x1b[0m';
export const ENABLE_BRACKETED_PASTE = '\x1b[?2004h';
export const DISABLE_BRACKETED_PASTE = '\x1b[?2004l';
export const ENABLE_FOCUS_REPORTING = '\x1b[?1004h';
export const DISABLE_FOCUS_REPORTING = '\x1b[?1004l';

export interface ScreenModes {
  bracketedPaste?: boolean;
  focusReporting?: boolean;
}

export function modesOn(modes: ScreenModes): string {
  return (modes.bracketedPaste ? ENABLE_BRACKETED_PASTE : '') + (modes.focusReporting ? ENABLE_FOCUS_REPORTING : '');
}

export function modesOff(modes: ScreenModes): string {
  return DISABLE_BRACKETED_PASTE + (modes.focusReporting ? DISABLE_FOCUS_REPORTING : '');
}

/** The modes the full-screen UI runs with (cli/tui.tsx), which the start-up paint turns on too. */
export const APP_SCREEN_MODES: ScreenModes = { bracketedPaste: true, focusReporting: true };

/** Everything that leaves the full screen: plain text, no modes, a visible cursor, the main screen. */
export function leaveSequence(modes: ScreenModes): string {
  return RESET_ATTRIBUTES + modesOff(modes) + SHOW_CURSOR + LEAVE_ALT_SCREEN;
}
