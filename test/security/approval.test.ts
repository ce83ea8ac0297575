import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { isToolResultTurn, textReply, toolCallReply } from '../helpers/scripted-broker';
import { keys, sleep } from '../helpers/terminal';
import { ask, FRAME_DELAY_MS, hostileServer, startApp, until, waitForSettled } from './helpers/app';

// docs/ARCHITECTURE.md, Security invariants 2, end to end: what you approve is what runs. Keys that arrive too early, come from a
// paste or a burst, or are really a terminal's replies never answer a frame; each frame of a queue
// is answered on its own; the server receives exactly the call that was shown and allowed.

const { broker, track } = useBrokerAndTerminals();

/** Replies a terminal sends on its own: cursor position, device attributes, an OSC colour report, a mode report, focus events. */
const TERMINAL_REPLIES = ['\x1b[24;80R', '\x1b[?64;1;2;6;9;15;22c', '\x1b]11;rgb:yyyy/yyyy/yyyy\x1b\\', '\x1b]10;rgb:ffff/ffff/ffff\x07', '\x1b[?2026;2$y', '\x1b[I', '\x1b[O', '\x1bP1+r796e=79\x1b\\'];

describe('approval frames answer only deliberate keys, and bind the call that was shown', () => {
  it('early keys, pastes, bursts and terminal replies never approve; each queued call is answered alone', async () => {
    const logFile = path.join(os.tmpdir(), `aish-approval-${process.pid}-${Date.now()}.jsonl`);
    broker.route((request) =>
      isToolResultTurn(request)
        ? textReply('model continues')
        : toolCallReply([
            { name: 'hostile__echo', arguments: { text: 'first call' }, id: 'call_a' },
            { name: 'hostile__echo', arguments: { text: 'second call' }, id: 'call_b' },
          ]),
    );
    const term = track(startApp({ broker, servers: { hostile: hostileServer({ HOSTILE_TEXT: 'plain', HOSTILE_LOG: logFile }) } }));
    await term.waitFor('mcp 1/1', 20_000);
    const from = broker.requests.length;
    await ask(term, 'run both');
    // Inside the first 400 ms: a single, deliberate-looking key still does nothing. It is sent as
    // soon as the frame shows (not after the screen settles), so a loaded machine cannot push it
    // past the window.
    await term.waitFor('Run this tool?');
    term.write('y');
    expect(await waitForSettled(term, 'Run this tool?')).toContain('"text": "first call"');
    await sleep(FRAME_DELAY_MS);
    // A paste, a burst of typed-ahead keys, terminal replies (some contain y/t/s/n/e letters).
    term.write(keys.paste('y'));
    await sleep(50);
    term.write('yyyy');
    for (const reply of TERMINAL_REPLIES) {
      await sleep(30);
      term.write(reply);
    }
    await sleep(300);
    let screen = await term.screen();
    expect(screen).toContain('Run this tool?');
    expect(screen).toContain('"text": "first call"');
    expect(existsLog(logFile)).toBe(false);

    // A deliberate key allows exactly the first call.
    term.write('y');
    await term.waitFor('"text": "second call"');
    // The second frame has its own delay: a key right after it appeared is ignored.
    term.write('y');
    await sleep(FRAME_DELAY_MS);
    screen = await term.screen();
    expect(screen).toContain('"text": "second call"');
    term.write('n');
    await term.waitFor('model continues');

    await until(() => existsLog(logFile), 5_000, 'the server log');
    const calls = readFileSync(logFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { name: string; arguments: unknown });
    expect(calls).toEqual([{ name: 'echo', arguments: { text: 'first call' } }]);
    const toolTurns = (broker.requests.at(-1)?.body?.messages ?? []).filter((message) => message.role === 'tool');
    expect(toolTurns.map((message) => [message.tool_call_id, String(message.content).split('\n')[0]])).toEqual([
      ['call_a', 'result plain'],
      ['call_b', '[aish] tool call denied by the user'],
    ]);
    expect(broker.requests.length - from).toBe(2);
  }, 60_000);
});

describe('no accidental approval (README "Safety")', () => {
  it('a sentence typed as the frame appears approves nothing and stays in the input; Enter alone then denies', async () => {
    const logFile = path.join(os.tmpdir(), `aish-typing-${process.pid}-${Date.now()}.jsonl`);
    broker.route((request) =>
      isToolResultTurn(request) ? textReply('model continues') : toolCallReply([{ name: 'hostile__echo', arguments: { text: 'typed over' }, id: 'call_t' }]),
    );
    const term = track(startApp({ broker, servers: { hostile: hostileServer({ HOSTILE_TEXT: 'plain', HOSTILE_LOG: logFile }) } }));
    await term.waitFor('mcp 1/1', 20_000);
    await ask(term, 'go');
    // Someone keeps typing (one key every 30 ms) while the frame appears: its y, e, s, t are
    // answers in the frame, but every key restarts the guard, so none of them answers.
    const sentence = 'yes, send the test text, yes it is that and then some more text to keep typing';
    const typing = term.typeSlowly(sentence, 30);
    await term.waitFor('Run this tool?', 20_000);
    await typing;
    await sleep(200);
    let screen = await term.screen();
    expect(screen).toContain('Run this tool?');
    expect(existsLog(logFile)).toBe(false);
    // Nothing was lost: the whole sentence is in the input.
    expect(screen).toMatch(/│ ›\s+yes, send the test text, yes it is that/);
    // Enter alone, once the keys stopped: the focused button is deny.
    await sleep(FRAME_DELAY_MS);
    term.write(keys.enter);
    await term.waitFor('model continues', 20_000);
    expect(existsLog(logFile)).toBe(false);
    const toolTurns = (broker.requests.at(-1)?.body?.messages ?? []).filter((message) => message.role === 'tool');
    expect(toolTurns.map((message) => String(message.content).split('\n')[0])).toEqual(['[aish] tool call denied by the user']);
    screen = await term.screen();
    expect(screen).toMatch(/│ ›\s+yes, send the test text, yes it is that/);
  }, 60_000);
});

function existsLog(file: string): boolean {
  try {
    return readFileSync(file, 'utf8').trim().length > 0;
  } catch {
    return false;
  }
}
