import { afterEach, describe, expect, it } from 'vitest';
import { editorFromText } from '../../src/state/slices/ui';
import { renderApp, type Harness } from './render';

// When the input stops growing, its border says how many rows are out of view (README.md, "Keys").
let h: Harness;
afterEach(() => h?.unmount());

const lines = (count: number) => Array.from({ length: count }, (_, index) => `line ${index + 1}`).join('\n');

describe('input bar: rows out of view', () => {
  it('counts the rows above the view in the top border, and the rows below in the bottom one; the layout keeps its height', async () => {
    h = renderApp({ columns: 80, rows: 24 });
    h.store.getState().setEditor(editorFromText(lines(12)));
    await h.settle();
    const screen = h.screen().split('\n');
    // 24 rows: the input shows 6 of the 12 rows, the cursor's (the last) at the bottom.
    const top = screen.findIndex((row) => row.includes('↑ 6 more lines above'));
    expect(top).toBeGreaterThan(0);
    expect(screen[top]).toMatch(/^╭─ ↑ 6 more lines above ─+╮$/);
    expect(screen[top + 1]).toContain('line 7');
    expect(screen[top + 6]).toContain('line 12');
    expect(screen[top + 7]).toMatch(/^╰─+╯$/);
    expect(screen.length).toBe(24);

    const state = h.store.getState().editor;
    h.store.getState().setEditor({ ...state, cursor: 0 });
    await h.settle();
    const moved = h.screen().split('\n');
    const bottom = moved.findIndex((row) => row.includes('↓ 6 more lines below'));
    expect(moved[bottom]).toMatch(/^╰─ ↓ 6 more lines below ─+╯$/);
    expect(moved[bottom - 6]).toContain('› line 1');
    expect(moved[bottom - 7]).toMatch(/^╭─+╮$/);
  });
});
