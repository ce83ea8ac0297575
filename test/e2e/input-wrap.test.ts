import { describe, expect, it } from 'vitest';
import { disposeAfterEach } from '../helpers/lifecycle';
import { TerminalSession } from '../helpers/terminal';

const track = disposeAfterEach();

/** The input box's text rows (between its top and bottom border), without the borders. */
async function inputRows(session: TerminalSession): Promise<string[]> {
  const lines = await session.lines();
  const top = lines.findLastIndex((line) => line.startsWith('╭'));
  const bottom = lines.findLastIndex((line) => line.startsWith('╰'));
  return lines.slice(top + 1, bottom).map((line) => line.slice(2).replace(/│$/, ''));
}

/** Screen cells drawn inverse (the input's cursor), as [row, column]. */
async function inverseCells(session: TerminalSession): Promise<Array<[number, number]>> {
  await session.lines();
  const buffer = session.term.buffer.active;
  const found: Array<[number, number]> = [];
  const cell = buffer.getNullCell();
  for (let row = 0; row < session.term.rows; row++) {
    const line = buffer.getLine(buffer.viewportY + row);
    for (let column = 0; column < session.term.cols; column++) if (line?.getCell(column, cell)?.isInverse()) found.push([row, column]);
  }
  return found;
}

describe('the input wraps at word boundaries (built binary in a pseudo-terminal)', () => {
  it('at 80x24 a word that does not fit goes to the next row whole, and the cursor follows the last character', async () => {
    const session = track(new TerminalSession({ cols: 80, rows: 24 }));
    await session.waitFor('Ask anything');
    const text = 'The quick brown fox jumps over the lazy dog and keeps running over the word / 22 hills';
    await session.typeSlowly(text, 5);
    await session.waitFor('22 hills');
    const rows = await inputRows(session);
    expect(rows).toHaveLength(2);
    // 74 cells of text: "...running over the" ends at 71; "word" needs 4 more plus the space.
    expect(rows[0]!.trimEnd()).toBe('› The quick brown fox jumps over the lazy dog and keeps running over the');
    expect(rows[1]!.trimEnd()).toBe('  word / 22 hills');
    const lines = await session.lines();
    const second = lines.findLastIndex((line) => line.includes('word / 22 hills'));
    // The cursor cell right after "hills": border, padding, prompt (4 cells), then 16 characters.
    expect(await inverseCells(session)).toEqual([[second, 4 + 'word / 22 hills'.length]]);
  });

  it('at 120x40 a row filled to the edge keeps the cursor beside it; the space typed next moves it to the next row, which never starts with that space', async () => {
    const session = track(new TerminalSession({ cols: 120, rows: 40 }));
    await session.waitFor('Ask anything');
    // 114 cells of text per row at 120 columns: words that end exactly at the edge.
    const fill = `${'abcdefghi '.repeat(11)}wxyz`;
    expect(fill).toHaveLength(114);
    await session.typeSlowly(fill, 3);
    await session.waitFor('wxyz');
    let lines = await session.lines();
    const first = lines.findLastIndex((line) => line.includes('wxyz'));
    expect(await inputRows(session)).toHaveLength(1);
    // The spare cell right of the text, just inside the border.
    expect(await inverseCells(session)).toEqual([[first, 4 + 114]]);
    await session.typeSlowly(' next');
    await session.waitFor('next');
    const rows = await inputRows(session);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.trimEnd()).toBe('  next');
    // The box grew by a row (upwards): the cursor is on its last row, right after "next".
    lines = await session.lines();
    const second = lines.findLastIndex((line) => line.includes('next'));
    expect(lines[second - 1]).toContain('wxyz');
    expect(await inverseCells(session)).toEqual([[second, 4 + 'next'.length]]);
  });
});
