import { makeKey, type KeyEvent } from './keys';
import { controlKey, decodeCsi, isIntermediate, isParam, LINUX_FKEYS, SS3_KEYS } from './sequences';

/**
 * Turns raw terminal input into key events.
 *
 * Why our own and not Ink's parser: Ink splits input on ESC only, so a terminal's reply to a query
 * (cursor position `ESC[12;40R`, device attributes `ESC[?64;1c`, an OSC colour report
 * `ESC]11;rgb:…ESC\`) would reach the input as typed letters, and a bracketed paste arrives as
 * separate chunks in which a pasted newline looks like Enter. Here:
 * - bracketed pastes are collected whole, however they are split across reads, and delivered as
 *   one `paste` event;
 * - terminal replies (CPR, DA1/DA2/DA3, DECRPM, kitty flag reports, focus reports, window
 *   reports, OSC/DCS/APC/PM/SOS strings) are recognised and dropped, never read as keys;
 * - every read that carries more than one key with text in it is marked `burst` (typed ahead or
 *   pasted without bracket markers), and a return inside such a burst that is followed by more
 *   text becomes a newline in the text instead of Enter;
 * - a lone ESC is held back until the next read or until `flush()` (called on a short timer), so
 *   an escape sequence split across reads is still one key.
 */

const ESC = '\x1b';
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';
/** A paste larger than this is cut (the rest is dropped and `truncated` is reported). */
export const MAX_PASTE_CHARS = 8 * 1024 * 1024;
/** An unterminated OSC/DCS string longer than this is abandoned. */
const MAX_STRING_CHARS = 64 * 1024;
/** How much of a string reply is kept for `dropped` (an OSC 11 colour reply is ~25 characters). */
const KEPT_STRING_CHARS = 256;

export interface TokenizerResult {
  events: KeyEvent[];
  /**
   * Terminal replies and unknown sequences that were dropped: CSI sequences as read (`ESC[I`, a
   * focus report), strings as `ESC ] text` without their terminator (`ESC]11;rgb:…`, a colour
   * reply; the first 256 characters).
   */
  dropped: string[];
}

type Mode = 'normal' | 'paste' | 'string';

export class KeyTokenizer {
  private pending = '';
  private mode: Mode = 'normal';
  private pasteText = '';
  private pasteTruncated = false;
  private stringLength = 0;
  private stringText = '';

  /** True while a lone ESC (or an incomplete sequence) waits for more input. */
  get hasPending(): boolean {
    return this.mode === 'normal' && this.pending.length > 0;
  }

  /** True when a paste failed to fit and was cut. Reset by the next paste. */
  get lastPasteTruncated(): boolean {
    return this.pasteTruncated;
  }

  push(chunk: string, at: number): TokenizerResult {
    const events: KeyEvent[] = [];
    const dropped: string[] = [];
    const input = this.pending + chunk;
    this.pending = '';
    let i = 0;
    while (i < input.length) {
      if (this.mode === 'paste') {
        i = this.consumePaste(input, i, events, at);
        continue;
      }
      if (this.mode === 'string') {
        i = this.consumeString(input, i, dropped);
        continue;
      }
      const ch = input[i]!;
      if (ch === ESC) {
        const parsed = this.parseEscape(input, i, at);
        if (parsed === 'pending') {
          this.pending = input.slice(i);
          break;
        }
        if (parsed.dropped !== undefined) dropped.push(parsed.dropped);
        if (parsed.event) events.push(parsed.event);
        i = parsed.next;
        continue;
      }
      const code = ch.charCodeAt(0);
      if (code < 0x20 || code === 0x7f) {
        events.push(controlKey(code, at));
        i++;
        continue;
      }
      // A run of printable text up to the next control character or ESC.
      let end = i + 1;
      while (end < input.length) {
        const next = input.charCodeAt(end);
        if (next < 0x20 || next === 0x7f) break;
        end++;
      }
      events.push(makeKey('text', { text: input.slice(i, end), at }));
      i = end;
    }
    return { events: markBurst(events), dropped };
  }

