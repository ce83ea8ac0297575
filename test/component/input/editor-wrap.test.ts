import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wrapSpans } from '../../../src/transcript/text';
import { cursorPosition, layoutEditor, offsetAt, type EditorLayout } from '../../../src/ui/panels/editorLayout';
import { editorRows } from '../../../src/ui/panels/editorView';
import { lineWidth, type Line } from '../../../src/ui/panels/text';

/** A row as text, the cursor cell shown as `▮` (or the character under it in brackets). */
function rowText(row: Line): string {
  return row.map((seg) => (seg.tone === 'cursor' ? (seg.text === ' ' ? '▮' : `[${seg.text}]`) : seg.text)).join('');
}

function rows(text: string, columns: number, cursor = text.length): string[] {
  return editorRows({ text, pastes: {}, cursor }, columns).rows.map(rowText);
}

/** The visible text of each laid-out row (hanging spaces are not drawn). */
function visibleRows(layout: EditorLayout): string[] {
  return layout.rows.map((row) =>
    row
      .filter((placed) => !placed.hanging && placed.token.kind !== 'newline')
      .map((placed) => placed.token.text)
      .join(''),
  );
}

/** Every cursor offset: each character's start (a surrogate pair is one character) and the end. */
function offsets(text: string): number[] {
  const out: number[] = [];
  let index = 0;
  for (const char of text) {
    out.push(index);
    index += char.length;
  }
  out.push(text.length);
  return out;
}

describe('input editor: soft wrapping at word boundaries', () => {
  it('moves a word that does not fit to the next row, whole (the transcript wrapped "word / 22" there, the input split "wor" / "d")', () => {
    expect(rows('keeps running over the word / 22 hills', 20)).toEqual(['keeps running over ', 'the word / 22 hills▮']);
    expect(rows('the lazy dog and keeps running over the word / 22', 36)).toEqual(['the lazy dog and keeps running over ', 'the word / 22▮']);
  });

  it('never starts a row with the space it broke at', () => {
    // "aaaa" fills the row: the space after it hangs at the row's end, "bb" starts the next row.
    expect(rows('aaaa bb', 4)).toEqual(['aaaa', 'bb▮']);
    expect(rows('aaaa   bb', 4)).toEqual(['aaaa', 'bb▮']);
    expect(rows('one two three four', 9)).toEqual(['one two ', 'three ', 'four▮']);
  });

  it('keeps the cursor right after the last character typed, and at the start of the next row after a wrap', () => {
    // A word filling the row: the cursor in the spare cell right of it (the word may go on).
    expect(rows('aaaa', 4)).toEqual(['aaaa▮']);
    // A space typed there: the break; the next character goes to the next row, and so does the cursor.
    expect(rows('aaaa ', 4)).toEqual(['aaaa', '▮']);
    expect(rows('aaa ', 4)).toEqual(['aaa ', '▮']);
    expect(rows('aaa b', 4)).toEqual(['aaa ', 'b▮']);
    // The cursor on a space hanging at the break is drawn in the spare cell.
    expect(rows('aaaa bb', 4, 4)).toEqual(['aaaa▮', 'bb']);
    expect(rows('aaaa bb', 4, 5)).toEqual(['aaaa', '[b]b']);
  });

  it('breaks a word longer than the row between characters, and wide East Asian text anywhere, like the transcript', () => {
    expect(rows('aaaaaaaaaa bb', 4)).toEqual(['aaaa', 'aaaa', 'aa ', 'bb▮']);
    expect(rows('界界界界界 ab', 5)).toEqual(['界界', '界界', '界 ab▮']);
    expect(rows('ab 😀😀😀', 5)).toEqual(['ab 😀', '😀😀▮']);
    expect(rows('ab 😀😀', 5)).toEqual(['ab ', '😀😀▮']);
  });

  it('keeps indentation and newlines, and a newline at the end of a full row takes no row of its own', () => {
    expect(rows('  indented text', 10)).toEqual(['  indented', 'text▮']);
    expect(rows('aaaa\nbb', 4, 4)).toEqual(['aaaa▮', 'bb']);
    expect(rows('one\n\ntwo', 10)).toEqual(['one', '', 'two▮']);
  });

  it('escapes control characters and shows paste chips as one piece', () => {
    expect(rows('a\x1bb', 10)).toEqual(['a\\x1bb▮']);
    const chip = String.fromCharCode(0xe000);
    const view = editorRows({ text: `see ${chip} here`, pastes: { [chip]: 'x\n'.repeat(9) }, cursor: 0 }, 18).rows.map(rowText);
    expect(view).toEqual(['[s]ee ', '[pasted 9 lines] ', 'here']);
  });
});

