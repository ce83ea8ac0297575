import { describe, expect, it } from 'vitest';
import { sanitize, sanitizeLabel, sanitizeStrict } from '../../../src/services/terminal/sanitize';

const ESC = '\x1b';

describe('sanitize', () => {
  it('leaves ordinary text, newlines and emoji alone', () => {
    const text = 'Hello, wörld! 👩‍💻 ✓\nsecond line';
    expect(sanitize(text)).toBe(text);
  });

  it('escapes CSI, OSC, DCS, BEL, DEL and 8-bit C1 controls', () => {
    expect(sanitize(`${ESC}[2J${ESC}]52;c;aGk=\x07${ESC}P1$r\x9b31m\x7f`)).toBe('\\x1b[2J\\x1b]52;c;aGk=\\x07\\x1bP1$r\\x9b31m\\x7f');
  });

  it('shows a lone carriage return instead of obeying it, but keeps CRLF as a line end', () => {
    expect(sanitize('safe\rEVIL')).toBe('safe\\rEVIL');
    expect(sanitize('a\r\nb')).toBe('a\nb');
  });

  it('expands tabs to spaces in text and shows them in strict views', () => {
    expect(sanitize('a\tb')).toBe('a   b');
    expect(sanitizeStrict('a\tb')).toBe('a\\tb');
  });

  it('marks bidi overrides everywhere and invisible characters in strict and label views', () => {
    expect(sanitize('abc\u202Eevil')).toBe('abc<U+202E>evil');
    // Joiners stay in prose (emoji, scripts); zero-width spaces, BOMs and tags never hide there.
    expect(sanitize('👩\u200D💻 \u2764\uFE0F')).toBe('👩\u200D💻 \u2764\uFE0F');
    expect(sanitize('zero\u200Bwidth\uFEFF\u00AD')).toBe('zero<U+200B>width<U+FEFF><U+00AD>');
    expect(sanitize('hidden\u{E0069}\u{E0067}')).toBe('hidden<U+E0069><U+E0067>');
    const scotland = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}';
    expect(sanitize(`flag ${scotland} ok`)).toBe(`flag ${scotland} ok`);
    expect(sanitize('\u{1F3F4}\u{E0067}no-cancel')).toBe('\u{1F3F4}<U+E0067>no-cancel');
    expect(sanitizeStrict(`flag ${scotland}`)).toContain('<U+E0067>');
    expect(sanitizeStrict('zero\u200Bwidth\u00AD\uFEFF')).toBe('zero<U+200B>width<U+00AD><U+FEFF>');
    expect(sanitizeLabel('tag\u{E0041}')).toBe('tag<U+E0041>');
  });

  it('replaces lone surrogates', () => {
    expect(sanitize('a\uD800b')).toBe('a\uFFFDb');
  });

  it('keeps labels on one line', () => {
    expect(sanitizeLabel('name\nsecond')).toBe('name\\nsecond');
  });

  it('never lets an escape byte through, for any code point below U+00A0', () => {
    for (let code = 0; code < 0xa0; code++) {
      const out = sanitizeStrict(`x${String.fromCharCode(code)}y`);
      expect(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/.test(out), `U+${code.toString(16)}`).toBe(false);
    }
  });
});
