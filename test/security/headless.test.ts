import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { textReply, toolCallReply, isToolResultTurn } from '../helpers/scripted-broker';
import { TerminalSession } from '../helpers/terminal';
import { hostileServer, prepareHome } from './helpers/app';
import { expectCleanTerminalOutput } from './helpers/escapes';
import { runHeadless } from './helpers/headless';

// Headless mode writes model and server text too: to a terminal it must be as safe as the UI; to
// a pipe or a file a script gets exactly what the model sent (text) or JSON whose strings parse
// back to the original (json, stream-json).

const HOSTILE = '\x1b]52;c;ZXZpbA==\x07 | safe\rEVIL | \u202Eexe | \x1b[2J | \x9b31m | \x9d0;t\x9c | \x7f | zw\u200B | tag\u{E0041}';

const { broker, track } = useBrokerAndTerminals();

describe('headless output', () => {
  it('on a terminal, the answer and the notes are shown escaped', async () => {
    broker.route((request) => (isToolResultTurn(request) ? textReply(`after ${HOSTILE}`) : toolCallReply([{ name: 'hostile__echo', arguments: { text: 'x' } }], { textBefore: 'calling' })));
    // The tool is not allowed: headless denies it and says so on stderr, naming the hostile server's tool.
    const home = prepareHome({ broker, servers: { hostile: hostileServer({ HOSTILE_TEXT: HOSTILE }) } });
    const term = track(new TerminalSession({ home, args: ['-p', 'go'], cols: 100, rows: 20 }));
    expect(await term.waitForExit(20_000)).toBe(0);
    expectCleanTerminalOutput(term.raw);
    const screen = await term.screen();
    expect(screen).toContain('after \\x1b]52;c;ZXZpbA==\\x07 | safe\\rEVIL | <U+202E>exe | \\x1b[2J | \\x9b31m');
    expect(screen).toContain('tool call hostile__echo denied');
    expect(screen).toContain('hostile__evil\\x1b[2J<U+202E>name is sent to the model as');
  });

  it('piped, text is the original answer; json and stream-json parse back to the original', async () => {
    broker.route(() => textReply(HOSTILE, { reasoning: HOSTILE }));
    const home = prepareHome({ broker });
    const text = await runHeadless(['-p', 'go'], { home });
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`${HOSTILE}\n`);

    const json = await runHeadless(['-p', 'go', '--output-format', 'json'], { home });
    expect(json.code).toBe(0);
    expectCleanTerminalOutput(json.stdout);
    expect(JSON.parse(json.stdout)).toMatchObject({ text: HOSTILE, reasoning: HOSTILE });

    const stream = await runHeadless(['-p', 'go', '--output-format', 'stream-json'], { home });
    expect(stream.code).toBe(0);
    expectCleanTerminalOutput(stream.stdout);
    const events = stream.stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; text?: string });
    expect(events.filter((event) => event.type === 'text').map((event) => event.text).join('')).toBe(HOSTILE);
    expect(events.filter((event) => event.type === 'reasoning').map((event) => event.text).join('')).toBe(HOSTILE);
  });
});
