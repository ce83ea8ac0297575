import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { isToolResultTurn, textReply, toolCallReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { keys, makeScratchHome, ROOT, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// Through the built binary: while long arguments scroll in the approval frame, what is being
// approved (server and tool) never leaves it, and the allow key works once all was on screen.


/** Pages through a frame (down, or up with PgUp) one screenful at a time, each key its own read. */
async function pageThrough(term: { write: (data: string) => unknown }, key = keys.pageDown): Promise<void> {
  for (let press = 0; press < 30; press++) {
    term.write(key);
    await sleep(30);
  }
}
const FRAME_DELAY_MS = 600;
const { broker, track } = useBrokerAndTerminals();

const message = Array.from({ length: 80 }, (_, index) => `line ${index + 1} of a long message`).join('\n');

function longArgumentsRoute(request: ReceivedRequest) {
  if (isToolResultTurn(request)) return textReply('Echoed it.');
  return toolCallReply([{ name: 'builtin__calculator', arguments: { expression: '1+1', note: message } }], { textBefore: 'Long arguments.' });
}

/** The rows inside the approval frame's border. */
function frameRows(screen: string): string[] {
  const lines = screen.split('\n');
  const top = lines.findIndex((line) => line.startsWith('╭─ Run this tool?'));
  const bottom = lines.findIndex((line, index) => index > top && line.startsWith('╰'));
  return lines.slice(top + 1, bottom).map((line) => line.replace(/^│ /, '').replace(/\s*│$/, ''));
}

describe('end to end: the approval frame header is pinned', () => {
  it('80x24, long arguments scrolled to the end: server and tool still shown, counter over argument lines, y allows', async () => {
    const home = makeScratchHome();
    writeHomeConfig(home, { models: { scripted: { baseUrl: broker.url, model: 'scripted' } }, defaultModel: 'scripted', mcp: { servers: {} } });
    const term = track(new TerminalSession({ cols: 80, rows: 24, home }));
    await term.waitFor('mcp 1/1');
    broker.route(longArgumentsRoute);
    await term.typeSlowly('go');
    await term.waitFor('go');
    term.write(keys.enter);
    const first = frameRows(await term.waitFor('Run this tool?'));
    expect(first.slice(0, 2)).toEqual(['call builtin__calculator', 'server builtin · tool calculator']);
    const total = /^arguments · lines 1–\d+ of (\d+) ↓/.exec(first[3] ?? '')?.[1];
    expect(total, first.join('\n')).toBeDefined();
    await sleep(FRAME_DELAY_MS);
    for (let press = 0; press < 3; press++) {
      term.write(keys.pageDown);
      await sleep(100);
      expect(frameRows(await term.screen())[1]).toBe('server builtin · tool calculator');
    }
    // End alone would leave the rows it jumps over unread: page through to the bottom.
    await pageThrough(term);
    const last = frameRows(await term.waitFor(new RegExp(`lines \\d+–${total} of ${total} ↑ *│`)));
    expect(last.slice(0, 3)).toEqual(['call builtin__calculator', 'server builtin · tool calculator', expect.stringMatching(/arithmetic/i)]);
    expect(last.join('\n')).toContain('line 80 of a long message');
    await sleep(150);
    term.write('y');
    await term.waitFor('Echoed it.', 20_000);
  });
});

// A stdio server whose tools are named as asked (HOSTILE_EXTRA), with plain text.
const NAMING_SERVER = path.join(ROOT, 'test', 'security', 'fixtures', 'hostile-mcp-server.mjs');
const ALIAS = 'a-server-alias-of-32-characters-';
const TOOL = `write_${'x'.repeat(140)}_end`;
const NAMING_SERVER_SCRIPT = `Object.assign(process.env, ${JSON.stringify({ HOSTILE_TEXT: 'plain', HOSTILE_EXTRA: TOOL })}); await import(${JSON.stringify(pathToFileURL(NAMING_SERVER).href)});`;

describe('end to end: a call with very long names in a short terminal', () => {
  for (const [cols, rows] of [
    // Both too short for even the compact header beside the arguments.
    [80, 14],
    [160, 13],
  ] as const) {
    it(`${cols}x${rows}: the frame fits above the input, names one shortened row, and y works only after the whole name was read`, async () => {
      const home = makeScratchHome();
      writeHomeConfig(home, {
        models: { scripted: { baseUrl: broker.url, model: 'scripted' } },
        defaultModel: 'scripted',
        // The names go in on the command line: values in `env` are treated as secrets and masked.
        mcp: { servers: { [ALIAS]: { command: process.execPath, args: ['--input-type=module', '-e', NAMING_SERVER_SCRIPT] } } },
      });
      const term = track(new TerminalSession({ cols, rows, home }));
      await term.waitFor('mcp 2/2', 20_000);
      broker.route((request) => {
        if (isToolResultTurn(request)) return textReply('Echoed it.');
        // The model calls the name it was offered: the wire name, cut to 64 characters.
        const offered = ((request.body?.tools ?? []) as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
        return toolCallReply([{ name: offered.find((name) => name.startsWith(`${ALIAS}__write_`))!, arguments: { text: 'hello' } }]);
      });
      await term.typeSlowly('go');
      await term.waitFor('go');
      term.write(keys.enter);
      await term.waitFor(/read every line first[^]*\[y /);
      // The chat column only (at 160 the sidebar is on the right: 32 columns and a gap).
      const lines = (await term.lines()).map((line) => line.slice(0, cols >= 90 ? cols - 33 : cols));
      const frame = frameRows(lines.join('\n'));
      expect(frame[0], lines.join('\n')).toMatch(/^server a-serv\S* · tool write_x+…x+_end \(shortened\)$/);
      expect(frame[1]).toMatch(/^lines 1–\d+ of \d+ ↓ · read every line first$/);
      expect(frame[2]).toMatch(/^call a-server-alias-of-32-characters-__write_x+/);
      // The frame's bottom border is right above the input box, the status bar is the last row.
      const bottom = lines.findIndex((line, index) => index > lines.findIndex((row) => row.startsWith('╭─ Run this tool?')) && line.startsWith('╰'));
      expect(lines[bottom + 1]!.startsWith('╭'), lines.join('\n')).toBe(true);
      expect(lines[rows - 1]).toMatch(/mcp 2\/2/);

      await sleep(FRAME_DELAY_MS);
      term.write('y');
      await term.waitFor('read the whole call first');
      // End shows the bottom but leaves what it skipped unread; paging back up reads the rest.
      term.write(keys.end);
      // Keys read together with another (the app busy redrawing) count as typed ahead and go to
      // the input; a pause lets each key be read on its own.
      await sleep(400);
      term.write('y');
      await term.waitFor('read the whole call first');
      await pageThrough(term, keys.pageUp);
      // Back at the top with nothing left unread: the note is gone.
      await term.waitFor(/lines 1–\d+ of \d+ ↓ more/);
      // Keys read together with another (the app busy redrawing) count as typed ahead and go to
      // the input; a pause lets each key be read on its own.
      await sleep(400);
      term.write('y');
      await term.waitFor('Echoed it.', 20_000);
    });
  }
});
