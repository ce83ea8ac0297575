import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { isToolResultTurn, textReply, toolCallReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { keys, makeScratchHome, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// Through the built binary: while long arguments scroll in the approval frame, what is being
// approved (server and tool) never leaves it, and the allow key works once all was on screen.

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
    term.write(keys.end);
    const last = frameRows(await term.waitFor(new RegExp(`lines \\d+–${total} of ${total} ↑`)));
    expect(last.slice(0, 3)).toEqual(['call builtin__calculator', 'server builtin · tool calculator', expect.stringMatching(/arithmetic/i)]);
    expect(last.join('\n')).toContain('line 80 of a long message');
    await sleep(150);
    term.write('y');
    await term.waitFor('Echoed it.', 20_000);
  });
});
