import { describe, expect, it } from 'vitest';
import { layoutItem } from '../../../src/transcript/items';
import { chatStyles } from '../../../src/transcript/style';
import { closeDanglingMarkup, completeStreamingTail } from '../../../src/transcript/streamingTail';
import type { ChatItem } from '../../../src/state/types';
import { colourTheme, stripSgr } from './helpers';

const ctx = { styles: chatStyles(colourTheme), reasoningCollapsed: false, expanded: false, now: 0 };

function draw(id: string, text: string, streaming: boolean, version = 0, width = 80): string[] {
  const item: ChatItem = { kind: 'assistant', id, version, text, reasoning: '', streaming };
  return layoutItem(item, width, ctx).lines;
}

/** What the reader sees: the characters on screen, spacing collapsed (wrapping aside). */
function visible(lines: readonly string[]): string {
  return stripSgr(lines.join(' ')).replace(/\s+/g, ' ').trim();
}

const ANSWERS = [
  'Use **bold words** for emphasis, *italics* for titles, `inline code` for names, and ~~strike~~ for corrections.',
  '- **Step one**: run `npm install`\n- **Step two**: read *the docs* carefully\n\n> _Note_: **never** skip it.',
  '## A **strong** heading\n\nThen ***both at once*** and `code with **stars** inside` end the answer.',
];

describe('the streaming tail of an answer', () => {
  it('never shows a marker that later disappears: each frame is a prefix of the finished text', () => {
    for (const [index, answer] of ANSWERS.entries()) {
      const finished = visible(draw(`final-${index}`, answer, false));
      // The markup took effect (stars inside a code span stay, as written).
      expect(finished).not.toMatch(/`|~~|\*\*(Step|never|strong|bold)/);
      for (let end = 1; end <= answer.length; end++) {
        const frame = visible(draw(`stream-${index}`, answer.slice(0, end), true, end));
        expect(finished.startsWith(frame), `after ${JSON.stringify(answer.slice(0, end))} the screen shows ${JSON.stringify(frame)}`).toBe(true);
      }
    }
  });

  it('draws a half-typed bold or code span styled as it will end', () => {
    const bold = draw('bold', 'This is **importa', true).join('\n');
    expect(stripSgr(bold)).toBe('This is importa');
    expect(bold).toMatch(/\x1b\[1mimporta\x1b\[(22|0)m/);
    const code = draw('code', 'Run `npm ins', true).join('\n');
    expect(stripSgr(code)).toBe('Run npm ins');
    expect(code).toMatch(/\x1b\[33mnpm ins/);
  });

  it('finished answers and finished blocks render exactly as written', () => {
    expect(stripSgr(draw('done', 'an **unclosed marker', false).join('\n'))).toBe('an **unclosed marker');
    // While streaming, only the last block's last line is completed; an earlier block keeps its stars.
    const rows = draw('earlier', 'an **unclosed marker\n\nand **now', true, 1).map(stripSgr);
    expect(rows).toEqual(['an **unclosed marker', '', 'and now']);
  });

  it('leaves code blocks, tables and bullets alone', () => {
    const fence = 'Here:\n\n```py\nx = a ** b * `c';
    expect(completeStreamingTail(fence)).toBe(fence);
    const table = '| a | b |\n|---|---|\n| **x | y';
    expect(completeStreamingTail(table)).toBe(table);
    expect(completeStreamingTail('Intro\n\n* ')).toBe('Intro\n\n* ');
    expect(completeStreamingTail('- item\n- **it')).toBe('- item\n- **it**');
    // `- *` is an empty nested item until its next character says otherwise.
    expect(completeStreamingTail('- item\n- *')).toBe('- item\n- ');
  });

  it('closes what is open and hides what has only just arrived', () => {
    const cases: Array<[string, string]> = [
      ['**bol', '**bol**'],
      ['**bold*', '**bold**'],
      ['**bold ', '**bold** '],
      ['see **', 'see '],
      ['**', ''],
      ['`cod', '`cod`'],
      ['use `', 'use'],
      ['**see `foo', '**see `foo`**'],
      ['***x', '***x***'],
      ['~~gone', '~~gone~~'],
      ['- **item', '- **item**'],
      ['> _quote', '> _quote_'],
      ['_it_ and __b', '_it_ and __b__'],
    ];
    for (const [line, expected] of cases) expect(closeDanglingMarkup(line), line).toBe(expected);
  });

  it('does not take arithmetic, identifiers, URLs or escapes for markup', () => {
    for (const line of ['2*3 = 6', 'a * b', 'snake_case_', 'foo**bar', '~100 ms', 'https://example.com/_private', '\\*not emphasis', '**bold**', '`done`']) {
      expect(closeDanglingMarkup(line), line).toBe(line);
    }
  });
});
