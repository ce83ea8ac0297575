import xtermHeadless from '@xterm/headless';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { overErasedCells, stylesInForce } from '../../../src/terminal/sgr-state';

// Text written over cells that were just erased may skip spaces nothing shows on and styles that
// are switched on and straight off: the terminal must show exactly the same cells either way.

const { Terminal } = xtermHeadless;
const COLUMNS = 60;

async function cellsAfter(data: string): Promise<string[]> {
  const term = new Terminal({ cols: COLUMNS, rows: 2, allowProposedApi: true, scrollback: 0 });
  try {
    // The row holds something first, so an erase that did not happen would show.
    await new Promise<void>((resolve) => term.write(`${'#'.repeat(COLUMNS)}\x1b[1;1H\x1b[0m\x1b[K${data}\x1b[0m`, resolve));
    const line = term.buffer.active.getLine(0)!;
    const cell = term.buffer.active.getNullCell();
    const cells: string[] = [];
    for (let column = 0; column < COLUMNS; column++) {
      line.getCell(column, cell);
      const char = cell.getChars() || ' ';
      // A blank shows only its background, inverse, underline and strike-through; a letter shows all.
      const glyph = char === ' ' && !cell.isInverse() ? [] : [cell.getFgColorMode(), cell.getFgColor(), cell.isBold(), cell.isDim(), cell.isItalic()];
      cells.push([char, ...glyph, cell.getBgColorMode(), cell.getBgColor(), cell.isUnderline(), cell.isInverse(), cell.isStrikethrough()].join(','));
    }
    return cells;
  } finally {
    term.dispose();
  }
}

const part = fc.constantFrom(
  'text', ' ', '     ', '        ', '\x1b[31m', '\x1b[39m', '\x1b[1m', '\x1b[22m', '\x1b[2m', '\x1b[4m', '\x1b[24m', '\x1b[7m', '\x1b[27m',
  '\x1b[9m', '\x1b[29m', '\x1b[44m', '\x1b[49m', '\x1b[48;5;17m', '\x1b[38;2;1;2;3m', '\x1b[0m', '\x1b[m', '\x1b[35m\x1b[39m', '\x1b[1m\x1b[22m', '│',
);

describe('text over erased cells', () => {
  it('shows the same cells as the text itself', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(part, { maxLength: 14 }), async (parts) => {
        const text = parts.join('');
        expect(await cellsAfter(overErasedCells(text))).toEqual(await cellsAfter(text));
      }),
      { numRuns: 400 },
    );
  });

  it('is shorter where spaces and empty styles can go', () => {
    const sidebarRow = ` \x1b[90m│\x1b[39m${' '.repeat(30)}\x1b[90m│\x1b[39m`;
    expect(overErasedCells(sidebarRow)).toBe(` \x1b[90m│\x1b[39m\x1b[30C\x1b[90m│\x1b[39m`);
    expect(overErasedCells(`\x1b[35m\x1b[39m\x1b[34mstep\x1b[39m(`)).toBe(`\x1b[34mstep\x1b[39m(`);
    expect(overErasedCells(`done${' '.repeat(20)}`)).toBe('done');
  });

  it('keeps spaces a style shows on, and pairs that switch something else off', () => {
    const underlined = `\x1b[4m${' '.repeat(8)}\x1b[24m`;
    expect(overErasedCells(underlined)).toBe(underlined);
    const background = `\x1b[44m${' '.repeat(8)}x\x1b[49m`;
    expect(overErasedCells(background)).toBe(background);
    // 22 also ends dim, which is on: the pair is not a no-op.
    const dim = '\x1b[2mdim\x1b[1m\x1b[22mplain';
    expect(overErasedCells(dim)).toBe(dim);
    const green = '\x1b[32mgreen\x1b[31m\x1b[39mplain';
    expect(overErasedCells(green)).toBe(green);
  });

  it('puts back the style in force after a prefix with the fewest sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(part, { maxLength: 12 }), async (parts) => {
        const prefix = parts.join('');
        const everySequence = prefix.match(/\x1b\[[0-9;:]*m/g)?.join('') ?? '';
        // The same letter after every sequence of the prefix, and after only those that matter.
        expect((await cellsAfter(`${stylesInForce(prefix)}X`))[0]).toEqual((await cellsAfter(`${everySequence}X`))[0]);
      }),
      { numRuns: 300 },
    );
    expect(stylesInForce('\x1b[1mbold\x1b[22m \x1b[33mcode\x1b[39m and ')).toBe('');
    expect(stylesInForce('\x1b[1mbold\x1b[22m \x1b[4m\x1b[36mli')).toBe('\x1b[4m\x1b[36m');
  });
});
