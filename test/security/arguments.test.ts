import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { isToolResultTurn, textReply, toolCallReply } from '../helpers/scripted-broker';
import { keys, sleep } from '../helpers/terminal';
import { ask, FIXTURES, FRAME_DELAY_MS, prepareHome, startApp, waitForSettled } from './helpers/app';
import { runHeadless } from './helpers/headless';

// docs/ARCHITECTURE.md, Security invariants 8, end to end: a server allowed by `alias__*` still asks
// when the model hands its tool a credential path; headless denies it and says why; only an
// argument rule naming the argument lets it run unasked. A proposed command that hides a carriage
// return cannot run with one key.

const { broker, track } = useBrokerAndTerminals();

const FILE_TOOLS = path.join(FIXTURES, 'file-tools-server.mjs');
const fileTools = (logFile: string) => ({ files: { command: process.execPath, args: [FILE_TOOLS], env: { FILE_TOOLS_LOG: logFile } } });
const newLog = (name: string) => path.join(os.tmpdir(), `aish-args-${name}-${process.pid}-${Date.now()}.jsonl`);

function calls(file: string): Array<{ name: string; arguments: Record<string, unknown> }> {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { name: string; arguments: Record<string, unknown> });
  } catch {
    return [];
  }
}

describe('the argument guard in the full-screen app', () => {
  it('a rule naming the tool runs notes.md unasked, asks for ~/.ssh/id_rsa saying why; a CMD: with a carriage return runs only once edited', async () => {
    const logFile = newLog('tui');
    broker.route((request) =>
      isToolResultTurn(request)
        ? textReply('Read what I could.\nCMD: echo safe\rrm -rf ~')
        : toolCallReply([
            { name: 'files__read_file', arguments: { path: 'notes.md' }, id: 'call_notes' },
            { name: 'files__read_file', arguments: { path: '~/.ssh/id_rsa' }, id: 'call_key' },
          ]),
    );
    // The rule names the tool: a server-wide one would first ask once for a tool never approved.
    const term = track(startApp({ broker, servers: fileTools(logFile), mcp: { autoApprove: { files__read_file: true } } }));
    await term.waitFor('mcp 1/1', 20_000);
    await ask(term, 'read my files');

    const frame = await waitForSettled(term, 'a credential or key path');
    expect(frame).toContain('Run this tool?');
    expect(frame).toContain('▲ Check the arguments:');
    expect(frame).toContain('• path: a credential or key path: ~/.ssh/id_rsa');
    expect(frame).toContain('"path": "~/.ssh/id_rsa"');
    // The allowed call ran before this one was asked; the guarded one has not run.
    expect(calls(logFile)).toEqual([{ name: 'read_file', arguments: { path: 'notes.md' } }]);
    await sleep(FRAME_DELAY_MS);
    term.write('n');

    const command = await waitForSettled(term, 'Run this command?');
    expect(command).toContain('▲ This command deletes recursively from / or ~.');
    expect(command).toContain('▲ It cannot run as proposed: it holds control or invisible');
    expect(command).toContain('$ echo safe\\rrm -rf ~');
    await sleep(FRAME_DELAY_MS);
    term.write('y');
    await term.waitFor('hidden characters: edit it with e first');
    expect(await term.screen()).toContain('Run this command?');
    await sleep(200);
    term.write('e');
    await term.waitFor('$ echo saferm -rf ~');
    await sleep(200);
    term.write(keys.enter);
    await term.waitFor(/saferm -rf \//);

    expect(calls(logFile)).toEqual([{ name: 'read_file', arguments: { path: 'notes.md' } }]);
    const toolTurns = (broker.requests.at(-1)?.body?.messages ?? []).filter((message) => message.role === 'tool');
    expect(toolTurns.map((message) => [message.tool_call_id, String(message.content).split('\n')[0]])).toEqual([
      ['call_notes', 'read_file done: {"path":"notes.md"}'],
      ['call_key', '[aish] tool call denied by the user'],
    ]);
  }, 90_000);
});

describe('the argument guard in headless mode', () => {
  it('denies a guarded call allowed by files__*, on stderr and in the tool turn, and runs what an argument rule names', async () => {
    const logFile = newLog('headless');
    broker.route((request) =>
      isToolResultTurn(request)
        ? textReply('done')
        : toolCallReply([
            { name: 'files__read_file', arguments: { path: '~/.ssh/id_rsa.pub' }, id: 'call_pub' },
            { name: 'files__read_file', arguments: { path: '/tmp/../%2E%2E/HOME/x/./.SSH//id_rsa' }, id: 'call_key' },
            { name: 'files__write_file', arguments: { path: 'notes.md', content: 'hi \u202Eexe' }, id: 'call_bidi' },
          ]),
    );
    const home = prepareHome({ broker, servers: fileTools(logFile), mcp: { autoApprove: { 'files__*': true } } });
    const denied = await runHeadless(['-p', 'go', '--output-format', 'json'], { home });
    expect(denied.code).toBe(0);
    expect(denied.stderr).toContain('tool call files__read_file denied: its arguments need a look: path: a credential or key path: ~/.ssh/id_rsa.pub; a rule in mcp.argumentRules naming that argument allows it');
    expect(denied.stderr).toMatch(/tool call files__read_file denied: its arguments need a look: path: a credential or key path: \/home\/x\/\.ssh\/id_rsa/);
    expect(denied.stderr).toContain('tool call files__write_file denied: its arguments need a look: content: holds control or invisible characters (<U+202E>)');
    const result = JSON.parse(denied.stdout) as { tool_calls: Array<{ id: string; decision: string; result: string }> };
    expect(result.tool_calls.map((call) => [call.id, call.decision])).toEqual([
      ['call_pub', 'denied'],
      ['call_key', 'denied'],
      ['call_bidi', 'denied'],
    ]);
    expect(result.tool_calls[0]!.result).toMatch(/^\[aish\] tool call denied: its arguments need a look: path: a credential or key path/);
    expect(calls(logFile)).toEqual([]);

    // An argument rule naming the path lets the public key through, and nothing else.
    prepareHome({ broker, home, servers: fileTools(logFile), mcp: { autoApprove: { 'files__*': true }, argumentRules: [{ tool: 'files__read_file', args: { path: '~/.ssh/*.pub' } }] } });
    const narrowed = await runHeadless(['-p', 'go', '--output-format', 'json'], { home });
    const second = JSON.parse(narrowed.stdout) as { tool_calls: Array<{ id: string; decision: string }> };
    expect(second.tool_calls.map((call) => [call.id, call.decision])).toEqual([
      ['call_pub', 'allowed'],
      ['call_key', 'denied'],
      ['call_bidi', 'denied'],
    ]);
    expect(calls(logFile)).toEqual([{ name: 'read_file', arguments: { path: '~/.ssh/id_rsa.pub' } }]);
  }, 60_000);

  it('never runs a proposed command that hides characters, even with --allow-cmd', async () => {
    broker.route(() => textReply('Clean up:\nCMD: echo hidden\rrm -rf ~\nCMD: echo plain'));
    const home = prepareHome({ broker });
    const run = await runHeadless(['-p', 'go', '--allow-cmd', '--output-format', 'json'], { home });
    expect(run.stderr).toContain('proposed command not run: it holds control or invisible characters (\\r)');
    const result = JSON.parse(run.stdout) as { commands: Array<{ command: string; ran: boolean; output: string }> };
    expect(result.commands.map((command) => [command.command, command.ran])).toEqual([
      ['echo hidden\rrm -rf ~', false],
      ['echo plain', true],
    ]);
  }, 30_000);
});
