import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedBroker, textReply, type ScriptedBroker } from '../../helpers/scripted-broker';
import { makeScratchHome } from '../../helpers/terminal';
import { runAish } from './run-headless';

// `-p` attaches `@alias:uri` resources and `@path` files the way the TUI does (the built binary,
// server-everything over stdio); what cannot be attached ends the run with exit 1, nothing sent.

const require = createRequire(import.meta.url);
const everything = { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };
const config = { builtin: false, mcp: { servers: { everything } } };
const DOC = 'demo://resource/static/document/architecture.md';
let broker: ScriptedBroker;

beforeAll(async () => {
  broker = await startScriptedBroker();
});
afterAll(async () => {
  await broker.close();
});

const aish = (prompt: string, home?: string) => runAish(['--base-url', broker.url, '--model', 'scripted', '-p', prompt], { config, ...(home ? { home } : {}) });
const userText = (index: number) => {
  const user = broker.requests[index]!.body!.messages!.findLast((message) => message.role === 'user');
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
};

describe('-p attachments', () => {
  it('attaches an @alias:uri resource and records it in the session log', async () => {
    const home = makeScratchHome('aish-headless-');
    const start = broker.requests.length;
    broker.enqueue(textReply('Summarised.'));
    const result = await aish(`summarise @everything:${DOC}`, home);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('Summarised.\n');
    expect(result.stderr).toContain(`attached everything:${DOC}`);
    const sent = userText(start);
    expect(sent).toContain(`[resource: everything:${DOC}]`);
    expect(sent).toMatch(/architecture/i);
    const dir = path.join(home, '.local', 'state', 'aish', 'sessions');
    const log = readFileSync(path.join(dir, readdirSync(dir)[0]!), 'utf8');
    expect(log).toContain(`"origin":"resource"`);
    expect(log).toContain(`"path":"everything:${DOC}"`);
  });

  it('a resource that cannot be read is an error on stderr, exit 1, and nothing is sent', async () => {
    const start = broker.requests.length;
    const result = await aish('summarise @everything:demo://resource/static/document/no-such.md');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('not sent: @everything:demo://resource/static/document/no-such.md could not be read');
    expect(broker.requests.length).toBe(start);
  });

  it('attaches an @path file under the working directory; a guarded path is refused with exit 1', async () => {
    const home = makeScratchHome('aish-headless-');
    writeFileSync(path.join(home, 'notes.txt'), 'the plan is to ship on Friday\n');
    const start = broker.requests.length;
    broker.enqueue(textReply('Noted.'));
    const ok = await aish('read @notes.txt', home);
    expect(ok.code).toBe(0);
    expect(userText(start)).toContain('the plan is to ship on Friday');

    writeFileSync(path.join(home, '.env'), 'TOKEN=secret-value\n');
    const before = broker.requests.length;
    const refused = await aish('read @.env', home);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('not sent: @.env is never attached');
    expect(refused.stderr).not.toContain('secret-value');
    expect(broker.requests.length).toBe(before);
  });
});
