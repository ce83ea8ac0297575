import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { textReply } from '../helpers/scripted-broker';
import { keys, makeScratchHome, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// What someone coming from another terminal client tries first, in a real pty (README.md:
// Commands, Keys, Files and images, Going back, Getting text out).
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

const chats = () => broker.requests.filter((request) => request.path.endsWith('/chat/completions'));

/** Sends `text` and waits until its answer has been asked for and the app is idle again. */
async function sendAndWait(session: TerminalSession, text: string): Promise<void> {
  const before = chats().length;
  await session.typeSlowly(text);
  session.write(keys.enter);
  const deadline = Date.now() + 10_000;
  while (chats().length === before && Date.now() < deadline) await sleep(20);
  await session.waitFor(/ idle /);
  await sleep(100);
}

const lastSentUser = () => chats().at(-1)!.body!.messages!.filter((message) => message.role === 'user').at(-1)!.content;

/** An editor that replaces the file with the draft it was given, upper-cased, plus a line. */
function scriptedEditor(home: string, body = 'tr a-z A-Z < "$1" > "$1.new" && printf "\\nfrom the editor\\n" >> "$1.new" && mv "$1.new" "$1"'): string {
  const file = path.join(home, 'editor.sh');
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

describe('end to end: habits from other clients', () => {
  it('/model opens a picker that filters as you type; Enter switches; an unknown /word stays in the input', async () => {
    const session = track(new TerminalSession({ home: scratchHome(), cols: 80, rows: 24 }));
    await session.waitFor('Ask anything');
    await session.typeSlowly('/model');
    session.write(keys.enter);
    await session.waitFor('Choose a model');
    await session.typeSlowly('oth');
    await session.waitFor(/1 of 2/);
    session.write(keys.enter);
    await session.waitFor(/other · idle/);
    await session.typeSlowly('/frobnicate');
    session.write(keys.enter);
    await session.waitFor('not sent: /frobnicate is not a command');
    expect(await session.screen()).toContain('› /frobnicate');
  });

  it('Ctrl+G edits the draft in $EDITOR, comes back to the full screen, and the saved text is the draft; a failing editor leaves it', async () => {
    const home = scratchHome();
    const session = track(new TerminalSession({ home, cols: 100, rows: 30, env: { EDITOR: scriptedEditor(home) } }));
    await session.waitFor('Ask anything');
    await session.typeSlowly('draft words');
    session.write(keys.ctrl('g'));
    await session.waitFor('from the editor');
    expect(await session.screen()).toContain('› DRAFT WORDS');
    expect(await session.onAltScreen()).toBe(true);
    await sendAndWait(session, '');
    expect(lastSentUser()).toBe('DRAFT WORDS\nfrom the editor');
    await session.dispose();

    const failing = track(new TerminalSession({ home, cols: 100, rows: 30, env: { VISUAL: scriptedEditor(home, 'exit 3') } }));
    await failing.waitFor('Ask anything');
    await failing.typeSlowly('keep me');
    failing.write(keys.ctrl('x'));
    await sleep(30);
    failing.write(keys.ctrl('e'));
    await failing.waitFor(/external editor: \S+editor\.sh exited with code/);
    expect(await failing.screen()).toContain('› keep me');
  });

  it(':copy writes OSC 52 to the terminal only on the command', async () => {
    const session = track(new TerminalSession({ home: scratchHome(), cols: 100, rows: 30 }));
    await session.waitFor('Ask anything');
    broker.enqueue(textReply('the answer to copy'));
    await session.typeSlowly('hi');
    session.write(keys.enter);
    await session.waitFor('the answer to copy');
    expect(session.raw).not.toContain('\x1b]52;');
    await session.typeSlowly(':copy');
    session.write(keys.enter);
    await session.waitFor('to the clipboard (OSC 52)');
    expect(session.raw).toContain(`\x1b]52;c;${Buffer.from('the answer to copy').toString('base64')}\x07`);
  });

  it('Esc Esc on an empty input picks an earlier message; after a resume the rewound turns stay out of the context', async () => {
    const home = scratchHome();
    const session = track(new TerminalSession({ home, cols: 100, rows: 30 }));
    await session.waitFor('Ask anything');
    for (const text of ['alpha', 'beta']) await sendAndWait(session, text);
    session.write(keys.escape);
    await sleep(100);
    session.write(keys.escape);
    await session.waitFor('Go back to a message of yours');
    session.write(keys.down);
    session.write(keys.enter);
    await session.waitFor('› alpha');
    await session.waitFor('went back: 4 messages left the context');
    session.write(keys.ctrl('d'));
    await session.waitForExit();
    await session.dispose();

    const again = track(new TerminalSession({ home, cols: 100, rows: 30, args: ['--continue'] }));
    await again.waitFor('resumed session');
    await sendAndWait(again, 'gamma');
    const users = chats().at(-1)!.body!.messages!.filter((message) => message.role === 'user').map((message) => message.content);
    expect(users).toEqual(['gamma']);
  });

  it('@ completes files under the working directory (not ignored ones) and the file goes with the message as a chip', async () => {
    const home = scratchHome();
    const project = path.join(home, 'project');
    mkdirSync(path.join(project, 'src'), { recursive: true });
    writeFileSync(path.join(project, 'src', 'main.ts'), 'export const x = 1;\n');
    writeFileSync(path.join(project, 'src', 'main.log'), 'noise');
    writeFileSync(path.join(project, '.gitignore'), '*.log\n');
    const session = track(new TerminalSession({ home, cwd: project, cols: 100, rows: 30 }));
    await session.waitFor('Ask anything');
    await session.typeSlowly('read @sr');
    session.write(keys.tab);
    await session.waitFor('› read @src/');
    await session.typeSlowly('ma');
    session.write(keys.tab);
    await session.waitFor('› read @src/main.ts');
    await sendAndWait(session, '');
    await session.waitFor('[src/main.ts · 20 B]');
    const sent = lastSentUser() as string;
    expect(sent).toContain('[file: src/main.ts]\n```\nexport const x = 1;\n```');
    expect(readFileSync(path.join(project, 'src', 'main.ts'), 'utf8')).toBe('export const x = 1;\n');
  });
});
