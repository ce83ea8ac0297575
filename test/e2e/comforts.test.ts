import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { textReply } from '../helpers/scripted-broker';
import { keys, makeScratchHome, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// Small comforts, in a real pty (README.md, "Notifications", "Themes", "Sessions"): focus reports
// and notifications, the background asked with OSC 11, the resume line on exit, hidden input rows.
const { broker, track } = useBrokerAndTerminals({ fallback: () => textReply('done here') });
const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function scratchHome(ui: Record<string, unknown> = {}): string {
  const home = makeScratchHome();
  homes.push(home);
  writeHomeConfig(home, { models: { scripted: { baseUrl: broker.url, model: 'scripted' } }, ui });
  return home;
}

const chats = () => broker.requests.filter((request) => request.path.endsWith('/chat/completions'));

async function send(session: TerminalSession, text: string): Promise<void> {
  const before = chats().length;
  await session.typeSlowly(text);
  session.write(keys.enter);
  const deadline = Date.now() + 10_000;
  while (chats().length === before && Date.now() < deadline) await sleep(20);
  await session.waitFor(/done here[\s\S]*idle/);
}

const OSC9 = '\x1b]9;aish-tui: the answer has ended\x07';

describe('end to end: small comforts', () => {
  it('asks for focus reports; a notification only while the terminal is not focused; the reports never reach the input', async () => {
    const session = track(new TerminalSession({ home: scratchHome(), cols: 100, rows: 30, env: { TERM_PROGRAM: 'WezTerm' } }));
    await session.waitFor('Ask anything');
    expect(session.raw).toContain('\x1b[?1004h');
    await send(session, 'focused');
    expect(session.raw).not.toContain(OSC9);

    session.write('\x1b[O');
    await send(session, 'away');
    await session.waitFor(() => session.raw.includes(OSC9));
    session.write('\x1b[I');
    await session.typeSlowly('x');
    await session.waitFor('› x');
    expect(await session.screen()).not.toMatch(/\[I|\[O/);
    const count = session.raw.split(OSC9).length;
    session.write(keys.backspace);
    await send(session, 'back');
    expect(session.raw.split(OSC9).length).toBe(count);
  });

  it('asks the background with OSC 11 without waiting for it; a light answer switches colours; the reply never reaches the input; NO_COLOR asks nothing', async () => {
    // 24-bit colour, so the light theme's colours arrive as written (#8c959f: 140;149;159).
    const truecolor = { COLORTERM: 'truecolor' };
    const session = track(new TerminalSession({ home: scratchHome(), cols: 100, rows: 30, env: truecolor }));
    await session.waitFor('Ask anything');
    expect(session.raw).toContain('\x1b]11;?\x07');
    // The light theme's border colour (#8c959f) is not drawn before the answer.
    expect(session.raw).not.toContain('38;2;140;149;159');
    session.write('\x1b]11;rgb:ffff/ffff/ffff\x1b\\');
    await session.waitFor(() => session.raw.includes('38;2;140;149;159'));
    await session.typeSlowly('hi');
    await session.waitFor('› hi');
    expect(await session.screen()).not.toContain('rgb:');

    const plain = track(new TerminalSession({ home: scratchHome(), cols: 100, rows: 30, env: { NO_COLOR: '1' } }));
    await plain.waitFor('Ask anything');
    expect(plain.raw).not.toContain('\x1b]11;?');
    const configured = track(new TerminalSession({ home: scratchHome({ theme: 'light' }), cols: 100, rows: 30, env: truecolor }));
    await configured.waitFor(() => configured.raw.includes('38;2;140;149;159'));
    expect(configured.raw).not.toContain('\x1b]11;?');
  });

  it('prints how to resume after quitting; the input border counts the rows it hides', async () => {
    const home = scratchHome();
    const session = track(new TerminalSession({ home, cols: 80, rows: 24 }));
    await session.waitFor('Ask anything');
    for (let line = 1; line <= 9; line++) {
      await session.typeSlowly(`row ${line}`);
      session.write('\n');
      await sleep(20);
    }
    await session.waitFor(/↑ 4 more lines above/);
    await send(session, 'remember me');
    session.write(keys.ctrl('d'));
    await session.waitForExit();
    const screen = await session.screen();
    const id = /To continue this session: aish-tui --resume (\S+)/.exec(screen)?.[1];
    expect(id).toBeDefined();

    const resumed = track(new TerminalSession({ home, cols: 80, rows: 24, args: ['--resume', id!] }));
    await resumed.waitFor('remember me');
  });
});
