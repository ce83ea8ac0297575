import { describe, expect, it } from 'vitest';
import type { KeyEvent } from '../../../src/terminal/keyboard/keys';
import { KeyTokenizer, MAX_PASTE_CHARS } from '../../../src/terminal/keyboard/tokenizer';

const names = (events: KeyEvent[]) => events.map((event) => (event.name === 'text' || event.name === 'paste' ? `${event.name}:${event.text}` : event.name));

function read(...chunks: string[]) {
  const tokenizer = new KeyTokenizer();
  const events: KeyEvent[] = [];
  const dropped: string[] = [];
  chunks.forEach((chunk, index) => {
    const result = tokenizer.push(chunk, index);
    events.push(...result.events);
    dropped.push(...result.dropped);
  });
  return { events, dropped, tokenizer };
}

describe('key tokenizer: keys', () => {
  it('reads a typed character as text, one read per key', () => {
    const { events } = read('a', 'b');
    expect(names(events)).toEqual(['text:a', 'text:b']);
    expect(events.every((event) => !event.burst && !event.paste)).toBe(true);
  });

  it('reads control characters as Ctrl keys, never as letters', () => {
    const { events } = read('\x04', '\x13', '\x03', '\x0a', '\x01');
    expect(events.map((event) => [event.name, event.ctrl])).toEqual([
      ['char:d', true],
      ['char:s', true],
      ['char:c', true],
      ['char:j', true],
      ['char:a', true],
    ]);
    expect(events.some((event) => event.name === 'text')).toBe(false);
  });

  it('reads Enter, Tab, Backspace, arrows, paging, Home/End and Delete', () => {
    const { events } = read('\r', '\t', '\x7f', '\x1b[A', '\x1b[B', '\x1b[C', '\x1b[D', '\x1b[5~', '\x1b[6~', '\x1b[H', '\x1b[F', '\x1bOH', '\x1b[3~', '\x1b[Z');
    expect(names(events)).toEqual(['return', 'tab', 'backspace', 'up', 'down', 'right', 'left', 'pageup', 'pagedown', 'home', 'end', 'home', 'delete', 'tab']);
    expect(events[events.length - 1]!.shift).toBe(true);
  });

  it('reads modifiers on arrows and Alt+letter / Alt+Enter', () => {
    const { events } = read('\x1b[1;5D', '\x1bb', '\x1bf', '\x1b\r', '\x1b\x7f');
    expect(events[0]).toMatchObject({ name: 'left', ctrl: true });
    expect(events[1]).toMatchObject({ name: 'char:b', meta: true });
    expect(events[2]).toMatchObject({ name: 'char:f', meta: true });
    expect(events[3]).toMatchObject({ name: 'return', meta: true });
    expect(events[4]).toMatchObject({ name: 'backspace', meta: true });
  });

  it('reads xterm modifyOtherKeys and kitty CSI-u forms of Shift/Ctrl+Enter', () => {
    const { events } = read('\x1b[27;2;13~', '\x1b[13;5u');
    expect(events[0]).toMatchObject({ name: 'return', shift: true });
    expect(events[1]).toMatchObject({ name: 'return', ctrl: true });
  });

  it('holds a lone ESC until flushed, and joins a sequence split across reads', () => {
    const tokenizer = new KeyTokenizer();
    expect(tokenizer.push('\x1b', 0).events).toEqual([]);
    expect(tokenizer.hasPending).toBe(true);
    expect(names(tokenizer.push('[A', 1).events)).toEqual(['up']);
    expect(tokenizer.push('\x1b', 2).events).toEqual([]);
    expect(names(tokenizer.flush(3))).toEqual(['escape']);
    expect(tokenizer.hasPending).toBe(false);
  });
});

describe('key tokenizer: bracketed paste', () => {
  it('delivers a paste whole, newlines as \\n, with a leading : kept as text', () => {
    const { events } = read('\x1b[200~:quit\rline two\r\nline three\x1b[201~');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ name: 'paste', text: ':quit\nline two\nline three', paste: true });
  });

  it('joins a paste split across many reads, even inside the markers', () => {
    const { events } = read('\x1b[20', '0~hel', 'lo\r', 'wor', 'ld\x1b[2', '01', '~', 'x');
    expect(names(events)).toEqual(['paste:hello\nworld', 'text:x']);
    expect(events[1]!.paste).toBe(false);
  });

  it('cuts a paste larger than the limit and says so', () => {
    const tokenizer = new KeyTokenizer();
    const events = [
      ...tokenizer.push('\x1b[200~' + 'x'.repeat(MAX_PASTE_CHARS - 10), 0).events,
      ...tokenizer.push('y'.repeat(100) + '\x1b[201~', 1).events,
    ];
    expect(events).toHaveLength(1);
    expect(events[0]!.text.length).toBe(MAX_PASTE_CHARS);
    expect(events[0]!.truncated).toBe(true);
    expect(tokenizer.push('\x1b[200~small\x1b[201~', 2).events[0]!.truncated).toBeUndefined();
  });

  it('keeps escape sequences inside a paste as text (the display escapes them), not as keys', () => {
    const { events } = read('\x1b[200~a\x1b[Ab\x03c\x1b[201~');
    expect(events).toHaveLength(1);
    expect(events[0]!.text).toBe('a\x1b[Ab\x03c');
  });
});

describe('key tokenizer: terminal replies are never keys', () => {
  const replies: Array<[string, string]> = [
    ['cursor position report', '\x1b[12;40R'],
    ['primary device attributes', '\x1b[?64;1;2;6;9;15;18;21;22c'],
    ['secondary device attributes', '\x1b[>41;354;0c'],
    ['mode report (DECRPM)', '\x1b[?2026;2$y'],
    ['kitty keyboard flags', '\x1b[?0u'],
    ['focus in / out', '\x1b[I\x1b[O'],
    ['window size report', '\x1b[8;24;80t'],
    ['OSC colour reply ended by ST', '\x1b]11;rgb:0000/0000/0000\x1b\\'],
    ['OSC reply ended by BEL', '\x1b]10;rgb:ffff/ffff/ffff\x07'],
    ['DCS reply (XTVERSION)', '\x1bP>|xterm(390)\x1b\\'],
    ['APC reply (kitty graphics)', '\x1b_Gi=1;OK\x1b\\'],
    ['SGR mouse report', '\x1b[<0;10;5M'],
  ];
  for (const [what, reply] of replies) {
    it(`drops a ${what}`, () => {
      const { events, dropped } = read(`a${reply}b`);
      expect(events.map((event) => event.text).join('')).toBe('ab');
      expect(events.every((event) => event.name === 'text')).toBe(true);
      expect(dropped.length).toBeGreaterThan(0);
    });
  }

  it('drops a reply split across reads, one byte at a time', () => {
    const reply = '\x1b]11;rgb:1234/5678/9abc\x1b\\\x1b[24;80R';
    const { events } = read(...reply.split(''), 'y');
    expect(names(events)).toEqual(['text:y']);
  });
});

describe('key tokenizer: bursts (typed ahead or pasted without markers)', () => {
  it('marks several keys in one read, and a return followed by more text becomes a newline', () => {
    const { events } = read('one\rtwo\r');
    expect(names(events)).toEqual(['text:one\ntwo', 'return']);
    expect(events.every((event) => event.burst)).toBe(true);
  });

  it('marks a single multi-character read as a burst but leaves a lone key alone', () => {
    expect(read('yes').events[0]!.burst).toBe(true);
    expect(read('y').events[0]!.burst).toBe(false);
    expect(read('\r').events[0]!.burst).toBe(false);
  });
});
