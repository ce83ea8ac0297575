import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { delayFirstByte, textReply } from '../helpers/scripted-broker';
import { keys, makeScratchHome, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

const { broker, track } = useBrokerAndTerminals({ fallback: () => textReply('ok') });
const homes: string[] = [];

afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function scratchHome(extra: Record<string, unknown> = {}): string {
  const home = makeScratchHome();
  homes.push(home);
  writeHomeConfig(home, { models: { scripted: { baseUrl: broker.url, model: 'scripted' }, other: { baseUrl: broker.url, model: 'other' } }, defaultModel: 'scripted', ...extra });
  return home;
}

describe('end to end: the input bar', () => {
  it('keeps the input history across runs in the state directory, mode 0600', async () => {
    const home = scratchHome();
    let session = track(new TerminalSession({ home, cols: 100, rows: 24 }));
    await session.waitFor('Ask anything');
    await session.typeSlowly('first message to remember');
    session.write(keys.enter);
    await session.waitFor('ok');
    session.write(keys.ctrl('d'));
    expect(await session.waitForExit()).toBe(0);
    await session.dispose();

    const file = path.join(home, '.local', 'state', 'aish', 'input-history');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    session = track(new TerminalSession({ home, cols: 100, rows: 24 }));
    await session.waitFor('Ask anything');
    session.write(keys.up);
    await session.waitFor('› first message to remember');
  });

  it('completes :commands and model names with Tab', async () => {
    const session = track(new TerminalSession({ home: scratchHome(), cols: 100, rows: 24 }));
    await session.waitFor('Ask anything');
    await session.typeSlowly(':mo');
    session.write(keys.tab);
    await session.waitFor('› :model ');
    await session.typeSlowly('ot');
    session.write(keys.tab);
    await session.waitFor('› :model other');
    session.write(keys.enter);
    await session.waitFor(/other · idle/);
  });

  it('Esc right after Enter cancels the message just sent, before the screen has shown it running', async () => {
    // Four frames a second: the screen learns that the answer was asked for up to 250 ms after Enter.
    // An Esc in that window must still reach the answer, as it does a moment later.
    const session = track(new TerminalSession({ home: scratchHome({ ui: { maxFps: 4 } }), cols: 100, rows: 24 }));
    await session.waitFor('Ask anything');
    const words = Array.from({ length: 40 }, (_, index) => `slowword${index}`).join(' ');
    // The answer's first byte comes a second late: on a slow machine too, the Esc comes before any of it.
    broker.route(() => delayFirstByte(textReply(words, { tokensPerSecond: 5 }), 1000));
    await session.typeSlowly('answer me slowly');
    await session.waitFor('› answer me slowly');
    session.write(keys.enter);
    await sleep(30);
    session.write(keys.escape);
    const screen = await session.waitFor('cancelled before the answer began');
    expect(screen).toContain('› answer me slowly');
    await sleep(1500);
    const later = await session.screen();
    expect(later).not.toContain('slowword');
    expect(later).toMatch(/scripted · idle/);
  });
});
