import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { textWidth, wrapSpans } from '../../../src/transcript/text';
import { assistant, renderView, stripSgr, tool, user, widestRow } from './helpers';

const MIXED = 'Plain words, 中文字符测试这是一个很长的句子, emoji 😀👍🏽 and 👩‍👩‍👧 family, ｆｕｌｌｗｉｄｔｈ letters, café naïve, a verylongwordthatcannotfitanywhereatall, 한국어 텍스트.';

describe('wrapping', () => {
  it('measures wide characters as two columns, like string-width', () => {
    for (const sample of ['abc', '中文', '😀', '👍🏽', '👩‍👩‍👧', 'ｆｕｌｌ', 'café', '한국어', 'e\u0301']) {
      expect(textWidth(sample), sample).toBe(stringWidth(sample));
    }
  });

  it('never makes a row wider than the width, and keeps every character in order', () => {
    for (let width = 2; width <= 60; width++) {
      const rows = wrapSpans([{ text: MIXED }], width).map(stripSgr);
      for (const row of rows) expect(stringWidth(row), `width ${width}: ${row}`).toBeLessThanOrEqual(width);
      expect(rows.join('').replace(/ /g, ''), `width ${width}`).toBe(MIXED.replace(/ /g, ''));
    }
  });

  it('a word moved to a continuation row that is narrower than the first is broken, never wider than the width', () => {
    // As a `name  description` status row hangs its rows under the description column.
    const text = 'tool  see https://example.com/a/very/long/path/that/is/one/word/of/sixty/eight/chars now';
    for (let width = 20; width <= 90; width++) {
      const hang = Math.min(width - 2, 40);
      const rows = wrapSpans([{ text }], width, { restPrefix: [{ text: '  ' }], continuationPrefix: [{ text: ' '.repeat(hang) }] }).map(stripSgr);
      for (const row of rows) expect(stringWidth(row), `width ${width}: ${JSON.stringify(row)}`).toBeLessThanOrEqual(width);
      expect(rows.join('').replace(/ /g, ''), `width ${width}`).toBe(text.replace(/ /g, ''));
    }
  });

  it('breaks East Asian text between characters, not only at spaces', () => {
    const rows = wrapSpans([{ text: 'ab 中文字符测试' }], 8).map(stripSgr);
    expect(rows).toEqual(['ab 中文', '字符测试']);
  });

  it('breaks prose at spaces and drops the spaces at the break', () => {
    expect(wrapSpans([{ text: 'the quick brown fox jumps' }], 10).map(stripSgr)).toEqual(['the quick', 'brown fox', 'jumps']);
  });

  it('a long word after a space that fills the row starts the next row, never glued to the word before', () => {
    // "hello " fills 6 cells: the URL used to go on right after "hello" ("helloh" / "ttps:/").
    expect(wrapSpans([{ text: 'hello https://example.com/a' }], 6).map(stripSgr)).toEqual(['hello', 'https:', '//exam', 'ple.co', 'm/a']);
    expect(wrapSpans([{ text: 'aaa aaa' }], 2).map(stripSgr)).toEqual(['aa', 'a', 'aa', 'a']);
  });

  it('keeps indentation at the start of a line', () => {
    expect(wrapSpans([{ text: '    indented\nnot' }], 20).map(stripSgr)).toEqual(['    indented', 'not']);
  });

  it('keeps a style across a break, each row closing what it opens', () => {
    const rows = wrapSpans([{ text: 'bold words that wrap', style: { bold: true } }], 10);
    expect(rows).toEqual(['\x1b[1mbold words\x1b[22m', '\x1b[1mthat wrap\x1b[22m']);
  });

  it('fits every kind of item with wide text into narrow and wide views', () => {
    const items = [
      user(MIXED),
      assistant(`# ${MIXED}\n\n${MIXED}\n\n- ${MIXED}\n\n> ${MIXED}\n\n| a | b |\n|---|---|\n| ${MIXED} | 中文 |\n\n\`\`\`\n${MIXED}\n\`\`\``),
      tool({ state: 'done', args: { text: MIXED }, result: MIXED }),
    ];
    for (const width of [12, 20, 37, 80, 160]) {
      const view = renderView(items, { width, height: 400 });
      expect(widestRow(view.lastFrame()), `width ${width}`).toBeLessThanOrEqual(width);
      expect(view.text()).toContain('😀');
    }
  });
});