  /** Delivers a held-back lone ESC as the Escape key (the caller's timer decided none follows). */
  flush(at: number): KeyEvent[] {
    if (this.mode !== 'normal' || this.pending.length === 0) return [];
    const pending = this.pending;
    this.pending = '';
    if (pending === ESC) return [makeKey('escape', { at })];
    // An incomplete sequence that never completed: ESC then whatever followed, read as Alt+key.
    const rest = this.push(pending.slice(1), at).events;
    return [makeKey('escape', { at }), ...rest];
  }

  private consumePaste(input: string, start: number, events: KeyEvent[], at: number): number {
    const end = input.indexOf(PASTE_END, start);
    if (end === -1) {
      // Keep a possible partial end marker for the next read.
      let keep = 0;
      for (let length = Math.min(PASTE_END.length - 1, input.length - start); length > 0; length--) {
        if (PASTE_END.startsWith(input.slice(input.length - length))) {
          keep = length;
          break;
        }
      }
      this.appendPaste(input.slice(start, input.length - keep));
      this.pending = input.slice(input.length - keep);
      return input.length;
    }
    this.appendPaste(input.slice(start, end));
    events.push(makeKey('paste', { text: normalizePaste(this.pasteText), paste: true, at, ...(this.pasteTruncated ? { truncated: true } : {}) }));
    this.pasteText = '';
    this.mode = 'normal';
    return end + PASTE_END.length;
  }

  private appendPaste(text: string): void {
    if (this.pasteText.length + text.length > MAX_PASTE_CHARS) {
      this.pasteText += text.slice(0, Math.max(0, MAX_PASTE_CHARS - this.pasteText.length));
      this.pasteTruncated = true;
      return;
    }
    this.pasteText += text;
  }

  /** Inside an OSC/DCS/APC/PM/SOS string: everything up to BEL or ST is a reply, dropped. */
  private consumeString(input: string, start: number, dropped: string[]): number {
    const keep = (end: number) => {
      if (this.stringText.length < KEPT_STRING_CHARS) this.stringText += input.slice(start, Math.min(end, start + KEPT_STRING_CHARS - this.stringText.length));
    };
    for (let i = start; i < input.length; i++) {
      const ch = input[i];
      if (ch === '\x07' || ch === '\x9c') {
        keep(i);
        this.mode = 'normal';
        dropped.push(this.stringText);
        return i + 1;
      }
      if (ch === ESC) {
        if (i + 1 >= input.length) {
          keep(i);
          this.pending = ESC;
          this.stringLength += i - start;
          return input.length;
        }
        if (input[i + 1] === '\\') {
          keep(i);
          this.mode = 'normal';
          dropped.push(this.stringText);
          return i + 2;
        }
      }
    }
    keep(input.length);
    this.stringLength += input.length - start;
    if (this.stringLength > MAX_STRING_CHARS) {
      this.mode = 'normal';
      dropped.push('string (abandoned)');
    }
    return input.length;
  }

  private parseEscape(input: string, i: number, at: number): 'pending' | { next: number; event?: KeyEvent; dropped?: string } {
    if (i + 1 >= input.length) return 'pending';
    const kind = input[i + 1]!;
    if (kind === '[') return this.parseCsi(input, i, at);
    if (kind === 'O') {
      if (i + 2 >= input.length) return 'pending';
      const final = input[i + 2]!;
      const name = SS3_KEYS[final];
      return name ? { next: i + 3, event: makeKey(name, { at }) } : { next: i + 3, dropped: input.slice(i, i + 3) };
    }
    if (kind === ']' || kind === 'P' || kind === '_' || kind === '^' || kind === 'X') {
      this.mode = 'string';
      this.stringLength = 0;
      this.stringText = input.slice(i, i + 2);
      return { next: i + 2 };
    }
    if (kind === ESC) {
      // ESC ESC: the first is Escape; the second starts whatever comes next.
      return { next: i + 1, event: makeKey('escape', { at }) };
    }
    // Alt + key: ESC followed by a character (or a control key such as Enter or Backspace).
    const code = input.codePointAt(i + 1)!;
    const width = code > 0xffff ? 2 : 1;
    if (code < 0x20 || code === 0x7f) {
      const base = controlKey(code, at);
      return { next: i + 2, event: { ...base, meta: true } };
    }
    const char = String.fromCodePoint(code);
    return { next: i + 1 + width, event: makeKey(`char:${char.toLowerCase()}`, { text: char, meta: true, shift: char !== char.toLowerCase(), at }) };
  }

