import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markRead, rowsRead } from '../../../src/ui/panels/frameLayout';

// What counts as read in an approval frame: only rows that were on screen. A jump (End) past
// unread rows leaves them unread; reading them later, from either side, closes the gap.

describe('rows read in a frame', () => {
  it('a jump leaves the rows it skipped unread until they are shown', () => {
    // 10 rows on screen of 100: the top 10 are read; End shows 90-100.
    const afterEnd = markRead(10, [], 90, 100);
    expect(afterEnd).toEqual({ seen: 10, runs: [[90, 100]] });
    expect(rowsRead(afterEnd.seen, afterEnd.runs, 90, 10)).toBe(10);
    // Paging back up from the bottom: the runs grow and finally meet the top.
    let state = afterEnd;
    for (let top = 80; top >= 0; top -= 9) state = markRead(state.seen, state.runs, top, top + 10);
    expect(state).toEqual({ seen: 100, runs: [] });
  });

  it('equals a row-by-row record of what was on screen, for any scrolling', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 15 }), fc.array(fc.nat(80), { maxLength: 30 }), (total, viewport, tops) => {
        const shown = new Array<boolean>(total).fill(false);
        let state: { seen: number; runs: Array<readonly [number, number]> } = { seen: 0, runs: [] };
        for (const wanted of [0, ...tops]) {
          const top = Math.min(wanted, Math.max(0, total - viewport));
          for (let row = top; row < Math.min(total, top + viewport); row++) shown[row] = true;
          state = markRead(state.seen, state.runs, top, Math.min(total, top + viewport));
          const prefix = shown.indexOf(false) === -1 ? total : shown.indexOf(false);
          expect(state.seen).toBe(prefix);
        }
      }),
      { numRuns: 300 },
    );
  });
});
