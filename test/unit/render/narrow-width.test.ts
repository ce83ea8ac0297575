import { describe, expect, it } from 'vitest';
import inkStringWidth from '../../../node_modules/ink/node_modules/string-width/index.js';
import stringWidth from 'string-width';
import { narrowWidth, NARROW_RANGES, NOT_NARROW, withNarrowFastPath } from '../../../src/terminal/narrow-width';

describe('narrow-width fast path in front of string-width', () => {
  it('measures every character of its ranges as both installed string-width versions do', () => {
    const differ: string[] = [];
    for (const [from, to] of NARROW_RANGES) {
      for (let code = from; code <= to; code++) {
        const text = String.fromCharCode(code);
        const fast = narrowWidth(text);
        if (fast === undefined) {
          if (!NOT_NARROW.has(code)) differ.push(`U+${code.toString(16)} not taken`);
          continue;
        }
        if (fast !== inkStringWidth(text) || fast !== stringWidth(text)) differ.push(`U+${code.toString(16)}: ${fast} / ${inkStringWidth(text)} / ${stringWidth(text)}`);
      }
    }
    expect(differ).toEqual([]);
  });

  it('gives the same widths as string-width for chrome, styled text and everything it leaves alone', () => {
    const wrapped = withNarrowFastPath(inkStringWidth);
    const samples = ['', 'plain', '› Ask anything', '\x1b[1m● srv00\x1b[22m stdio 50 4.1k', '└ tickets_list …', '⠙ waiting', 'e\u0301', '👍 ok', '漢字', '©', '\u00ad', 'a\u200bb', 'tab\there', '\x9b31mred', '\x1b]8;;http://x\x07link\x1b]8;;\x07', '\x1b[38;2;1;2;3m●\x1b[39m'];
    for (const text of samples) expect([text, wrapped(text)]).toEqual([text, inkStringWidth(text)]);
    // Left to string-width: emoji, wide, combining and invisible characters, and non-default options.
    for (const text of ['👍', '漢', 'e\u0301', '\u00ad', 'a\u200bb', '©']) expect(narrowWidth(text)).toBeUndefined();
    expect(narrowWidth('abc', { countAnsiEscapeCodes: true })).toBeUndefined();
    expect(narrowWidth('abc', { ambiguousIsNarrow: false })).toBeUndefined();
  });
});
