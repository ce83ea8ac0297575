import { renderToString } from 'ink';
import stringWidth from 'string-width';
import { describe, expect, it, vi } from 'vitest';
import { APPROVAL_DELAY_MS, newFrameUi } from '../../src/ui/keys/frameKeys';
import { ApprovalFrame, approvalParts, layoutApproval } from '../../src/ui/panels/ApprovalFrame';
import { innerWidth } from '../../src/ui/panels/BoxFrame';
import { CommandFrame, commandParts, layoutCommand } from '../../src/ui/panels/CommandFrame';
import { MIN_FRAME_HEIGHT, type FrameLayout } from '../../src/ui/panels/frameLayout';
import type { Line } from '../../src/ui/panels/text';
import { createTheme } from '../../src/terminal/theme';
import type { ToolCallView } from '../../src/services/conversation/types';
import { sanitizeLabel } from '../../src/services/terminal/sanitize';
import type { FrameUi } from '../../src/state/types';
import { askApproval } from './frames';
import { stripAnsi, useRenderedApp, type Harness } from './render';

// The frame is exactly as tall as its layout says, and never taller than the rows it was given,
// whatever the names, the description and the width: the chat pane gives the transcript what the
// frame leaves, so a frame one row taller than its layout pushes the input and status rows.

const theme = createTheme({});
const text = (line: Line) => line.map((seg) => seg.text).join('');

const ALIASES = ['fs', 'a-server-alias-of-32-characters-', 'サーバー'];
const TOOLS = ['write_file', 'a_tool_name_exactly_sixty_four_characters_long_for_the_wire_lim', 'x'.repeat(200), '書き込み🚀ツール'.repeat(6), 'evil\u202e\x1b[2Jname'];
const DESCRIPTIONS = [undefined, 'A description that is long enough to be cut at every width we try here, and then some more words'];
const WIDTHS = [24, 33, 41, 60, 80, 127, 160];
const HEIGHTS = [MIN_FRAME_HEIGHT, 6, 7, 9, 12, 19, 45];

function call(alias: string, tool: string, description: string | undefined, changed: boolean, argCount: number): ToolCallView {
  const args = Object.fromEntries(Array.from({ length: argCount }, (_, index) => [`key${index}`, `value ${index}`]));
  return {
    id: 'call-1',
    wireName: `${alias}__${tool}`,
    alias,
    tool,
    description,
    rawArguments: JSON.stringify(args),
    arguments: args,
    definitionChanged: changed ? 'description changed, and the input schema too' : undefined,
  };
}

function draw(view: ToolCallView, width: number, layout: FrameLayout): string[] {
  return stripAnsi(renderToString(<ApprovalFrame call={view} position={1} count={1} width={width} layout={layout} theme={theme} />, { columns: width })).split('\n');
}

/** Every row that scrolls, read by scrolling from the top to the end as the user would. */
function scrollThrough(layoutAt: (scrollTop: number) => FrameLayout): Line[] {
  const rows: Line[] = [];
  for (let top = 0; ; ) {
    const layout = layoutAt(top);
    const scrollLine = layout.rows.findIndex((row) => /lines \d+–\d+ of \d+/.test(text(row)));
    const shown = Math.min(layout.total, layout.scrollTop + layout.viewport) - layout.scrollTop;
    layout.rows.slice(scrollLine + 1, scrollLine + 1 + shown).forEach((row, index) => (rows[layout.scrollTop + index] = row));
    if (layout.scrollTop + layout.viewport >= layout.total) return rows;
    top = layout.scrollTop + layout.viewport;
  }
}

