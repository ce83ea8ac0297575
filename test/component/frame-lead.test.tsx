import { describe, expect, it, vi } from 'vitest';
import { APPROVAL_DELAY_MS } from '../../src/ui/keys/frameKeys';
import type { ToolCallView } from '../../src/services/conversation/types';
import { askApproval } from './frames';
import { useRenderedApp, type Harness } from './render';

// When not even the compact header fits (long names, a short terminal), the whole header scrolls
// at the top of the arguments with one shortened row of it pinned: it is read like the arguments
// before the frame can be allowed, and a resize that moves it in or out keeps what was read.

const DOWN = '\x1b[B';

/** Pages down through the whole frame, one screenful at a time, so every row is on screen once. */
async function readThrough(h: { type: (text: string) => Promise<unknown> }): Promise<void> {
  for (let page = 0; page < 40; page++) await h.type('\x1b[6~');
}
const ALIAS = 'a-server-alias-of-32-characters-';
const TOOL = `write_${'x'.repeat(140)}_end`;
const args = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`key${index}`, `value ${index}`]));
const LONG: ToolCallView = {
  id: 'call-1',
  wireName: `${ALIAS}__${TOOL}`.slice(0, 64),
  alias: ALIAS,
  tool: TOOL,
  description: 'Writes a file',
  rawArguments: JSON.stringify(args),
  arguments: args,
  definitionChanged: 'description changed',
};

let h: Harness;
const app = useRenderedApp({ fakeTimers: true });

/** The rows inside the frame's border. */
function frameRows(): string[] {
  const lines = h.screen().split('\n');
  const top = lines.findIndex((line) => line.startsWith('╭─ Run this'));
  const bottom = lines.findIndex((line, index) => index > top && line.startsWith('╰'));
  return lines.slice(top + 1, bottom).map((line) => line.replace(/^│ /, '').replace(/ ?│$/, '').trimEnd());
}

function counter(): { from: number; to: number; of: number } {
  const match = frameRows()
    .map((row) => /lines (\d+)–(\d+) of (\d+)/.exec(row))
    .find(Boolean);
  if (!match) throw new Error(`no scroll line in\n${h.screen()}`);
  return { from: Number(match[1]), to: Number(match[2]), of: Number(match[3]) };
}

describe('a header too tall for the frame scrolls with the arguments', () => {
  it('80x14: one shortened row pinned, the whole call read first, the keys locked until the end', async () => {
    h = app.render({ columns: 80, rows: 14 });
    const probe = await askApproval(h, LONG);
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    const rows = frameRows();
    // Both names, their middles cut out and marked, and that it is shortened.
    expect(rows[0]).toMatch(/^server a-serv…cters- · tool write_x+…x+_end ▲ changed \(shortened\)$/);
    expect(rows[1]).toMatch(/^lines 1–\d+ of \d+ ↓ · read every line first$/);
    expect(rows[2]).toMatch(/^call a-server-alias/);
    await h.type('y');
    expect(probe.answer).toBeUndefined();
    expect(h.screen()).toContain('read the whole call first');

    // Reading down row by row shows the whole name, the warning, then the arguments.
    const seen: string[] = [];
    for (let press = 0; press < 200 && counter().to < counter().of; press++) {
      seen.push(frameRows()[2]!);
      await h.type(DOWN);
    }
    seen.push(...frameRows().slice(2, -1));
    const text = seen.join('');
    // The wire name is the name cut to 64 characters; server and tool are the names themselves.
    expect(text).toContain(`call ${LONG.wireName}`);
    expect(text).toContain(`server ${ALIAS} · tool ${TOOL}`);
    expect(text).toContain('▲ This tool changed since it was first seen or last approved: description');
    expect(text.indexOf('arguments')).toBeGreaterThan(text.indexOf('▲ This tool changed'));
    expect(text).toContain('"key39": "value 39"');
    await h.type('y');
    expect(probe.answer).toEqual({ action: 'allow', scope: 'once' });
  });

  it('made taller before the end: the same arguments stay in view and the rows never shown must still be read', async () => {
    h = app.render({ columns: 80, rows: 14 });
    const probe = await askApproval(h, LONG);
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    // Down to `key33`: the header and 34 argument rows have been read, in the layout where the
    // header scrolls, which counts more rows than the arguments alone.
    while (!frameRows()[2]!.includes('"key33"')) await h.type(DOWN);
    expect(counter().to).toBeGreaterThanOrEqual(42);

    h.stdout.resize(80, 24);
    await h.settle();
    // The whole header is pinned again; the counter counts the arguments only, from the same row.
    const rows = frameRows();
    expect(rows[0]).toMatch(/^call a-server-alias-of-32-characters-__write_x+$/);
    expect(counter()).toEqual({ from: 35, to: expect.any(Number), of: 42 });
    expect(counter().to).toBeLessThan(42);
    expect(rows.find((row) => row.includes('"key'))).toBe('  "key33": "value 33",');
    // The last rows were never on screen: not yet.
    await h.type('y');
    expect(probe.answer).toBeUndefined();
    expect(h.screen()).toContain('read the whole call first');
    await readThrough(h);
    await h.type('y');
    expect(probe.answer).toEqual({ action: 'allow', scope: 'once' });
  });

  it('read in full, then made shorter: the header moves into the scroll already counted as read', async () => {
    h = app.render({ columns: 80, rows: 40 });
    const probe = await askApproval(h, LONG);
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    expect(counter().of).toBe(42);
    await readThrough(h);
    h.stdout.resize(80, 14);
    await h.settle();
    expect(counter().of).toBeGreaterThan(42);
    await h.type('y');
    expect(probe.answer).toEqual({ action: 'allow', scope: 'once' });
  });

  it('opened fresh in the short layout, nothing of the header counts as read', async () => {
    h = app.render({ columns: 80, rows: 14 });
    const probe = await askApproval(h, LONG);
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    expect(counter().from).toBe(1);
    h.stdout.resize(80, 30);
    await h.settle();
    // Taller: the arguments scroll from their first row, and have not been read.
    expect(counter().from).toBe(1);
    await h.type('y');
    expect(probe.answer).toBeUndefined();
  });
});
