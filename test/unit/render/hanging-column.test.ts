import { describe, expect, it } from 'vitest';
import { hangingColumn } from '../../../src/transcript/items';

// Where the wrapped rows of a status line continue (the `:` commands' listings).
describe('the hanging column of a status line', () => {
  it('is the description column of a row with columns between (`:mcp tools`: cost, state, description)', () => {
    const row = 'builtin__calculator   246 tok  on            Evaluate an arithmetic expression: + - * / % ^ (or **), parentheses';
    expect(hangingColumn(row, 96)).toBe(row.indexOf('Evaluate'));
  });

  it('is the second column of a two-column row, and the line’s indentation without columns', () => {
    expect(hangingColumn('  :model [name]   pick a model (configured, or offered by a configured server)', 80)).toBe(18);
    expect(hangingColumn('    a plain line of text that wraps on its own without any columns at all', 60)).toBe(4);
  });

  it('is the second column when the last leaves no room, never one between, else a small indent, else none', () => {
    const row = `name  ${'x'.repeat(40)}  tail text that goes on`;
    // The last column (46) would leave 14 of 60: the second (6) leaves room.
    expect(hangingColumn(row, 60)).toBe(6);
    // A column between (18, a cost or a state) is no block of text, even with room under it.
    expect(hangingColumn(`name  ${'x'.repeat(10)}  ${'z'.repeat(30)}  tail text`, 60)).toBe(6);
    expect(hangingColumn(`${'y'.repeat(50)}  text`, 60)).toBe(4);
    expect(hangingColumn(`${'y'.repeat(20)}  text`, 26)).toBe(0);
  });
});