describe('frame height: rendered rows equal the layout, within the height allowed', () => {
  it('approval frames: every alias, tool, description and width, every height from the smallest, both footers, any scroll position', () => {
    const problems: string[] = [];
    let cases = 0;
    let drawnCases = 0;
    let overflowed = 0;
    for (const alias of ALIASES)
      for (const tool of TOOLS)
        for (const description of DESCRIPTIONS)
          for (const changed of [false, true])
            for (const argCount of [1, 30]) {
              const view = call(alias, tool, description, changed, argCount);
              for (const width of WIDTHS) {
                const parts = approvalParts(view, innerWidth(width));
                for (const maxHeight of HEIGHTS)
                  for (const mode of ['buttons', 'reason'] as const)
                    for (const scrollTop of [0, 10_000]) {
                      const ui: FrameUi = { ...newFrameUi(view.id, 0, width), mode, scrollTop };
                      const layout = layoutApproval({ parts, width, maxHeight, ui, armed: true });
                      const where = `${alias}__${tool} at ${width}x${maxHeight} (${mode}, scrollTop ${scrollTop}, changed ${changed}, ${argCount} args)`;
                      if (layout.height > maxHeight) problems.push(`${where}: ${layout.height} rows`);
                      if (layout.rows.length + 2 !== layout.height) problems.push(`${where}: ${layout.rows.length} rows inside, height ${layout.height}`);
                      cases++;
                      // Drawing is the slow part (about 10 ms a frame): every size and name, once.
                      const pick = WIDTHS.indexOf(width) + HEIGHTS.indexOf(maxHeight);
                      if (scrollTop !== 10_000 || argCount !== 30 || description !== DESCRIPTIONS[1] || alias !== ALIASES[pick % ALIASES.length]) continue;
                      if (mode !== (pick % 2 ? 'buttons' : 'reason') || changed !== (pick % 3 === 0)) continue;
                      const drawn = draw(view, width, layout);
                      if (drawn.length !== layout.height) problems.push(`${where}: drawn ${drawn.length} rows, layout ${layout.height}`);
                      for (const row of drawn) if (stringWidth(row) > width) problems.push(`${where}: a row of ${stringWidth(row)} columns: ${row}`);
                      drawnCases++;
                      if (layout.leadRows > 0) overflowed++;
                    }
              }
            }
    expect(problems).toEqual([]);
    expect(cases).toBe(ALIASES.length * TOOLS.length * DESCRIPTIONS.length * 2 * 2 * WIDTHS.length * HEIGHTS.length * 2 * 2);
    expect(drawnCases).toBe(TOOLS.length * WIDTHS.length * HEIGHTS.length);
    // The header really did not fit in some of them (the branch that moves it into the scroll).
    expect(overflowed).toBeGreaterThan(100);
  });

  it('what is approved is never cut silently: server and tool are on screen in full, pinned or in the rows that must be read first', () => {
    for (const alias of ALIASES)
      for (const tool of TOOLS)
        for (const width of WIDTHS)
          for (const maxHeight of HEIGHTS) {
            const view = call(alias, tool, 'Writes a file', true, 30);
            const parts = approvalParts(view, innerWidth(width));
            const layoutAt = (scrollTop: number) => layoutApproval({ parts, width, maxHeight, ui: { ...newFrameUi(view.id, 0, width), scrollTop }, armed: false });
            const layout = layoutAt(0);
            const where = `${alias}__${tool} at ${width}x${maxHeight}`;
            const identity = `server ${sanitizeLabel(alias)} · tool ${sanitizeLabel(tool)}`;
            if (layout.leadRows === 0) {
              // Pinned: the whole identity is in the rows above the scroll line.
              const header = layout.rows.slice(0, layout.rows.length - (layout.total > layout.viewport ? layout.viewport + 1 : 0));
              expect(header.map(text).join(''), where).toContain(identity);
            } else {
              // Moved into the scroll: the whole header, call line first, is read before the arguments.
              const scrolled = scrollThrough(layoutAt);
              const lead = scrolled.slice(0, layout.leadRows).map(text).join('');
              expect(lead, where).toContain(`call ${sanitizeLabel(`${alias}__${tool}`)}`);
              expect(lead, where).toContain(identity);
              expect(lead, where).toContain('▲ This tool changed');
              // A pinned row shows the names whole, or marks where it cut them.
              const pinned = layout.rows.slice(0, layout.rows.findIndex((row) => /^lines \d+–\d+ of \d+/.test(text(row)))).map(text);
              for (const row of pinned) expect(row.includes(identity) || row.includes('…'), `${where}: ${row}`).toBe(true);
            }
          }
  });

  it('command frames stay within their height at every width', () => {
    const command = Array.from({ length: 40 }, (_, index) => `echo ${'step '.repeat(index % 7)}${index}`).join('\n');
    for (const width of WIDTHS)
      for (const maxHeight of HEIGHTS)
        for (const mode of ['buttons', 'edit'] as const) {
          const parts = commandParts(command, innerWidth(width));
          const layout = layoutCommand({ parts, width, maxHeight, ui: { ...newFrameUi('cmd', 0, width), mode }, armed: true });
          expect(layout.height).toBeLessThanOrEqual(maxHeight);
          const drawn = stripAnsi(renderToString(<CommandFrame position={1} count={1} width={width} layout={layout} theme={theme} />, { columns: width })).split('\n');
          expect(drawn.length, `${width}x${maxHeight} ${mode}`).toBe(layout.height);
        }
  });
});

describe('frame height in the app: the input and status rows stay where they are', () => {
  let h: Harness;
  const app = useRenderedApp({ fakeTimers: true });
  const LONG = call('a-server-alias-of-32-characters-', 'x'.repeat(150), 'Writes a file', true, 3);

  for (const [columns, rows] of [
    [80, 24],
    [160, 48],
    [80, 10],
    [60, 10],
    [100, 12],
    [44, 11],
  ] as const) {
    it(`${columns}x${rows}: the screen is ${rows} rows with the status bar last, and the frame ends right above the input`, async () => {
      h = app.render({ columns, rows });
      await askApproval(h, LONG);
      await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
      const screen = h.screen().split('\n');
      expect(screen, h.screen()).toHaveLength(rows);
      expect(screen.at(-1)).toMatch(/^local · /);
      // The input box: its top border, one row, its bottom border, above the status bar.
      expect(screen.at(-4)!.startsWith('╭'), h.screen()).toBe(true);
      expect(screen.at(-2)!.startsWith('╰'), h.screen()).toBe(true);
      const frameBottom = screen.at(-5)!;
      expect(frameBottom.startsWith('╰'), h.screen()).toBe(true);
      expect(screen.some((row) => row.startsWith('╭─ Run this tool?'))).toBe(true);
    });
  }

  it('60x9, too short for any frame beside the transcript: the rows stay in place and the call can be denied but not allowed', async () => {
    h = app.render({ columns: 60, rows: 9 });
    const probe = await askApproval(h, LONG);
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    const screen = h.screen().split('\n');
    expect(screen).toHaveLength(9);
    expect(screen.at(-1)).toMatch(/^local · /);
    // Not even after every row was paged through.
    for (let page = 0; page < 40; page++) await h.type('\x1b[6~');
    await h.type('y');
    expect(probe.answer).toBeUndefined();
    expect(h.screen()).toContain('frame cut off');
    // Enter on the allow button (← from deny, where a frame starts).
    for (let step = 0; step < 3; step++) await h.type('\x1b[D');
    await h.type('\r');
    expect(probe.answer).toBeUndefined();
    await h.type('n');
    expect(probe.answer).toEqual({ action: 'deny' });
  });
});
