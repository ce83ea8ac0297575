import { rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { textReply } from '../helpers/scripted-broker';
import { keys, makeScratchHome, TerminalSession, writeHomeConfig } from '../helpers/terminal';

const { broker, track } = useBrokerAndTerminals({ fallback: () => textReply('ok') });
const homes: string[] = [];

afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function scratchHome(): string {
  const home = makeScratchHome();
  homes.push(home);
  writeHomeConfig(home, { models: { scripted: { baseUrl: broker.url, model: 'scripted' }, other: { baseUrl: broker.url, model: 'other' } }, defaultModel: 'scripted' });
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
});