  private parseCsi(input: string, i: number, at: number): 'pending' | { next: number; event?: KeyEvent; dropped?: string } {
    let j = i + 2;
    // Linux console function keys: ESC [ [ A
    if (input[j] === '[') {
      if (j + 1 >= input.length) return 'pending';
      const name = LINUX_FKEYS[input[j + 1]!];
      return name ? { next: j + 2, event: makeKey(name, { at }) } : { next: j + 2, dropped: input.slice(i, j + 2) };
    }
    const paramStart = j;
    while (j < input.length && isParam(input.charCodeAt(j))) j++;
    const intermediateStart = j;
    while (j < input.length && isIntermediate(input.charCodeAt(j))) j++;
    if (j >= input.length) {
      // A sequence that never ends must not swallow everything after it.
      return j - i > 64 ? { next: j, dropped: input.slice(i, j) } : 'pending';
    }
    const finalCode = input.charCodeAt(j);
    if (finalCode < 0x40 || finalCode > 0x7e) {
      // Malformed: drop the introducer and read on.
      return { next: j, dropped: input.slice(i, j) };
    }
    const params = input.slice(paramStart, intermediateStart);
    const intermediates = input.slice(intermediateStart, j);
    const final = input[j]!;
    const sequence = input.slice(i, j + 1);
    const next = j + 1;

    if (params === '200' && final === '~' && intermediates === '') {
      this.mode = 'paste';
      this.pasteText = '';
      this.pasteTruncated = false;
      return { next };
    }
    const event = decodeCsi(params, intermediates, final, at);
    if (event === 'x10-mouse') {
      // ESC [ M followed by three raw bytes (only if a terminal sends mouse reports unasked).
      if (next + 3 > input.length) return 'pending';
      return { next: next + 3, dropped: input.slice(i, next + 3) };
    }
    return event ? { next, event } : { next, dropped: sequence };
  }
}

/** Pasted line endings become \n (terminals send \r for a pasted newline). */
function normalizePaste(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/**
 * When a read carries several keys and some of them are text, none of them was typed one by one:
 * mark them all, and turn a return that is followed by more text into a newline in the text (an
 * unbracketed paste of several lines must not send each line).
 */
function markBurst(events: KeyEvent[]): KeyEvent[] {
  const keys = events.filter((event) => event.name !== 'paste');
  const hasText = keys.some((event) => event.name === 'text');
  const isBurst = hasText && (keys.length > 1 || [...(keys[0]?.text ?? '')].length > 1);
  if (!isBurst) return events;
  const out: KeyEvent[] = [];
  for (let index = 0; index < events.length; index++) {
    const event = events[index]!;
    if (event.name === 'paste') {
      out.push(event);
      continue;
    }
    const textFollows = events.slice(index + 1).some((later) => later.name === 'text');
    if (event.name === 'return' && !event.ctrl && !event.meta && textFollows) {
      const previous = out[out.length - 1];
      if (previous && previous.name === 'text') out[out.length - 1] = { ...previous, text: previous.text + '\n' };
      else out.push({ ...event, name: 'text', text: '\n', burst: true });
      continue;
    }
    const merged = out[out.length - 1];
    if (event.name === 'text' && merged && merged.name === 'text' && merged.burst) {
      out[out.length - 1] = { ...merged, text: merged.text + event.text };
      continue;
    }
    out.push({ ...event, burst: true });
  }
  return out;
}
