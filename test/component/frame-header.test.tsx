import { describe, expect, it, vi } from 'vitest';
import { APPROVAL_DELAY_MS } from '../../src/ui/keys/frameKeys';
import type { ToolCallView } from '../../src/services/conversation/types';
import { askApproval, proposeCommand } from './frames';
import { useRenderedApp, type Harness } from './render';

// What is approved must stay in view: the frame's header is pinned, only the arguments scroll.

const PAGE_DOWN = '\x1b[6~';

/** Pages down through the whole frame, one screenful at a time, so every row is on screen once. */
async function readThrough(h: { type: (text: string) => Promise<unknown> }): Promise<void> {
  for (let page = 0; page < 40; page++) await h.type('\x1b[6~');
}

const call = (fields: Partial<ToolCallView> = {}): ToolCallView => ({
  id: 'call-1',
  wireName: 'files__write_file',
  alias: 'files',
  tool: 'write_file',
  description: 'Writes a file to disk',
  rawArguments: '{"path":"/tmp/x"}',
  arguments: { path: '/tmp/x' },
  ...fields,
});

let h: Harness;
const app = useRenderedApp({ fakeTimers: true });

async function ask(view: ToolCallView) {
  const probe = await askApproval(h, view);
  await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
  return probe;
}

/** The rows inside the frame's border, top to bottom. */
function frameRows(screen: string): string[] {
  const lines = screen.split('\n');
  const top = lines.findIndex((line) => line.startsWith('╭─ Run this'));
  const bottom = lines.findIndex((line, index) => index > top && line.startsWith('╰'));
  return lines.slice(top + 1, bottom).map((line) => line.replace(/^│ ?/, '').replace(/ ?│$/, '').trimEnd());
}

describe('approval frame: the header stays while the arguments scroll', () => {
  it('80x14, a short call: server and tool stay on screen through every PgDn, and the keys work at the end', async () => {
    h = app.render({ columns: 80, rows: 14 });
    const probe = await ask(call({ arguments: { path: '/tmp/x', content: 'hello', mode: 'overwrite' }, rawArguments: '{}' }));
    for (let press = 0; press <= 3; press++) {
      const rows = frameRows(h.screen());
      expect(rows.some((row) => row.includes('server files · tool write_file')), `after ${press} PgDn:\n${h.screen()}`).toBe(true);
      await h.type(PAGE_DOWN);
    }
    expect(h.screen()).toContain('"mode": "overwrite"');
    expect(h.screen()).toContain('server files · tool write_file');
    await h.type('y');
    expect(probe.answer).toEqual({ action: 'allow', scope: 'once' });
  });

  it('80x24, long arguments: at the end the whole header is still there and the counter counts argument lines only', async () => {
    h = app.render({ columns: 80, rows: 24 });
    const args = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`key${index}`, `value ${index}`]));
    // Pretty JSON of 40 keys is 42 lines: the braces and one line per key.
    await ask(call({ arguments: args, rawArguments: JSON.stringify(args) }));
    const first = frameRows(h.screen());
    expect(first.slice(0, 3)).toEqual(['call files__write_file', 'server files · tool write_file', 'Writes a file to disk']);
    expect(first[3]).toMatch(/^arguments · lines 1–\d+ of 42 ↓ · read every line first$/);
    expect(first[4]).toBe('{');

    await readThrough(h);
    const last = frameRows(h.screen());
    expect(last.slice(0, 3)).toEqual(['call files__write_file', 'server files · tool write_file', 'Writes a file to disk']);
    expect(last[3]).toMatch(/^arguments · lines \d+–42 of 42 ↑$/);
    expect(last).toContain('}');
    expect(last.at(-1)).toMatch(/\[y once\] \[t tool\]/);
  });

  it('a changed definition stays in view while scrolling, even when the header is compacted', async () => {
    h = app.render({ columns: 80, rows: 14 });
    const args = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [`key${index}`, index]));
    await ask(call({ arguments: args, rawArguments: JSON.stringify(args), definitionChanged: 'description changed' }));
    await readThrough(h);
    const rows = frameRows(h.screen());
    expect(rows[0]).toBe('server files · tool write_file');
    expect(rows[1]).toContain('▲ changed since last approved: description changed');
    expect(rows[2]).toBe('arguments · lines 22–22 of 22 ↑');
  });
});

describe('command frame: the counter counts the command lines only', () => {
  it('a long command scrolls under its pinned note, and can be run at the end', async () => {
    h = app.render({ columns: 80, rows: 24 });
    const command = Array.from({ length: 30 }, (_, index) => `echo step ${index + 1}`).join('\n');
    const probe = await proposeCommand(h, command);
    await vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);
    const lines = h.screen().split('\n');
    const top = lines.findIndex((line) => line.startsWith('╭─ Run this command?'));
    expect(lines[top + 1]).toContain('proposed by the model, runs in your shell here');
    expect(lines[top + 2]).toMatch(/lines 1–\d+ of 30 ↓ · read every line first/);
    await h.type('y');
    expect(probe.answer).toBeUndefined();
    await readThrough(h);
    expect(h.screen()).toMatch(/lines \d+–30 of 30 ↑/);
    expect(h.screen()).toContain('proposed by the model, runs in your shell here');
    await h.type('y');
    expect(probe.answer).toEqual({ action: 'run', command });
  });
});
