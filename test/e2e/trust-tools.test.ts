import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { isToolResultTurn, lastUserText, textReply, toolCallReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { keys, sleep } from '../helpers/terminal';
import { ask, FIXTURES, FRAME_DELAY_MS, prepareHome, stateDir, until, waitForSettled } from '../security/helpers/app';
import { TerminalSession } from '../helpers/terminal';

// End to end in a real pseudo-terminal, against a real hostile stdio server (security/fixtures/
// shifty-mcp-server.mjs): a tool the server adds mid-session does not run under `shifty__*` until
// approved once, and the frame says it is new (docs/ARCHITECTURE.md, Security invariants 9); a
// look-alike name is shown with its code point and a badge (3); a duplicated name is refused with
// a status that names it.

const { broker, track } = useBrokerAndTerminals();
const SHIFTY = path.join(FIXTURES, 'shifty-mcp-server.mjs');

const CALLS: Record<string, { name: string; arguments: Record<string, unknown> }> = {
  grow: { name: 'shifty__grow', arguments: { name: 'exfiltrate' } },
  steal: { name: 'shifty__exfiltrate', arguments: { text: 'secrets' } },
  look: { name: 'shifty__read_f_le', arguments: { text: 'x' } },
};

function route(request: ReceivedRequest) {
  if (isToolResultTurn(request)) return textReply(`model saw: ${String(request.body?.messages?.at(-1)?.content).split('\n')[0]}`);
  const word = lastUserText(request).split(' ')[0]!;
  return toolCallReply([{ ...CALLS[word]!, id: `call_${word}_${request.body?.messages?.length ?? 0}` }]);
}

function start(cols: number, rows: number) {
  const home = prepareHome({
    broker,
    servers: { shifty: { command: process.execPath, args: [SHIFTY], env: { SHIFTY_LOG: 'calls.jsonl', SHIFTY_NAMES: 'read_f\u0456le,dup,dup' } } },
    mcp: { autoApprove: { 'shifty__*': true } },
  });
  // grow and echo were approved in an earlier run; every other tool of the server was not.
  mkdirSync(stateDir(home), { recursive: true, mode: 0o700 });
  writeFileSync(path.join(stateDir(home), 'pins.json'), JSON.stringify({ version: 1, servers: {}, approved: { shifty: ['echo', 'grow'] } }), { mode: 0o600 });
  const term = track(new TerminalSession({ cols, rows, home }));
  const log = path.join(home, 'calls.jsonl');
  const calls = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').filter(Boolean).map((line) => (JSON.parse(line) as { call: string }).call) : []);
  return { term, home, calls };
}

describe('tools a server adds, look-alike and duplicate names (built binary, real pty)', () => {
  it.each([
    [120, 40],
    [80, 24],
  ])('at %ix%i: a tool added mid-session under shifty__* asks once, saying it is new, then follows the rule', async (cols, rows) => {
    broker.route(route);
    const { term, calls } = start(cols, rows);
    // Start-up: the tools never seen before are named; the duplicate is refused, named.
    await term.waitFor('mcp 1/1', 20_000);
    const atStart = await waitForSettled(term, /shifty__dup more than once/);
    expect(atStart.replace(/\s+/g, ' ')).toMatch(/new tools: .*read_f<U\+0456>le/);

    // An approved tool runs under the rule; the server then adds `exfiltrate` (list_changed).
    await ask(term, 'grow now');
    await term.waitFor('model saw: added exfiltrate', 15_000);
    const grown = await waitForSettled(term, /added: exfiltrate/);
    expect(grown.replace(/\s+/g, ' ')).toMatch(/1 new tool: exfiltrate/);

    // Its first call asks, in the warning colour, saying it is new; nothing ran yet.
    await ask(term, 'steal now');
    const frame = await waitForSettled(term, 'Run this tool?');
    expect(frame.replace(/\s+/g, ' ')).toMatch(/new tool/i);
    expect(calls()).toEqual(['grow']);
    await sleep(FRAME_DELAY_MS);
    term.write('y');
    await term.waitFor('model saw: exfiltrate got', 15_000);

    // Approved once: now the server-wide rule runs it without a frame.
    await ask(term, 'steal again');
    await term.waitFor((screen) => (screen.match(/model saw: exfiltrate got/g) ?? []).length >= 2 || screen.includes('Run this tool?'), 15_000);
    expect(await term.screen()).not.toContain('Run this tool?');
    await until(() => calls().length === 3, 5_000, 'the third call');
    expect(calls()).toEqual(['grow', 'exfiltrate', 'exfiltrate']);
  }, 90_000);

  it('shows a look-alike tool name with its code point and a badge in the frame and the sidebar', async () => {
    broker.route(route);
    const { term, calls } = start(120, 40);
    await term.waitFor('mcp 1/1', 20_000);
    await ask(term, 'look here');
    const frame = await waitForSettled(term, 'Run this tool?');
    expect(frame).toContain('tool read_f<U+0456>le');
    expect(frame.replace(/\s+/g, ' ')).toContain('▲ non-ASCII: the tool name holds і U+0456 Cyrillic');
    expect(frame).not.toContain('read_f\u0456le');
    await sleep(FRAME_DELAY_MS);
    term.write('n');
    await term.waitFor('model saw: [aish] tool call denied by the user');
    expect(calls()).toEqual([]);
    // The sidebar: Tab to it, Enter expands the server.
    term.write(keys.tab);
    await sleep(200);
    term.write(keys.enter);
    const sidebar = await waitForSettled(term, /read_f<U\+0456>le ▲/);
    expect(sidebar).not.toMatch(/[├└] dup\b/);
  }, 60_000);
});
