import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { disposeAfterEach } from '../helpers/lifecycle';
import { ROOT, TerminalSession } from '../helpers/terminal';

const track = disposeAfterEach();

describe('an uncaught error', () => {
  it('restores the terminal first, then prints the message, and exits 1', async () => {
    const crash = path.join(ROOT, 'test', 'fixtures', 'crash-after-start.mjs');
    const session = track(new TerminalSession({
      cols: 100,
      rows: 30,
      env: { NODE_OPTIONS: `--import=${crash}`, AISH_TEST_CRASH_AFTER_MS: '1500' },
    }));
    await session.waitFor('Ask anything');
    expect(await session.onAltScreen()).toBe(true);
    expect(await session.waitForExit()).toBe(1);
    expect(await session.onAltScreen()).toBe(false);
    // The message comes after the terminal was put back, so it is readable on the main screen.
    const restoredAt = session.raw.lastIndexOf('\x1b[?1049l');
    const messageAt = session.raw.indexOf('aish-tui: unexpected error: Error: simulated failure in a callback');
    expect(restoredAt).toBeGreaterThan(-1);
    expect(messageAt).toBeGreaterThan(restoredAt);
    expect(await session.screen()).toContain('simulated failure in a callback');
  });
});
