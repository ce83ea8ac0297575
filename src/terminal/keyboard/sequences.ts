import { makeKey, type KeyEvent, type KeyName } from './keys';

/** Terminal key sequences: what each CSI / SS3 / control byte means (used by tokenizer.ts). */

export function isParam(code: number): boolean {
  return code >= 0x30 && code <= 0x3f;
}

export function isIntermediate(code: number): boolean {
  return code >= 0x20 && code <= 0x2f;
}

export const SS3_KEYS: Record<string, KeyName> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
  M: 'return',
  P: 'f1',
  Q: 'f2',
  R: 'f3',
  S: 'f4',
};

export const LINUX_FKEYS: Record<string, KeyName> = { A: 'f1', B: 'f2', C: 'f3', D: 'f4', E: 'f5' };

const CSI_LETTER_KEYS: Record<string, KeyName> = {
  A: 'up',
  B: 'down',
  C: 'right',
  D: 'left',
  H: 'home',
  F: 'end',
  E: 'home',
  P: 'f1',
  Q: 'f2',
  S: 'f4',
};

const TILDE_KEYS: Record<string, KeyName> = {
  '1': 'home',
  '2': 'insert',
  '3': 'delete',
  '4': 'end',
  '5': 'pageup',
  '6': 'pagedown',
  '7': 'home',
  '8': 'end',
  '11': 'f1',
  '12': 'f2',
  '13': 'f3',
  '14': 'f4',
  '15': 'f5',
  '17': 'f6',
  '18': 'f7',
  '19': 'f8',
  '20': 'f9',
  '21': 'f10',
  '23': 'f11',
  '24': 'f12',
};

function modifiers(param: string | undefined): { shift: boolean; meta: boolean; ctrl: boolean } {
  const value = Number(param ?? '1') - 1;
  if (!Number.isFinite(value) || value < 0) return { shift: false, meta: false, ctrl: false };
  return { shift: (value & 1) !== 0, meta: (value & 2) !== 0, ctrl: (value & 4) !== 0 };
}

/** A key from a code point with modifiers (kitty `CSI code;mods u`, xterm `CSI 27;mods;code ~`). */
function codepointKey(code: number, mods: string | undefined, at: number): KeyEvent | undefined {
  const modifier = modifiers(mods);
  if (code === 13) return makeKey('return', { ...modifier, at });
  if (code === 9) return makeKey('tab', { ...modifier, at });
  if (code === 27) return makeKey('escape', { ...modifier, at });
  if (code === 127 || code === 8) return makeKey('backspace', { ...modifier, at });
  if (code === 32) return modifier.ctrl || modifier.meta ? makeKey('space', { ...modifier, at }) : makeKey('text', { text: ' ', at });
  if (code < 32 || code > 0x10ffff) return undefined;
  const char = String.fromCodePoint(code);
  if (!modifier.ctrl && !modifier.meta) return makeKey('text', { text: modifier.shift ? char.toUpperCase() : char, at });
  return makeKey(`char:${char.toLowerCase()}`, { ...modifier, text: char, at });
}

/**
 * A complete CSI sequence: a key, a terminal reply to drop (undefined), or the start of an X10
 * mouse report. Replies: anything with a private-parameter prefix (`?`, `>`, `=`, `<`: DA, DECRPM,
 * kitty flags, SGR mouse), cursor position reports (`R`), focus reports (`I`/`O`), window
 * reports (`t`), and anything we do not recognise.
 */
export function decodeCsi(params: string, intermediates: string, final: string, at: number): KeyEvent | undefined | 'x10-mouse' {
  if (/^[?>=<]/.test(params)) return undefined;
  if (intermediates !== '') return undefined;
  if (final === 'M' && params === '') return 'x10-mouse';
  const parts = params.split(';');
  if (final === '~') {
    if (parts[0] === '27' && parts.length >= 3) return codepointKey(Number(parts[2]), parts[1], at);
    const name = TILDE_KEYS[parts[0] ?? ''];
    return name ? makeKey(name, { ...modifiers(parts[1]), at }) : undefined;
  }
  if (final === 'u') return codepointKey(Number(parts[0]), parts[1], at);
  if (final === 'Z') return makeKey('tab', { shift: true, at });
  const name = CSI_LETTER_KEYS[final];
  if (!name) return undefined;
  // `CSI 1;5A`: the second parameter carries the modifiers.
  return makeKey(name, { ...modifiers(parts[1]), at });
}

export function controlKey(code: number, at: number): KeyEvent {
  switch (code) {
    case 0x0d:
      return makeKey('return', { at });
    case 0x09:
      return makeKey('tab', { at });
    case 0x7f:
    case 0x08:
      return makeKey('backspace', { at });
    case 0x1b:
      return makeKey('escape', { at });
    case 0x00:
      return makeKey('space', { ctrl: true, at });
    default: {
      // 0x01-0x1a: Ctrl+A..Ctrl+Z (0x0a is Ctrl+J); 0x1c-0x1f: Ctrl+\ ] ^ _
      const char = code <= 0x1a ? String.fromCharCode(code + 96) : String.fromCharCode(code + 64);
      return makeKey(`char:${char}`, { ctrl: true, text: char, at });
    }
  }
}

