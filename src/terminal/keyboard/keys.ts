/**
 * Key events as the app sees them, after the tokenizer (tokenizer.ts) has turned raw terminal
 * input into keys, pastes and dropped terminal replies.
 */

export type KeyName =
  /** Printable text (one character typed, or a run of characters that arrived together). */
  | 'text'
  /** A bracketed paste (ESC[200~ … ESC[201~), delivered whole. */
  | 'paste'
  | 'return'
  | 'tab'
  | 'backspace'
  | 'delete'
  | 'insert'
  | 'escape'
  | 'up'
  | 'down'
  | 'left'
  | 'right'
  | 'home'
  | 'end'
  | 'pageup'
  | 'pagedown'
  | 'space'
  | `f${number}`
  /** A letter or symbol pressed with Ctrl or Alt (`ctrl` / `meta` say which). */
  | `char:${string}`;

export interface KeyEvent {
  name: KeyName;
  /** The text for `text` and `paste`; the character for `char:*` keys; '' otherwise. */
  text: string;
  ctrl: boolean;
  meta: boolean;
  shift: boolean;
  /** Came from a bracketed paste: never a command, never an approval. */
  paste: boolean;
  /**
   * Arrived in one read together with other input: typed ahead while the app was busy, or pasted
   * by a terminal without bracketed paste. Never an approval.
   */
  burst: boolean;
  /** When the bytes were read (ms, the clock the KeyInput was given). */
  at: number;
  /**
   * Set when the app was too busy to read at once (KeyInput's stall watch): the bytes may have
   * arrived as early as this. A key that may have been typed before a frame appeared (read only
   * after a long render) is never taken as its answer.
   */
  since?: number;
  /** A paste larger than the limit was cut to it. */
  truncated?: boolean;
}

export function makeKey(name: KeyName, fields: Partial<Omit<KeyEvent, 'name'>> = {}): KeyEvent {
  return { name, text: '', ctrl: false, meta: false, shift: false, paste: false, burst: false, at: 0, ...fields };
}

/** Ctrl+<letter>, e.g. `isCtrl(key, 'c')`. */
export function isCtrl(key: KeyEvent, letter: string): boolean {
  return key.ctrl && !key.meta && key.name === `char:${letter}`;
}

/** Alt+<letter> (ESC prefix or a modifier report). */
export function isMeta(key: KeyEvent, letter: string): boolean {
  return key.meta && !key.ctrl && key.name === `char:${letter}`;
}

/** A single printable character typed on its own (not pasted, not part of a burst). */
export function typedChar(key: KeyEvent): string | undefined {
  if (key.name !== 'text' || key.paste || key.burst) return undefined;
  return [...key.text].length === 1 ? key.text : undefined;
}

/** The earliest the key can have been typed: `since` when the read came late, else `at`. */
export function earliestAt(key: Pick<KeyEvent, 'at' | 'since'>): number {
  return key.since !== undefined && key.since < key.at ? key.since : key.at;
}

/** Typed deliberately: a key that did not come from a paste or a burst of typed-ahead input. */
export function isDeliberate(key: KeyEvent): boolean {
  return !key.paste && !key.burst;
}
