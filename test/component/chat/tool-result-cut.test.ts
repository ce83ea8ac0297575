import { describe, expect, it } from 'vitest';
import { forDisplay } from '../../../src/runtime/turns';
import { cutForScreen, screenCut } from '../../../src/services/terminal/screen-cut';
import { layoutItem } from '../../../src/transcript/items';
import { chatStyles } from '../../../src/transcript/style';
import type { ChatItem } from '../../../src/state/types';
import { plainTheme, stripSgr, tool } from './helpers';

// A tool result is kept for the transcript only up to limits.displayResultChars; the folded and
// expanded views still count the lines of the whole result (a 60,000-line result showed "381 more").

function lines(item: ChatItem, expanded: boolean, width = 80): string[] {
  return layoutItem(item, width, { styles: chatStyles(plainTheme), reasoningCollapsed: false, expanded, now: 0 }).lines.map((line) => stripSgr(line).trimEnd());
}

const long = Array.from({ length: 60_000 }, (_, index) => `line ${String(index + 1).padStart(6, '0')} of the long result, padded to be realistic`).join('\n');

describe('a tool result cut for the screen', () => {
  it('the folded view counts the lines of the whole result', () => {
    const rows = lines(tool({ result: cutForScreen(long, 20_000) }), false);
    expect(rows.slice(1, 6)).toEqual(['  │ line 000001 of the long result, padded to be realistic', '  │ line 000002 of the long result, padded to be realistic', '  │ line 000003 of the long result, padded to be realistic', '  │ line 000004 of the long result, padded to be realistic', '  │ line 000005 of the long result, padded to be realistic']);
    expect(rows[6]).toBe('  … 59995 more lines');
    expect(rows).toHaveLength(7);
  });

  it('what the TUI keeps of a tool-result event (runtime/turns.ts) folds to the same count', () => {
    const event = forDisplay({ type: 'tool-result', id: 'c', name: 'a__b', content: long, isError: false, outcome: 'ok' }, 20_000);
    const result = event.type === 'tool-result' ? event.content : '';
    expect(result.length).toBeLessThan(20_200);
    expect(lines(tool({ result }), false).at(-1)).toBe('  … 59995 more lines');
  });

  it('the expanded view shows the kept part and the count of the lines left out, not the note as result text', () => {
    const rows = lines(tool({ result: cutForScreen(long, 20_000) }), true);
    // The last kept line is cut in the middle: it counts as shown.
    const shownLines = rows.filter((row) => row.startsWith('  │ line ')).length;
    expect(shownLines).toBeGreaterThan(300);
    expect(rows.at(-1)).toBe(`  … ${60_000 - shownLines} more lines · the session log has all of it`);
    expect(rows.some((row) => row.includes('limits.displayResultChars'))).toBe(false);
  });

  it('one long line cut in the middle says how many characters were left out', () => {
    const result = cutForScreen('x'.repeat(50_000), 20_000);
    expect(result.endsWith('\n… 30000 more characters not shown (limits.displayResultChars; the session log has all of it)')).toBe(true);
    expect(screenCut(result)).toMatchObject({ hiddenLines: 0, kept: 'x'.repeat(20_000) });
    expect(lines(tool({ result }), true, 200).at(-1)).toBe('  … 30000 more characters not shown (limits.displayResultChars; the session log has all of it)');
  });

  it('counts lines exactly at the edges: a cut on a line boundary and a trailing newline', () => {
    const text = 'aaaa\nbbbb\ncccc\n';
    expect(screenCut(cutForScreen(text, 5))).toMatchObject({ kept: 'aaaa\n', hiddenLines: 2 });
    expect(screenCut(cutForScreen(text, 7))).toMatchObject({ kept: 'aaaa\nbb', hiddenLines: 1 });
    expect(cutForScreen(text, 100)).toBe(text);
    expect(screenCut('a result that merely mentions limits.displayResultChars')).toBeUndefined();
  });
});
