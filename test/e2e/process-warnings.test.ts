import path from 'node:path';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { textReply } from '../helpers/scripted-broker';
import { makeScratchHome, ROOT, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// Node prints process warnings to stderr, which under the full-screen UI is the middle of the
// frame. The UI shows each as one status line instead.

const { broker, track } = useBrokerAndTerminals({ fallback: () => textReply('ok') });
const PRELOAD = path.join(ROOT, 'test', 'helpers', 'warning-preload.cjs');
const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

describe('process warnings under the full-screen UI', () => {
  it('a warning becomes one status line in the transcript, never stderr text over the frame', async () => {
    const home = makeScratchHome();
    homes.push(home);
    writeHomeConfig(home, { models: { scripted: { baseUrl: broker.url, model: 'scripted' } }, defaultModel: 'scripted', builtin: false });
    const session = track(new TerminalSession({ cols: 100, rows: 24, home, env: { NODE_OPTIONS: `--require ${PRELOAD}` } }));
    await session.waitFor('Ask anything');
    session.kill('SIGUSR2');
    const screen = await session.waitFor('node: ProbeWarning: a warning raised inside the app');
    await sleep(300);
    const later = await session.screen();
    // Raised twice, shown once; nothing of node's own printer ("(node:1234) ProbeWarning: …").
    expect(later.split('ProbeWarning').length - 1).toBe(1);
    expect(screen).not.toContain('(node:');
    expect(session.raw).not.toContain('(node:');
  });
});
