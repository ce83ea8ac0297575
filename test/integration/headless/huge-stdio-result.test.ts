import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headBytes } from '../../../src/services/history';
import { sanitizeStrict } from '../../../src/services/terminal/sanitize';
import { awkwardText } from '../../helpers/awkward-text.mjs';
import { isToolResultTurn, startScriptedBroker, textReply, toolCallReply, type ScriptedBroker } from '../../helpers/scripted-broker';
import { CLI, makeScratchHome, testEnv, writeHomeConfig } from '../../helpers/terminal';

// A stdio server's huge result is read with its rest going straight to a file (the message keeps
// the head; src/services/mcp/result-text-scanner.ts). Through the built binary, the side file must
// hold exactly the text the server sent, redacted, and the model the same head as ever, whatever
// the text holds (escapes, non-ASCII, emoji, a lone surrogate, the server's own token).

const RESULTS = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'helpers', 'results-mcp-server.mjs');
const TOKEN = 'results-token-7f3a9c2e41';
const LINES = 40_000;
const MAX_RESULT_BYTES = 65_536;

let broker: ScriptedBroker;
beforeAll(async () => {
  broker = await startScriptedBroker();
});
afterAll(async () => {
  await broker.close();
});

function run(home: string, args: string[], tmp: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: testEnv(home, { TMPDIR: tmp }), cwd: home });
    // Decoded once at the end: a chunk may end inside a character.
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (data: Buffer) => stdout.push(data));
    child.stderr.on('data', (data: Buffer) => stderr.push(data));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(stdout).toString('utf8'), stderr: Buffer.concat(stderr).toString('utf8') }));
    child.stdin.end();
  });
}

function setUp(): { home: string; tmp: string } {
  const home = makeScratchHome('aish-spill-');
  const tmp = path.join(home, 'tmp');
  mkdirSync(tmp);
  writeHomeConfig(home, {
    mcp: { servers: { results: { command: process.execPath, args: [RESULTS], env: { RESULTS_TOKEN: TOKEN } } } },
    limits: { maxResultBytes: MAX_RESULT_BYTES },
  });
  return { home, tmp };
}

/** What the app makes of the result: the three blocks joined, the server's token redacted. */
const expectedText = () => ['first block', awkwardText(LINES, TOKEN), 'last block'].join('\n').split(TOKEN).join('[redacted]');

describe('a huge result from a stdio server', () => {
  it('goes whole and redacted to the side file, the model gets the same head, and no temporary file is left', async () => {
    const { home, tmp } = setUp();
    broker.route((request) => (isToolResultTurn(request) ? textReply('got it') : toolCallReply([{ name: 'results__awkward', arguments: { count: LINES }, id: 'call_big' }])));
    const from = broker.requests.length;
    // A folder left by an app that was killed (its process is gone) is swept when the next one spills.
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    mkdirSync(path.join(tmp, `aish-rest-${dead}-left`));
    writeFileSync(path.join(tmp, `aish-rest-${dead}-left`, 'old.txt'), 'left over');
    // The rest went through a temporary folder: seen appearing while the app ran.
    const created: string[] = [];
    const watcher = watch(tmp, (_event, name) => name && created.push(String(name)));
    const result = await run(home, ['--base-url', broker.url, '--model', 'scripted', '--auto-approve', 'results__awkward', '-p', 'fetch it'], tmp);
    watcher.close();
    expect(created.some((name) => name.startsWith('aish-rest-'))).toBe(true);
    expect(result.stderr).toMatch(/results__awkward: this result was 3\.\d MB; memory and the session log keep the first 64 KiB .*the whole result is in \S+\.txt/);
    expect(result.stdout).toBe('got it\n');
    expect(result.code).toBe(0);

    const expected = expectedText();
    // A lone surrogate is not text: in the file it is U+FFFD, as for any side file.
    const wellFormed = expected.replace(/\ud800/g, '\ufffd');
    const side = /the whole result is in (\S+\.txt)/.exec(result.stderr)![1]!;
    const saved = readFileSync(side, 'utf8');
    expect(saved.length).toBe(wellFormed.length);
    expect(saved === wellFormed).toBe(true);
    expect(saved).not.toContain(TOKEN);

    const toolTurn = broker.requests.slice(from).at(-1)!.body!.messages!.find((message) => message.role === 'tool')!;
    expect(String(toolTurn.content).startsWith(headBytes(expected, MAX_RESULT_BYTES))).toBe(true);
    expect(String(toolTurn.content)).not.toContain('\u0000');

    // The rest's temporary folder went with the process.
    expect(readdirSync(tmp).filter((name) => name.startsWith('aish-rest-'))).toEqual([]);
  }, 60_000);

  it('that cannot be written to a temporary file is cut with a note saying why, and the call still gets its answer', async () => {
    const { home } = setUp();
    broker.route((request) => (isToolResultTurn(request) ? textReply('got the cut one') : toolCallReply([{ name: 'results__awkward', arguments: { count: LINES }, id: 'call_cut' }])));
    const result = await run(home, ['--base-url', broker.url, '--model', 'scripted', '--auto-approve', 'results__awkward', '-p', 'fetch it'], path.join(home, 'no-such-dir'));
    expect(result.stdout).toBe('got the cut one\n');
    expect(result.code).toBe(0);
    const side = /the whole result is in (\S+\.txt)/.exec(result.stderr)![1]!;
    const saved = readFileSync(side, 'utf8');
    expect(expectedText().replace(/\ud800/g, '\ufffd').startsWith(saved.slice(0, saved.indexOf('\n[aish] the rest of this result')))).toBe(true);
    expect(saved).toMatch(/\n\[aish\] the rest of this result \(about \d+ more bytes\) could not be kept: ENOENT[^\n]*\nlast block$/);
  }, 60_000);

  it('`aish-tui mcp call` prints the whole of it', async () => {
    const { home, tmp } = setUp();
    const result = await run(home, ['mcp', 'call', 'results__awkward', JSON.stringify({ count: LINES })], tmp);
    expect(result.code).toBe(0);
    const printed = result.stdout;
    const expected = sanitizeStrict(expectedText().replace(/\ud800/g, '\ufffd'));
    expect(printed.length).toBe(expected.length + 1);
    expect(printed === `${expected}\n`).toBe(true);
    expect(readdirSync(tmp).filter((name) => name.startsWith('aish-rest-'))).toEqual([]);
  }, 60_000);
});
