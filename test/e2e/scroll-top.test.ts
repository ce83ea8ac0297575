import { describe, expect, it } from 'vitest';
import { disposeAfterEach } from '../helpers/lifecycle';
import { keys, TerminalSession } from '../helpers/terminal';

const track = disposeAfterEach();

/** `:help` at 80x24 (taller than the transcript's 19 rows), then Tab: the transcript has the focus. */
async function helpInFocusedTranscript(): Promise<TerminalSession> {
  const session = track(new TerminalSession({ cols: 80, rows: 24 }));
  await session.waitFor('Ask anything');
  await session.typeSlowly(':help');
  session.write(keys.enter);
  await session.waitFor((screen) => screen.includes('Home / End'));
  session.write(keys.tab);
  await session.waitFor('↑↓ scroll');
  return session;
}

const firstRowIsHelpTitle = (screen: string) => screen.split('\n')[0]!.includes('Commands:');

describe('the first row of a transcript taller than the screen (built binary, 80x24)', () => {
  it('Home shows the first line of :help, End the last', async () => {
    const session = await helpInFocusedTranscript();
    expect(firstRowIsHelpTitle(await session.screen())).toBe(false);
    session.write(keys.home);
    const top = await session.waitFor(firstRowIsHelpTitle);
    expect(top.split('\n')[1]).toContain(':help');
    expect(top).toMatch(/↓ \d+ lines below/);
    session.write(keys.end);
    const bottom = await session.waitFor((screen) => !screen.includes('lines below'));
    expect(bottom).toContain('Home / End');
  });

  it('PgUp pressed until it stops ends on the first line; ↓ then ↑ comes back to it', async () => {
    const session = await helpInFocusedTranscript();
    for (let press = 0; press < 20; press++) session.write(keys.pageUp);
    await session.waitFor(firstRowIsHelpTitle);
    // One row down and back up with the line keys.
    session.write(keys.down);
    await session.waitFor((screen) => !firstRowIsHelpTitle(screen) && screen.split('\n')[0]!.includes(':help'));
    session.write(keys.up);
    await session.waitFor(firstRowIsHelpTitle);
  });
});
