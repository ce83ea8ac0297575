import sliceAnsi from 'slice-ansi';
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { isWholeStyledLine } from '../../../src/terminal/uncut-line';

const esc = (codes: string) => `\x1b[${codes}m`;
/** Styles as chalk writes them: an opening code, the text, the closing code. */
const STYLES: Array<[string, string]> = [
  ['1', '22'], ['2', '22'], ['3', '23'], ['4', '24'], ['7', '27'], ['9', '29'],
  ['31', '39'], ['90', '39'], ['38;5;208', '39'], ['38;2;10;20;30', '39'], ['44', '49'], ['48;5;17', '49'], ['103', '49'],
];
const TEXTS = ['MCP servers', 'none configured · c connects', ' ', 'a', '› ask anything', '─────', '✓ ready', '日本語', 'e\u0301', '👍🏽 ok', ''];

/** A deterministic stream of pseudo-random numbers, so a failure can be reproduced. */
function numbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function styledLine(next: () => number): string {
  let line = '';
  const parts = 1 + Math.floor(next() * 4);
  for (let part = 0; part < parts; part++) {
    const text = TEXTS[Math.floor(next() * TEXTS.length)]!;
    const layers = Math.floor(next() * 3);
    let open = '';
    let close = '';
    for (let layer = 0; layer < layers; layer++) {
      const [on, off] = STYLES[Math.floor(next() * STYLES.length)]!;
      open += esc(on);
      close = esc(off) + close;
    }
    line += open + text + close;
  }
  return line;
}

describe('a line that fits its clip whole', () => {
  it('is what slice-ansi gives back for every line it is said to be whole', () => {
    const next = numbers(7);
    let whole = 0;
    for (let sample = 0; sample < 3000; sample++) {
      const line = styledLine(next);
      if (!isWholeStyledLine(line)) continue;
      whole += 1;
      expect(sliceAnsi(line, 0, stringWidth(line)), JSON.stringify(line)).toBe(line);
    }
    // Most generated lines qualify, so the comparison above covers many shapes.
    expect(whole).toBeGreaterThan(2000);
  });

  it('is left to slice-ansi when a style stays open, or an escape is not a style', () => {
    expect(isWholeStyledLine(`${esc('1')}bold`)).toBe(false);
    expect(isWholeStyledLine(`${esc('31')}red${esc('22')}`)).toBe(false);
    expect(isWholeStyledLine(`${esc('38;5;1')}x`)).toBe(false);
    expect(isWholeStyledLine('\x1b]8;;https://example.com\x07link\x1b]8;;\x07')).toBe(false);
    expect(isWholeStyledLine('a\x1b[2Kb')).toBe(false);
    expect(isWholeStyledLine(`${esc('5')}blink${esc('25')}`)).toBe(false);
  });

  it('takes the lines Ink writes for the first frame', () => {
    expect(isWholeStyledLine(`${esc('1')}MCP servers${esc('22')}${esc('90')} ${esc('39')}`)).toBe(true);
    expect(isWholeStyledLine('none configured · c connects')).toBe(true);
  });

  it('leaves empty styles and closings of nothing to slice-ansi', () => {
    expect(isWholeStyledLine(`${esc('7')}${esc('27')}a`)).toBe(false);
    expect(isWholeStyledLine(`a${esc('39')}`)).toBe(false);
    expect(isWholeStyledLine(`${esc('44')}${esc('103')}a${esc('49')}${esc('49')}`)).toBe(false);
  });

  it('counts a reset as closing everything', () => {
    expect(isWholeStyledLine(`${esc('1')}${esc('31')}x${esc('0')}`)).toBe(true);
    expect(isWholeStyledLine(`${esc('1')}x${esc('')}`)).toBe(true);
    expect(isWholeStyledLine('plain')).toBe(true);
  });
});
