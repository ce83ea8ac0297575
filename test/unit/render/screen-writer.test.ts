import xtermHeadless from '@xterm/headless';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ScreenWriter, type ScreenRegion } from '../../../src/terminal/screen';

// The screen writer sends only what changed, lets the terminal scroll the region's rows when they
// moved up, and lays the region over Ink's frame. Whatever it sends, the terminal must end up
// showing exactly what a full redraw of the same frame shows.

const { Terminal } = xtermHeadless;
const COLUMNS = 40;
const ROWS = 12;

async function screenOf(term: InstanceType<typeof Terminal>, data: string[]): Promise<string[]> {
  for (const chunk of data) await new Promise<void>((resolve) => term.write(chunk, resolve));
  const buffer = term.buffer.active;
  const cell = buffer.getNullCell();
  const rows: string[] = [];
  for (let row = 0; row < ROWS; row++) {
    const line = buffer.getLine(row)!;
    let text = '';
    for (let column = 0; column < COLUMNS; column++) {
      line.getCell(column, cell);
      text += `${cell.getChars() || ' '}${cell.getFgColor()}${cell.isBold() ? 'b' : ''}${cell.getBgColor()}`;
    }
    rows.push(text);
  }
  return rows;
}

class Region implements ScreenRegion {
  constructor(
    public width: number,
    public height: number,
    public lines: string[],
  ) {}
  rows() {
    return this.lines;
  }
}

const word = fc.constantFrom('alpha', 'beta ', '\x1b[31mred\x1b[39m', '\x1b[1mbold\x1b[22m', '日本', '', '•', 'x'.repeat(8), '\x1b[48;5;17mdeep\x1b[49m', '\x1b[7minv\x1b[0m', '\x1b[38;2;1;2;3mrgb\x1b[39m');
const regionLine = fc.array(word, { maxLength: 2 }).map((parts) => parts.join(' '));
const sideLine = fc.constantFrom('', '│ side │', '\x1b[36m│ ● srv │\x1b[39m', '└──────┘');
const step = fc.record({
  // New rows arrive at the bottom of the region and push the others up (0: none, as when typing).
  arrive: fc.array(regionLine, { maxLength: 5 }),
  rewriteLast: fc.option(regionLine, { nil: undefined }),
  side: fc.array(sideLine, { minLength: ROWS, maxLength: ROWS }),
  regionHeight: fc.constantFrom(7, 7, 7, 9, 5),
});

