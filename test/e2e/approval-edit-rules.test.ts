import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { isToolResultTurn, lastUserText, textReply, toolCallReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { keys, sleep, TerminalSession } from '../helpers/terminal';
import { ask, FIXTURES, FRAME_DELAY_MS, prepareHome, until, waitForSettled } from '../security/helpers/app';

// End to end in a real pseudo-terminal against a real stdio MCP server that logs every call it
// receives (security/fixtures/shifty-mcp-server.mjs): the user edits a call's arguments in the
// approval frame and the server receives the edited ones; a rule saved for the project applies
// after a restart and is deleted in :permissions.

const { broker, track } = useBrokerAndTerminals();
const SHIFTY = path.join(FIXTURES, 'shifty-mcp-server.mjs');

function route(request: ReceivedRequest) {
  if (isToolResultTurn(request)) return textReply(`model saw: ${String(request.body?.messages?.at(-1)?.content).split('\n')[0]}`);
  const word = lastUserText(request).split(' ')[1] ?? 'x';
  return toolCallReply([{ name: 'shifty__echo', arguments: { text: `from model ${word}` }, id: `call_${word}` }]);
}

function start(home?: string) {
  const dir = home ?? prepareHome({ broker, servers: { shifty: { command: process.execPath, args: [SHIFTY], env: { SHIFTY_LOG: 'calls.jsonl' } } } });
  const term = track(new TerminalSession({ cols: 120, rows: 40, home: dir }));
  const log = path.join(dir, 'calls.jsonl');
  const calls = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { call: string; arguments: Record<string, unknown> }) : []);
  return { term, home: dir, calls };
}

/** One key at a time: keys read together are a burst, and a burst never answers a frame. */
async function press(term: TerminalSession, ...sequence: string[]) {
  for (const key of sequence) {
    term.write(key);
    await sleep(60);
  }
}

const flat = (screen: string) => screen.replace(/[│\s]+/g, ' ');

describe('edit before approving, rules that persist (built binary, real pty)', () => {
  it('the server receives the arguments as edited; the edited call is shown again first, and the model hears of the edit', async () => {
    broker.route(route);
    const { term, calls } = start();
    await term.waitFor('mcp 1/1', 20_000);
    await ask(term, 'echo one');
    await waitForSettled(term, 'Run this tool?');
    await sleep(FRAME_DELAY_MS);
    await press(term, 'a');
    await term.waitFor('edit the arguments (JSON):');
    // Empty the field line by line (the cursor starts at the end), then write other arguments.
    await press(term, keys.ctrl('u'), keys.backspace, keys.ctrl('u'), keys.backspace, keys.ctrl('u'));
    await press(term, keys.paste('{"text": 5}'), keys.enter);
    // Not a string: the schema check refuses it and the field comes back with the problem.
    await term.waitFor((screen) => flat(screen).includes('Your edit was not used'), 10_000);
    await press(term, keys.ctrl('u'), keys.paste('{"text": "edited by me"}'), keys.enter);
    const again = await waitForSettled(term, /Arguments edited by you/);
    expect(flat(again)).toContain('text: "from model one" → "edited by me"');
    expect(calls()).toEqual([]);
    await sleep(FRAME_DELAY_MS);
    await press(term, 'y');
    await until(() => calls().length === 1, 10_000, 'the call');
    expect(calls()[0]).toMatchObject({ call: 'echo', arguments: { text: 'edited by me' } });
    await term.waitFor('model saw: [aish] the user edited the arguments', 15_000);
    expect(flat(await term.screen())).toMatch(/allowed after you edited the arguments: text: "from model one" → "edited by me"/);
  }, 90_000);

  it('a rule saved for the project applies after a restart, and :permissions deletes it', async () => {
    broker.route(route);
    const first = start();
    await first.term.waitFor('mcp 1/1', 20_000);
    await ask(first.term, 'echo one');
    await waitForSettled(first.term, 'Run this tool?');
    await sleep(FRAME_DELAY_MS);
    await press(first.term, 'r');
    await first.term.waitFor('Rule: allow project shifty__echo');
    await press(first.term, keys.enter);
    await until(() => first.calls().length === 1, 10_000, 'the first call');
    await first.term.waitFor('model saw: echo got', 15_000);
    expect(JSON.parse(readFileSync(path.join(first.home, '.aish', 'rules.json'), 'utf8'))).toEqual({ version: 1, rules: [{ allow: true, tool: 'shifty__echo' }] });
    await press(first.term, keys.ctrl('d'));
    await first.term.waitForExit(10_000);

    const second = start(first.home);
    await second.term.waitFor('mcp 1/1', 20_000);
    await ask(second.term, 'echo two');
    await second.term.waitFor('model saw: echo got', 15_000);
    expect(await second.term.screen()).not.toContain('Run this tool?');
    expect(flat(await second.term.screen())).toContain('auto-approved by saved rule (this project) shifty__echo');

    await ask(second.term, ':permissions');
    const listed = await waitForSettled(second.term, /1\. allow\s+shifty__echo/);
    expect(flat(listed)).toMatch(/this project: ~\/\.aish\/rules\.json/);
    await ask(second.term, ':permissions delete 1');
    await second.term.waitFor('deleted saved rule 1: allow shifty__echo');
    await ask(second.term, 'echo three');
    await waitForSettled(second.term, 'Run this tool?');
    expect(second.calls()).toHaveLength(2);
  }, 120_000);
});
