import { describe, expect, it } from 'vitest';
import { SIDEBAR_MAX_WIDTH, SIDEBAR_MIN_WIDTH, sidebarWidthFor } from '../../src/ui/App';
import { useRenderedApp } from './render';

const app = useRenderedApp();

/** Where the sidebar's box starts on the row with its top border (its width is what is right of it). */
function sidebarWidthOnScreen(screen: string, columns: number): number {
  const top = screen.split('\n').find((line) => line.includes('┌'));
  if (top === undefined) throw new Error(`no sidebar on screen:\n${screen}`);
  return columns - top.indexOf('┌');
}

describe('sidebar width follows the terminal', () => {
  it('is a fifth of the columns, at least 32 and at most 60, and never more than a third', () => {
    expect(sidebarWidthFor(120, true)).toBe(SIDEBAR_MIN_WIDTH);
    expect(sidebarWidthFor(160, true)).toBe(32);
    expect(sidebarWidthFor(200, true)).toBe(40);
    expect(sidebarWidthFor(250, true)).toBe(50);
    expect(sidebarWidthFor(400, true)).toBe(SIDEBAR_MAX_WIDTH);
    // A pinned sidebar on a narrow terminal leaves the transcript two thirds.
    expect(sidebarWidthFor(90, true)).toBe(30);
    expect(sidebarWidthFor(60, true)).toBe(20);
    expect(sidebarWidthFor(200, false)).toBe(0);
  });

  it('grows at 200 columns and the transcript takes the rest of the row', async () => {
    const h = app.render({ columns: 200, rows: 30 });
    h.store.getState().addStatus('info', 'x'.repeat(400));
    await h.settle();
    const screen = h.screen();
    expect(sidebarWidthOnScreen(screen, 200)).toBe(40);
    // The transcript wraps at its own width: 200 - 40 - 1 (the gap) columns, right up to the gap.
    const rows = screen.split('\n').filter((line) => line.includes('xxxx'));
    expect(rows.length).toBe(3);
    expect(rows[0]!.lastIndexOf('x')).toBe(158);
    expect(rows[0]!.slice(159, 161)).toBe(' │');
    for (const line of screen.split('\n')) expect(line.length).toBeLessThanOrEqual(200);
  });

  it('keeps 32 columns at 120 and follows a resize', async () => {
    const h = app.render({ columns: 120, rows: 30 });
    await h.settle();
    expect(sidebarWidthOnScreen(h.screen(), 120)).toBe(32);
    h.stdout.resize(250, 30);
    await h.settle();
    expect(sidebarWidthOnScreen(h.screen(), 250)).toBe(50);
  });
});
