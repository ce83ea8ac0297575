import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { textReply } from '../helpers/scripted-broker';
import { keys, makeScratchHome, ROOT, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// The start-up paint (src/boot/remembered-screen.ts) in a real pty: a start draws its first frame
// and it is remembered; the next start in the same place shows it before the app's code is
// loaded, and the app then takes the screen over.

const { broker, track } = useBrokerAndTerminals({ fallback: (request) => textReply(`you said: ${String(request.body?.messages?.at(-1)?.content)}`) });
const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

const ENTER_SCREEN = '\x1b[?1049h\x1b[?2004h\x1b[?1004h';
const LEAVE_SCREEN = '\x1b[?1049l';
/** The first thing the app itself writes once its screen has begun: the background colour query. */
const APP_QUERY = '\x1b]11;?\x07';

function scratchHome(configTs?: string): string {
  const home = makeScratchHome('aish-painted-');
  homes.push(home);
  if (configTs) {
    mkdirSync(path.join(home, '.config', 'aish'), { recursive: true });
    writeFileSync(path.join(home, '.config', 'aish', 'config.ts'), configTs);
  } else {
    writeHomeConfig(home, { models: { scripted: { baseUrl: broker.url, model: 'scripted' } }, defaultModel: 'scripted' });
  }
  return home;
}

const screensDir = (home: string) => path.join(home, '.local', 'state', 'aish', 'screens');
function rememberedFiles(home: string): string[] {
  return existsSync(screensDir(home)) ? readdirSync(screensDir(home)).filter((name) => name.endsWith('.screen')) : [];
}

/** The frame part of the one remembered file (after the key and a blank line). */
function rememberedFrame(home: string): { file: string; key: string; frame: string } {
  const [name] = rememberedFiles(home);
  const file = path.join(screensDir(home), name!);
  const text = readFileSync(file, 'utf8');
  const split = text.indexOf('\n\n');
  return { file, key: text.slice(0, split), frame: text.slice(split + 2) };
}

/** A first start: draws, remembers its first frame, quits. */
async function firstStart(home: string, env: Record<string, string> = {}): Promise<void> {
  const session = track(new TerminalSession({ home, cols: 100, rows: 30, env }));
  await session.waitFor('Ask anything');
  const deadline = Date.now() + 5_000;
  while (rememberedFiles(home).length === 0 && Date.now() < deadline) await sleep(20);
  session.write(':quit\r');
  expect(await session.waitForExit()).toBe(0);
}

describe('the start-up paint', () => {
  it('shows the last first frame before the app writes anything, and keys typed at once reach the input box', async () => {
    const home = scratchHome();
    // The first start in a home paints nothing early: there is nothing remembered yet.
    const first = track(new TerminalSession({ home, cols: 100, rows: 30 }));
    await first.waitFor('Ask anything');
    expect(first.raw.startsWith(ENTER_SCREEN + APP_QUERY)).toBe(true);
    const deadline = Date.now() + 5_000;
    while (rememberedFiles(home).length === 0 && Date.now() < deadline) await sleep(20);
    first.write(':quit\r');
    expect(await first.waitForExit()).toBe(0);
    const remembered = rememberedFrame(home);
    expect(remembered.frame).toContain('Ask anything');
    // The file holds the frame the app wrote first, byte for byte.
    expect(first.raw).toContain(remembered.frame);

    const second = track(new TerminalSession({ home, cols: 100, rows: 30 }));
    await second.waitFor('Ask anything');
    // Typed the moment the box shows: the keys wait in the terminal for the app to read them.
    second.write('hello early\r');
    // The remembered frame came first, whole; everything the app wrote came after it.
    expect(second.raw.startsWith(ENTER_SCREEN + remembered.frame)).toBe(true);
    await second.waitFor('you said: hello early');
    // Sent before the servers had started: it waited for them, so the built-in tools were offered.
    const early = broker.requests.find((request) => request.body?.messages?.at(-1)?.content === 'hello early');
    const offered = ((early?.body?.tools ?? []) as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
    expect(offered).toContain('builtin__calculator');
    expect(second.raw.indexOf(APP_QUERY)).toBeGreaterThan(ENTER_SCREEN.length + remembered.frame.length - 1);
    // The screen was entered once: the app kept the painted one instead of clearing it.
    expect(second.raw.split('\x1b[?1049h').length - 1).toBe(1);
    second.write(':quit\r');
    expect(await second.waitForExit()).toBe(0);
    expect(second.raw.endsWith(LEAVE_SCREEN) || second.raw.lastIndexOf(LEAVE_SCREEN) > second.raw.lastIndexOf('you said')).toBe(true);
  });

  it('is drawn over by the app when what it remembers is out of date, and the new first frame is remembered', async () => {
    const home = scratchHome();
    await firstStart(home);
    const { file, key, frame } = rememberedFrame(home);
    // Same length, so the frame's layout is kept: only the words are stale.
    writeFileSync(file, `${key}\n\n${frame.replace('Ask anything', 'STALE WORDS!')}`);

    const session = track(new TerminalSession({ home, cols: 100, rows: 30 }));
    await session.waitFor('Ask anything');
    expect(session.raw).toContain('STALE WORDS!');
    expect(await session.screen()).not.toContain('STALE WORDS!');
    const deadline = Date.now() + 5_000;
    while (readFileSync(file, 'utf8').includes('STALE') && Date.now() < deadline) await sleep(20);
    expect(readFileSync(file, 'utf8')).toBe(`${key}\n\n${frame}`);
    session.write(':quit\r');
    expect(await session.waitForExit()).toBe(0);
  });

  it('replays nothing from a remembered file that holds more than text and cursor moves', async () => {
    const home = scratchHome();
    await firstStart(home);
    const { file, key, frame } = rememberedFrame(home);
    writeFileSync(file, `${key}\n\n${frame}HOSTILE\x1b]52;c;cm0gLXJmIH4K\x07`);

    const session = track(new TerminalSession({ home, cols: 100, rows: 30 }));
    await session.waitFor('Ask anything');
    expect(session.raw).not.toContain('HOSTILE');
    expect(session.raw).not.toContain('\x1b]52');
    expect(session.raw.startsWith(ENTER_SCREEN + APP_QUERY)).toBe(true);
    session.write(':quit\r');
    expect(await session.waitForExit()).toBe(0);
  });

  it('is taken back when the app writes to the terminal before its screen begins: the error is readable, the terminal restored', async () => {
    const config = `if (process.env.BREAK_CONFIG) throw new Error('broken on purpose');\nexport default { models: { scripted: { baseUrl: ${JSON.stringify(broker.url)}, model: 'scripted' } }, defaultModel: 'scripted' };\n`;
    const home = scratchHome(config);
    await firstStart(home);
    const { frame } = rememberedFrame(home);

    const session = track(new TerminalSession({ home, cols: 100, rows: 30, env: { BREAK_CONFIG: '1' } }));
    expect(await session.waitForExit(20_000)).toBe(2);
    expect(session.raw.startsWith(ENTER_SCREEN + frame)).toBe(true);
    const leftAt = session.raw.indexOf(LEAVE_SCREEN);
    const errorAt = session.raw.indexOf('broken on purpose');
    expect(leftAt).toBeGreaterThan(0);
    expect(errorAt).toBeGreaterThan(leftAt);
    expect(await session.onAltScreen()).toBe(false);
    expect(await session.screen()).toContain('broken on purpose');
    // Not painted again next time: this start needed the normal screen.
    expect(rememberedFiles(home)).toEqual([]);
  });

  it('is taken back when the process dies before the app takes over (an uncaught error, a kill)', async () => {
    const home = scratchHome();
    await firstStart(home);
    const { frame } = rememberedFrame(home);

    // An error thrown right after the paint, long before the app's code has loaded.
    const crash = path.join(ROOT, 'test', 'fixtures', 'crash-after-paint.mjs');
    const crashed = track(new TerminalSession({ home, cols: 100, rows: 30, env: { NODE_OPTIONS: `--import=${crash}` } }));
    expect(await crashed.waitForExit()).toBe(1);
    expect(crashed.raw.startsWith(ENTER_SCREEN + frame)).toBe(true);
    expect(crashed.raw.indexOf('simulated failure after the paint')).toBeGreaterThan(crashed.raw.indexOf(LEAVE_SCREEN));
    expect(await crashed.onAltScreen()).toBe(false);
    expect(await crashed.screen()).toContain('simulated failure after the paint');
    expect(crashed.raw).not.toContain(APP_QUERY);

    await firstStart(home);
    const killed = track(new TerminalSession({ home, cols: 100, rows: 30 }));
    await killed.waitFor('Ask anything');
    killed.kill('SIGTERM');
    expect(await killed.waitForExit()).toBe(143);
    expect(await killed.onAltScreen()).toBe(false);
    expect(killed.raw.endsWith(LEAVE_SCREEN)).toBe(true);
  });

  it('is not used for a start with arguments, nor after the terminal was resized', async () => {
    const home = scratchHome();
    await firstStart(home);
    const { frame } = rememberedFrame(home);
    const withArgs = track(new TerminalSession({ home, cols: 100, rows: 30, args: ['--no-sidebar'] }));
    await withArgs.waitFor('Ask anything');
    expect(withArgs.raw.startsWith(ENTER_SCREEN + APP_QUERY)).toBe(true);
    withArgs.write(keys.ctrl('d'));
    await withArgs.waitForExit();
    const resized = track(new TerminalSession({ home, cols: 90, rows: 30 }));
    await resized.waitFor('Ask anything');
    expect(resized.raw).not.toContain(frame);
    expect(resized.raw.startsWith(ENTER_SCREEN + APP_QUERY)).toBe(true);
    resized.write(keys.ctrl('d'));
    await resized.waitForExit();
  });
});
