import { describe, expect, it } from 'vitest';
import { aliasProblem } from '../../../src/services/config/schema';
import { aliasFromUrl, resolveConnectRequest } from '../../../src/services/mcp/index';
import { lookAlikeNote, nonAsciiChars, sanitizeName } from '../../../src/services/terminal/look-alike';

// docs/ARCHITECTURE.md, Security invariants 3: a name that imitates another is never shown as plain
// letters: every non-ASCII character appears as its code point, with a note that says what it is.

describe('look-alike names', () => {
  it.each([
    ['Cyrillic і in read_fіle', 'read_f\u0456le', 'read_f<U+0456>le', 'і U+0456 Cyrillic'],
    ['Cyrillic а and е', 'cr\u0435\u0430te', 'cr<U+0435><U+0430>te', 'е U+0435 Cyrillic, а U+0430 Cyrillic'],
    ['a Greek omicron', 'l\u03BFad', 'l<U+03BF>ad', 'ο U+03BF Greek'],
    ['fullwidth letters', '\uFF52ead', '<U+FF52>ead', 'ｒ U+FF52 fullwidth'],
    ['mathematical bold', `${String.fromCodePoint(0x1d42b)}ead`, '<U+1D42B>ead', `${String.fromCodePoint(0x1d42b)} U+1D42B mathematical`],
    ['a dotless i (Latin)', 'l\u0131st', 'l<U+0131>st', 'ı U+0131 Latin'],
    ['a combining accent', 'cafe\u0301', 'cafe<U+0301>', '\u0301 U+0301 symbol'],
  ])('%s is shown with its code point and named', (_what, name, shown, note) => {
    expect(sanitizeName(name)).toBe(shown);
    expect(lookAlikeNote(name)).toBe(note);
  });

  it('leaves ASCII names alone and still escapes controls and invisibles', () => {
    expect(sanitizeName('read_file')).toBe('read_file');
    expect(lookAlikeNote('read_file')).toBeUndefined();
    expect(sanitizeName('a\u001b[2Jb\u200Bc')).toBe('a\\x1b[2Jb<U+200B>c');
  });

  it('caps the note and lists each character once', () => {
    expect(nonAsciiChars('\u0430\u0430\u0430')).toHaveLength(1);
    expect(lookAlikeNote('\u0430\u0431\u0432\u0433\u0434\u0435')).toMatch(/and 2 more$/);
  });

  it('server aliases are ASCII however they are made: config, :mcp connect, a host name', async () => {
    expect(aliasProblem('f\u0455')).toMatch(/may only use letters, digits/);
    await expect(resolveConnectRequest('http://example.com/mcp', 'f\u0455', () => undefined)).rejects.toThrow(/may only use letters, digits/);
    // An internationalised host name reaches the URL as punycode.
    expect(aliasFromUrl(new URL('http://b\u043Eltzmann.example/mcp'))).toMatch(/^[a-z0-9-]+$/);
  });
});
