import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { textReply } from '../helpers/scripted-broker';
import { keys, makeScratchHome, TerminalSession, writeHomeConfig } from '../helpers/terminal';

const { broker, track } = useBrokerAndTerminals();

/** Two models on the scripted broker, so `:model` has somewhere to go. */
function start(cols: number, rows: number): TerminalSession {
  const home = makeScratchHome();
  writeHomeConfig(home, {
    models: { alpha: { baseUrl: broker.url, model: 'alpha-m' }, beta: { baseUrl: broker.url, model: 'beta-m' } },
    defaultModel: 'alpha',
    mcp: { servers: {} },
  });
  return track(new TerminalSession({ cols, rows, home }));
}

describe('wide terminals, typing into other panels, :model (built binary in a pseudo-terminal)', () => {
  it('gives the sidebar a fifth of 200 columns, and the transcript the rest', async () => {
    const term = start(200, 50);
    const first = await term.waitFor((screen) => screen.includes('MCP servers') && screen.includes('┌'));
    const top = first.split('\n').find((line) => line.includes('┌'))!;
    expect(top.indexOf('┌')).toBe(160);
    expect(top.length).toBe(200);
    // A long line in the transcript wraps at the transcript's width, right before the gap.
    await term.typeSlowly(`:model ${'z'.repeat(200)}`);
    term.write(keys.enter);
    const screen = await term.waitFor('no model named');
    const row = screen.split('\n').find((line) => line.includes('no model named'))!;
    expect(row.slice(159, 161)).toBe(' │');
    expect(row.slice(0, 159).trimEnd().length).toBe(159);
  });

  it('keys typed while the transcript has the focus go to the input, the first one too', async () => {
    const term = start(120, 40);
    await term.waitFor('Ask anything');
    term.write(keys.tab);
    await term.waitFor('r reconnect');
    term.write(keys.tab);
    await term.waitFor('r reasoning');
    await term.typeSlowly('hello');
    // The input has every key and the focus (its key hints in the status bar).
    await term.waitFor((screen) => screen.includes('› hello') && screen.includes('Enter send'));
    broker.enqueue(textReply('hi back'));
    term.write(keys.enter);
    await term.waitFor('hi back');
  });

  it('after :model the status bar does not show the previous model token counts', async () => {
    const term = start(120, 40);
    await term.waitFor('Ask anything');
    broker.enqueue(textReply('first answer', { usage: { prompt_tokens: 1234, completion_tokens: 56 } }));
    await term.typeSlowly('hi');
    term.write(keys.enter);
    await term.waitFor(/alpha · idle · .*1\.2k in \/ 56 out/);
    await term.typeSlowly(':model beta');
    term.write(keys.enter);
    const screen = await term.waitFor((text) => text.includes('from the next request on') && /^beta · idle/m.test(text));
    // Only the context meter, measured for beta itself (README.md, "Context"), may stand before the servers.
    expect(screen.split('\n').at(-1)).toMatch(/^beta · idle · ([\d.]+k?\/(\d+k?|\?) · )?mcp /);
    expect(screen.split('\n').at(-1)).not.toContain('1.2k in');
  });
});
