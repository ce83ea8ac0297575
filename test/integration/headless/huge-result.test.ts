import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, watch } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awkwardText } from '../../helpers/awkward-text.mjs';
import { startHugeResultServer, type HugeResultServer } from '../../helpers/huge-result-mcp-server';
import { isToolResultTurn, startScriptedBroker, textReply, toolCallReply, type ScriptedBroker } from '../../helpers/scripted-broker';
import { CLI, makeScratchHome, testEnv, writeHomeConfig } from '../../helpers/terminal';

// A loopback MCP server answers one call with 50 MB of text, through the built binary (-p): memory
// and the session log keep limits.maxResultBytes of it, the whole result is in a 0600 side file the
// log names, the model gets context.maxToolResultChars, and the session resumes.

let huge: HugeResultServer;
let broker: ScriptedBroker;
beforeAll(async () => {
  huge = await startHugeResultServer();
  broker = await startScriptedBroker();
});
afterAll(async () => {
  await huge.close();
  await broker.close();
});

function run(home: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: testEnv(home, env), cwd: home });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

describe('a 50 MB tool result', () => {
  it('is kept bounded in memory and in the session log, whole in a 0600 side file, and the session resumes', async () => {
    const home = makeScratchHome('aish-huge-');
    writeHomeConfig(home, { mcp: { servers: { big: { url: huge.url } } }, limits: { maxResultBytes: 65_536 } });
    broker.route((request) => (isToolResultTurn(request) ? textReply('seen it') : toolCallReply([{ name: 'big__huge', arguments: {}, id: 'call_huge' }])));
    const from = broker.requests.length;
    const result = await run(home, ['--base-url', broker.url, '--model', 'scripted', '--auto-approve', 'big__huge', '-p', 'fetch it']);
    expect(result.stdout).toBe('seen it\n');
    expect(result.code).toBe(0);
    // Said where the user looks (stderr in -p, a status line in the TUI's transcript).
    expect(result.stderr).toMatch(/big__huge: this result was 50\.0 MB; memory and the session log keep the first 64 KiB .*the whole result is in \S+results\/\S+\.txt/);

    // The session log: every line small, the tool record names the side file.
    const sessions = path.join(home, '.local', 'state', 'aish', 'sessions');
    const [logName] = readdirSync(sessions).filter((name) => name.endsWith('.jsonl'));
    const log = readFileSync(path.join(sessions, logName!), 'utf8');
    for (const line of log.trimEnd().split('\n')) expect(line.length).toBeLessThan(80_000);
    const toolRecord = log.split('\n').map((line) => (line ? JSON.parse(line) : undefined)).find((record) => record?.message?.role === 'tool');
    const content = toolRecord.message.content as string;
    expect(content).toMatch(/\[aish\] this result was 50\.0 MB; memory and the session log keep the first 64 KiB \(limits\.maxResultBytes\); the whole result is in (\S+)$/);
    const side = /the whole result is in (\S+)$/.exec(content)![1]!;
    expect(path.dirname(side)).toBe(path.join(sessions, 'results'));
    expect(statSync(side).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(side)).mode & 0o777).toBe(0o700);
    expect(statSync(side).size).toBeGreaterThan(50 * 1024 * 1024 - 100);
    expect(readFileSync(side, 'utf8').endsWith('END OF HUGE RESULT\n')).toBe(true);

    // The model got the head of it (context.maxToolResultChars), not 50 MB.
    const toolTurn = broker.requests.slice(from).at(-1)!.body!.messages!.find((message) => message.role === 'tool')!;
    expect(String(toolTurn.content).length).toBeLessThan(70_000);

    // Resuming the session works and sends the kept record as context.
    broker.route(() => textReply('resumed fine'));
    const resumed = await run(home, ['--base-url', broker.url, '--model', 'scripted', '--continue', '-p', 'and now?']);
    expect(resumed.stdout).toBe('resumed fine\n');
    const resumedTool = broker.requests.at(-1)!.body!.messages!.find((message) => message.role === 'tool')!;
    expect(String(resumedTool.content)).toContain('the whole result is in');
  }, 120_000);
});

describe('a huge tool result sent as an event stream', () => {
  it('is read with its rest in a temporary file: the side file holds exactly the text, and the folder goes with the app', async () => {
    const text = awkwardText(40_000, undefined);
    const events = await startHugeResultServer({ events: true, text });
    try {
      const home = makeScratchHome('aish-huge-events-');
      const tmp = path.join(home, 'tmp');
      mkdirSync(tmp);
      writeHomeConfig(home, { mcp: { servers: { big: { url: events.url } } }, limits: { maxResultBytes: 65_536 } });
      broker.route((request) => (isToolResultTurn(request) ? textReply('seen the stream') : toolCallReply([{ name: 'big__huge', arguments: {}, id: 'call_events' }])));
      const created: string[] = [];
      const watcher = watch(tmp, (_event, name) => name && created.push(String(name)));
      const result = await run(home, ['--base-url', broker.url, '--model', 'scripted', '--auto-approve', 'big__huge', '-p', 'fetch it'], { TMPDIR: tmp });
      watcher.close();
      expect(result.stdout).toBe('seen the stream\n');
      expect(result.code).toBe(0);
      expect(created.some((name) => name.startsWith('aish-rest-'))).toBe(true);
      expect(readdirSync(tmp)).toEqual([]);
      const side = /the whole result is in (\S+\.txt)/.exec(result.stderr)![1]!;
      const saved = readFileSync(side, 'utf8');
      const wellFormed = text.replace(/\ud800/g, '\ufffd');
      expect(saved.length).toBe(wellFormed.length);
      expect(saved === wellFormed).toBe(true);
    } finally {
      await events.close();
    }
  }, 60_000);
});
