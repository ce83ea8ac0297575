import { describe, expect, it } from 'vitest';
import { askBackground, backgroundFromEnv, backgroundFromReply } from '../../../src/terminal/background';
import { KeyInput } from '../../../src/terminal/keyboard/keyInput';
import type { KeyEvent } from '../../../src/terminal/keyboard/keys';
import { notifyMethodFor, notifySequence } from '../../../src/terminal/notify';

// The terminal's answers (focus reports, the OSC 11 colour) reach KeyInput.onReply and never the
// keys; the background decides the theme (README.md, "Themes", "Notifications").
function reader() {
  const input = new KeyInput({ on: () => undefined });
  const keys: KeyEvent[] = [];
  const replies: string[] = [];
  input.subscribe((key) => {
    keys.push(key);
    return true;
  });
  input.onReply((reply) => replies.push(reply));
  return { input, keys, replies };
}

describe('terminal replies', () => {
  it('focus reports and an OSC 11 answer are replies, not keys, however the reads split them', () => {
    const { input, keys, replies } = reader();
    input.feed('a\x1b[Ob');
    input.feed('\x1b]11;rgb:ffff/ffff/');
    input.feed('ffff\x1b');
    input.feed('\\c\x1b[I');
    expect(keys.map((key) => key.text).join('')).toBe('abc');
    expect(replies).toEqual(['\x1b[O', '\x1b]11;rgb:ffff/ffff/ffff', '\x1b[I']);
  });

  it('reads the background from the reply (1 to 4 hex digits a channel) or COLORFGBG', () => {
    expect(backgroundFromReply('\x1b]11;rgb:ffff/ffff/ffff')).toBe('light');
    expect(backgroundFromReply('\x1b]11;rgb:1e1e/1e1e/2e2e')).toBe('dark');
    expect(backgroundFromReply('\x1b]11;rgb:f/f/e')).toBe('light');
    expect(backgroundFromReply('\x1b]10;rgb:ffff/ffff/ffff')).toBeUndefined();
    expect(backgroundFromEnv({ COLORFGBG: '0;15' })).toBe('light');
    expect(backgroundFromEnv({ COLORFGBG: '15;default;0' })).toBe('dark');
    expect(backgroundFromEnv({})).toBeUndefined();
  });

  it('asks once and gives up after the timeout when the terminal does not answer', async () => {
    const { input } = reader();
    const written: string[] = [];
    const answered = askBackground({ write: (sequence) => (written.push(sequence), true), onReply: (listener) => input.onReply(listener), timeoutMs: 50 });
    input.feed('\x1b]11;rgb:0000/0000/0000\x07');
    await expect(answered).resolves.toBe('dark');
    expect(written).toEqual(['\x1b]11;?\x07']);
    await expect(askBackground({ write: () => true, onReply: () => () => {}, timeoutMs: 20 })).resolves.toBeUndefined();
  });

  it('notifies with OSC 9 or OSC 777 where the terminal shows them, the bell elsewhere and inside tmux', () => {
    expect(notifyMethodFor('auto', { TERM_PROGRAM: 'WezTerm' })).toBe('osc9');
    expect(notifyMethodFor('auto', { VTE_VERSION: '7600' })).toBe('osc777');
    expect(notifyMethodFor('auto', { TERM_PROGRAM: 'iTerm.app', TMUX: '/tmp/tmux' })).toBe('bell');
    expect(notifyMethodFor('auto', { TERM: 'xterm-256color' })).toBe('bell');
    expect(notifyMethodFor('off', { TERM_PROGRAM: 'WezTerm' })).toBe('off');
    expect(notifySequence('osc9', 'aish-tui', 'done')).toBe('\x1b]9;aish-tui: done\x07');
    expect(notifySequence('osc777', 'aish-tui', 'a;b\x1b')).toBe('\x1b]777;notify;aish-tui;a b \x07');
    expect(notifySequence('bell', 'aish-tui', 'done')).toBe('\x07');
  });
});