describe('screen writer', () => {
  it('ends every frame showing exactly what a full redraw shows', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const term = new Terminal({ cols: COLUMNS, rows: ROWS, allowProposedApi: true, scrollback: 0 });
        const sent: string[] = [];
        const writer = new ScreenWriter({ columns: COLUMNS, rows: ROWS, write: (data) => sent.push(data) });
        const region = new Region(24, 7, []);
        writer.setRegion(region);
        let history: string[] = [];
        try {
          for (const { arrive, rewriteLast, side, regionHeight } of steps) {
            history = [...history, ...arrive];
            if (rewriteLast !== undefined && history.length > 0) history[history.length - 1] = rewriteLast;
            // The newest rows at the bottom: a taller region shows older rows again at its top.
            const lines = history.slice(-regionHeight);
            region.height = regionHeight;
            region.lines = [...Array.from({ length: regionHeight - lines.length }, () => ''), ...lines];
            // Ink's frame: blank where the region is, a sidebar beside it, the input below.
            const frame = side.map((part, row) => (row < regionHeight ? (part ? `${' '.repeat(24)}${part}` : '') : `row ${row} ${part}`)).join('\n');
            writer.render(frame);
            const shown = await screenOf(term, sent.splice(0));

            const fresh = new Terminal({ cols: COLUMNS, rows: ROWS, allowProposedApi: true, scrollback: 0 });
            const redraw: string[] = [];
            const full = new ScreenWriter({ columns: COLUMNS, rows: ROWS, write: (data) => redraw.push(data) });
            full.setRegion(region);
            full.render(frame);
            expect(shown).toEqual(await screenOf(fresh, redraw));
            fresh.dispose();
          }
        } finally {
          term.dispose();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('sends each changed row once, with no style reset when the row before closed its own styles', () => {
    const sent: string[] = [];
    const writer = new ScreenWriter({ columns: COLUMNS, rows: ROWS, write: (data) => sent.push(data) });
    const region = new Region(24, 3, ['one', 'two', 'zero']);
    writer.setRegion(region);
    writer.render('');
    sent.length = 0;
    region.lines = ['\x1b[36m• \x1b[39mfirst', '\x1b[44mstill blue', 'third'];
    writer.render('');
    expect(sent).toHaveLength(1);
    // Row 2 follows a row that closed its colour: no reset; row 3 follows one that left blue on.
    expect(sent[0]).toContain('\x1b[39mfirst\x1b[2H\x1b[24X\x1b[44mstill blue\x1b[3H\x1b[0m\x1b[24Xthird');
  });

  it("writes only the changed characters of a line of Ink's that kept its width, such as a spinner's glyph", async () => {
    const sent: string[] = [];
    const writer = new ScreenWriter({ columns: COLUMNS, rows: ROWS, write: (data) => sent.push(data) });
    const line = (glyph: string, seconds: number) => `\x1b[90m${glyph} waiting for the answer · ${seconds}s\x1b[39m    \x1b[90m└──────┘\x1b[39m`;
    writer.render(`top\n${line('⠋', 0)}`);
    sent.length = 0;
    writer.render(`top\n${line('⠙', 0)}`);
    writer.render(`top\n${line('⠹', 1)}`);
    expect(sent).toEqual(['\x1b[?2026h\x1b[2H\x1b[0m\x1b[90m⠙\x1b[0m\x1b[?2026l', '\x1b[?2026h\x1b[2H\x1b[0m\x1b[90m⠹ waiting for the answer · 1\x1b[0m\x1b[?2026l']);
    const term = new Terminal({ cols: COLUMNS, rows: ROWS, allowProposedApi: true, scrollback: 0 });
    const fresh = new Terminal({ cols: COLUMNS, rows: ROWS, allowProposedApi: true, scrollback: 0 });
    const redraw: string[] = [];
    new ScreenWriter({ columns: COLUMNS, rows: ROWS, write: (data) => redraw.push(data) }).render(`top\n${line('⠹', 1)}`);
    const incremental: string[] = [];
    const again = new ScreenWriter({ columns: COLUMNS, rows: ROWS, write: (data) => incremental.push(data) });
    for (const [glyph, seconds] of [['⠋', 0], ['⠙', 0], ['⠹', 1]] as const) again.render(`top\n${line(glyph, seconds)}`);
    expect(await screenOf(term, incremental)).toEqual(await screenOf(fresh, redraw));
    term.dispose();
    fresh.dispose();
  });

  it('writes only what a growing line of the region gained', () => {
    const sent: string[] = [];
    const writer = new ScreenWriter({ columns: COLUMNS, rows: ROWS, write: (data) => sent.push(data) });
    const region = new Region(24, 2, ['top', 'This \x1b[1mpara\x1b[22m']);
    writer.setRegion(region);
    writer.render('');
    sent.length = 0;
    region.lines = ['top', 'This \x1b[1mparagraph\x1b[22m goes'];
    writer.render('');
    expect(sent).toEqual(['\x1b[?2026h\x1b[2;10H\x1b[0m\x1b[1mgraph\x1b[22m goes\x1b[?2026l']);
  });

  it('scrolls moved rows with the terminal and writes only the new ones', () => {
    const sent: string[] = [];
    const writer = new ScreenWriter({ columns: COLUMNS, rows: ROWS, write: (data) => sent.push(data) });
    const region = new Region(24, 8, Array.from({ length: 8 }, (_, row) => `line ${row}`));
    writer.setRegion(region);
    const frame = Array.from({ length: ROWS }, (_, row) => (row < 8 ? `${' '.repeat(24)}│ side │` : `input ${row}`)).join('\n');
    writer.render(frame);
    region.lines = Array.from({ length: 8 }, (_, row) => `line ${row + 2}`);
    sent.length = 0;
    writer.render();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toContain('\x1b[1;8r\x1b[2S\x1b[r');
    // The two new rows and nothing else: the side part of the rows that scrolled in blank.
    expect(sent[0]).toContain('line 8');
    expect(sent[0]).toContain('line 9');
    expect(sent[0]).not.toContain('line 7');
    expect(sent[0]!.length).toBeLessThan(200);
  });

  it('scrolls the rows the region keeps when it shrinks and grows again, as around the waiting line', () => {
    const sent: string[] = [];
    const writer = new ScreenWriter({ columns: COLUMNS, rows: ROWS, write: (data) => sent.push(data) });
    const history = Array.from({ length: 30 }, (_, row) => `line ${row}`);
    const region = new Region(24, 8, history.slice(-8));
    writer.setRegion(region);
    const frameFor = (regionHeight: number) =>
      Array.from({ length: ROWS }, (_, row) => (row < regionHeight ? `${' '.repeat(24)}│ side │` : row < 8 ? 'waiting for the answer' : `input ${row}`)).join('\n');
    writer.render(frameFor(8));

    // Two rows below the region go to the waiting line: the last six rows stay, two rows up.
    region.height = 6;
    region.lines = history.slice(-6);
    sent.length = 0;
    writer.render(frameFor(6));
    expect(sent[0]).toContain('\x1b[1;8r\x1b[2S\x1b[r');
    expect(sent[0]).toContain('waiting for the answer');
    expect(sent[0]).not.toMatch(/line \d/);

    // The waiting line goes and the first answer row arrives: the region takes its rows back,
    // showing one older row again at the top; the kept rows move one row down.
    history.push('answer 1');
    region.height = 8;
    region.lines = history.slice(-8);
    sent.length = 0;
    writer.render(frameFor(8));
    expect(sent[0]).toMatch(/\x1b\[1;[78]r\x1b\[1T\x1b\[r/);
    expect(sent[0]).toContain('line 23');
    expect(sent[0]).toContain('answer 1');
    expect(sent[0]).not.toMatch(/line (2[4-9])/);
  });

  it('keeps the sidebar box out of the scroll: its border and title rows are never written again for a scrolled line', () => {
    const sent: string[] = [];
    const writer = new ScreenWriter({ columns: COLUMNS, rows: ROWS, write: (data) => sent.push(data) });
    // Each line starts differently, so a changed row is written whole rather than from where it differs.
    const history = Array.from({ length: 30 }, (_, row) => `${'ABCDEFGHIJKLMNOPQRSTUVWXYZabcd'[row]} line`);
    const region = new Region(24, 10, history.slice(0, 10));
    writer.setRegion(region);
    const side = (row: number) => (row === 0 ? '┌──────────┐' : row === 1 ? '│ \x1b[1mservers\x1b[22m  │' : row === 9 ? '└──────────┘' : '│          │');
    const frame = Array.from({ length: ROWS }, (_, row) => (row < 10 ? `${' '.repeat(24)}${side(row)}` : `input ${row}`)).join('\n');
    writer.render(frame);
    for (let next = 10; next < 14; next++) {
      region.lines = history.slice(next - 9, next + 1);
      sent.length = 0;
      writer.render();
      // Between the box's title and its bottom border the rows hold only its sides: the scroll
      // stays among them, and the rows above and below it are written in the transcript's columns.
      expect(sent[0]).toMatch(/\x1b\[\d+;\d+r\x1b\[1S/);
      expect(sent[0]).toContain(history[next]);
      expect(sent[0]).not.toMatch(/[┌└]|servers/);
    }
  });

  describe('with a least time between scrolls', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    /** The screen a writer without history draws for `frame` and the region as it is now. */
    async function fullRedraw(region: Region, frame: string): Promise<string[]> {
      const fresh = new Terminal({ cols: COLUMNS, rows: ROWS, allowProposedApi: true, scrollback: 0 });
      try {
        const redraw: string[] = [];
        const full = new ScreenWriter({ columns: COLUMNS, rows: ROWS, write: (data) => redraw.push(data) });
        full.setRegion(region);
        full.render(frame);
        return await screenOf(fresh, redraw);
      } finally {
        fresh.dispose();
      }
    }

    it('moves lines that came too soon in one later scroll, drawing the rest at once, and ends as a full redraw', async () => {
      vi.useFakeTimers();
      const sent: string[] = [];
      const writer = new ScreenWriter({ columns: COLUMNS, rows: ROWS, write: (data) => sent.push(data) }, { scrollIntervalMs: 100, now: () => Date.now() });
      const region = new Region(24, 8, Array.from({ length: 8 }, (_, row) => `line ${row}`));
      writer.setRegion(region);
      const frameWith = (status: string) => Array.from({ length: ROWS }, (_, row) => (row < 8 ? `${' '.repeat(24)}│ side │` : `input ${row} ${status}`)).join('\n');
      const term = new Terminal({ cols: COLUMNS, rows: ROWS, allowProposedApi: true, scrollback: 0 });
      try {
        writer.render(frameWith('a'));
        // The first scroll goes at once.
        region.lines = Array.from({ length: 8 }, (_, row) => `line ${row + 1}`);
        writer.render();
        expect(sent.at(-1)).toContain('\x1b[1S');
        // Two more lines within the interval, and a change outside the region.
        vi.advanceTimersByTime(20);
        region.lines = Array.from({ length: 8 }, (_, row) => `line ${row + 2}`);
        writer.render(frameWith('b'));
        vi.advanceTimersByTime(20);
        region.lines = Array.from({ length: 8 }, (_, row) => `line ${row + 3}`);
        writer.render(frameWith('c'));
        const held = sent.slice(2).join('');
        expect(held).not.toMatch(/\x1b\[\d+S/);
        expect(held).not.toContain('line 9');
        expect(held).toContain('c');
        // The timer scrolls both lines at once.
        vi.advanceTimersByTime(100);
        expect(sent.at(-1)).toContain('\x1b[2S');
        expect(sent.at(-1)).toContain('line 10');
        // The terminal emulator parses on real timers.
        vi.useRealTimers();
        expect(await screenOf(term, sent.splice(0))).toEqual(await fullRedraw(region, frameWith('c')));
      } finally {
        term.dispose();
        writer.dispose();
      }
    });

    it('lays out no region rows while a scroll is held: the held scroll draws the newest ones', async () => {
      vi.useFakeTimers();
      const sent: string[] = [];
      const writer = new ScreenWriter({ columns: COLUMNS, rows: ROWS, write: (data) => sent.push(data) }, { scrollIntervalMs: 100, now: () => Date.now() });
      const region = new Region(24, 8, Array.from({ length: 8 }, (_, row) => `line ${row}`));
      let laidOut = 0;
      const counted: ScreenRegion = { width: 24, height: 8, rows: () => (laidOut++, region.rows()) };
      writer.setRegion(counted);
      const frame = Array.from({ length: ROWS }, (_, row) => (row < 8 ? `${' '.repeat(24)}│ side │` : `input ${row}`)).join('\n');
      const term = new Terminal({ cols: COLUMNS, rows: ROWS, allowProposedApi: true, scrollback: 0 });
      try {
        writer.render(frame);
        region.lines = Array.from({ length: 8 }, (_, row) => `line ${row + 1}`);
        writer.repaintRegion();
        expect(sent.at(-1)).toContain('\x1b[1S');
        // A line too soon: the scroll is held.
        vi.advanceTimersByTime(20);
        region.lines = Array.from({ length: 8 }, (_, row) => `line ${row + 2}`);
        writer.repaintRegion();
        const before = { laidOut, sent: sent.length };
        // More lines while it is held: nothing laid out, nothing written.
        for (let more = 3; more <= 6; more++) {
          vi.advanceTimersByTime(15);
          region.lines = Array.from({ length: 8 }, (_, row) => `line ${row + more}`);
          writer.repaintRegion();
        }
        expect({ laidOut, sent: sent.length }).toEqual(before);
        // The held scroll shows the newest rows.
        vi.advanceTimersByTime(100);
        expect(laidOut).toBe(before.laidOut + 1);
        expect(sent.at(-1)).toContain('13');
        vi.useRealTimers();
        expect(await screenOf(term, sent.splice(0))).toEqual(await fullRedraw(region, frame));
      } finally {
        term.dispose();
        writer.dispose();
      }
    });

    it('does not hold a scroll when the region grew: the screen is the new layout at once, never a mix of two', async () => {
      vi.useFakeTimers();
      const sent: string[] = [];
      const writer = new ScreenWriter({ columns: COLUMNS, rows: ROWS, write: (data) => sent.push(data) }, { scrollIntervalMs: 100, now: () => Date.now() });
      const region = new Region(24, 8, Array.from({ length: 8 }, (_, row) => `line ${row}`));
      writer.setRegion(region);
      // Ink's rows under the region: a two-row input bar, then one row once the message is sent.
      const frameWith = (regionRows: number) => Array.from({ length: ROWS }, (_, row) => (row < regionRows ? `${' '.repeat(24)}│ side │` : `input ${row}`)).join('\n');
      const term = new Terminal({ cols: COLUMNS, rows: ROWS, allowProposedApi: true, scrollback: 0 });
      try {
        writer.render(frameWith(8));
        region.lines = Array.from({ length: 8 }, (_, row) => `line ${row + 1}`);
        writer.render();
        // Within the interval: the input bar gives two rows to the region, and the question and
        // the answer arrive at its bottom.
        vi.advanceTimersByTime(20);
        region.height = 10;
        region.lines = [...Array.from({ length: 7 }, (_, row) => `line ${row + 3}`), 'question', '', 'answer'];
        writer.render(frameWith(10));
        vi.useRealTimers();
        expect(await screenOf(term, sent.splice(0))).toEqual(await fullRedraw(region, frameWith(10)));
      } finally {
        term.dispose();
        writer.dispose();
      }
    });

    it('draws nothing more once disposed', () => {
      vi.useFakeTimers();
      const sent: string[] = [];
      const writer = new ScreenWriter({ columns: COLUMNS, rows: ROWS, write: (data) => sent.push(data) }, { scrollIntervalMs: 100, now: () => Date.now() });
      const region = new Region(24, 8, Array.from({ length: 8 }, (_, row) => `line ${row}`));
      writer.setRegion(region);
      writer.render('');
      region.lines = Array.from({ length: 8 }, (_, row) => `line ${row + 1}`);
      writer.render();
      region.lines = Array.from({ length: 8 }, (_, row) => `line ${row + 2}`);
      writer.render();
      const count = sent.length;
      writer.dispose();
      vi.advanceTimersByTime(500);
      expect(sent).toHaveLength(count);
    });
  });
});