/** Text like what people type: words of letters, punctuation, CJK and emoji, runs of spaces, newlines. */
const typed = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.stringMatching(/^[a-z]{1,12}$/) },
      { weight: 3, arbitrary: fc.constantFrom(' ', ' ', ' ', '  ', '   ') },
      { weight: 1, arbitrary: fc.constantFrom('/', '22', '-', '.', ',', 'x'.repeat(30)) },
      { weight: 1, arbitrary: fc.constantFrom('界', '界界界', '한국어', '😀', '😀😀', 'é', 'ａｂ') },
      { weight: 1, arbitrary: fc.constantFrom('\n', '\t', '\x1b') },
    ),
    { maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('input editor: the cursor mapping (property)', () => {
  it('maps every offset to its own (row, col), in order, and back', () => {
    fc.assert(
      fc.property(typed, fc.integer({ min: 2, max: 40 }), (text, columns) => {
        const layout = layoutEditor({ text, pastes: {} }, columns);
        const all = offsets(text);
        expect(layout.positions.map((position) => position.offset)).toEqual(all);
        let previous: { row: number; col: number } | undefined;
        for (const offset of all) {
          const position = cursorPosition(layout, offset);
          expect(offsetAt(layout, position.row, position.col)).toBe(offset);
          if (previous) expect(position.row > previous.row || (position.row === previous.row && position.col > previous.col)).toBe(true);
          previous = position;
        }
      }),
      { numRuns: 500 },
    );
  });

  it('draws every row within the width (the cursor alone may take the spare cell), the cursor on its row, nothing lost', () => {
    fc.assert(
      fc.property(typed, fc.integer({ min: 2, max: 40 }), fc.nat(), (text, columns, pick) => {
        const all = offsets(text);
        const cursor = all[pick % all.length]!;
        const view = editorRows({ text, pastes: {}, cursor }, columns);
        const layout = layoutEditor({ text, pastes: {} }, columns);
        expect(view.rows).toHaveLength(layout.rows.length);
        view.rows.forEach((row, index) => {
          const cursorHere = row.some((seg) => seg.tone === 'cursor');
          expect(lineWidth(row)).toBeLessThanOrEqual(columns + (cursorHere ? 1 : 0));
          expect(cursorHere).toBe(index === view.cursorRow);
        });
        expect(view.cursorRow).toBe(cursorPosition(layout, cursor).row);
        // Every character is on some row, in order.
        const placed = layout.rows.flat().map((entry) => entry.token.index);
        expect(placed).toEqual(all.slice(0, -1));
      }),
      { numRuns: 500 },
    );
  });

  it('wraps like the transcript: the same words on the same rows, and no row starts with the space it broke at', () => {
    // Lines without indentation (the transcript trims indentation to the row; the input keeps it).
    const prose = typed.map((text) =>
      text
        .replace(/[\t\x1b]/g, '')
        .split('\n')
        .map((line) => line.trimStart())
        .join('\n'),
    );
    fc.assert(
      fc.property(prose, fc.integer({ min: 2, max: 40 }), (text, columns) => {
        const layout = layoutEditor({ text, pastes: {} }, columns);
        const mine = visibleRows(layout).map((row) => row.trimEnd());
        const transcript = wrapSpans([{ text }], columns).map((row) => row.trimEnd());
        // The input keeps a row for the cursor after a break at the very end of the text.
        const last = layout.positions[layout.positions.length - 1]!;
        const extra = layout.rows.length > transcript.length && last.col === 0 && mine[mine.length - 1] === '' ? mine.slice(0, -1) : mine;
        expect(extra).toEqual(transcript);
        for (const [index, row] of layout.rows.entries()) {
          const first = row[0];
          const continues = index > 0 && layout.rows[index - 1]!.every((placed) => placed.token.kind !== 'newline');
          if (continues && first) expect(first.token.kind).not.toBe('space');
        }
      }),
      { numRuns: 500 },
    );
  });
});
