import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isCompactionRequest, MODEL_IDS, serverTokens, startContextServer } from '../helpers/context-servers';
import type { ScriptedBroker } from '../helpers/scripted-broker';
import { makeScratchHome, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// A long conversation against a model server with a 4k window, through the built binary in a real
// pty: the meter shows the window, the conversation compacts on its own and keeps going, no request
// overflows, and the session file keeps every message (README.md, "Context").
const open: Array<{ close(): Promise<void> } | TerminalSession> = [];
afterEach(async () => {
  for (const thing of open.splice(0)) {
    if (thing instanceof TerminalSession) thing.kill();
    else await thing.close();
  }
});

describe('a 4k-window model in the TUI', () => {
  it('compacts automatically, keeps working, and loses nothing in the log', async () => {
    const server: ScriptedBroker = await startContextServer('llama.cpp', 4096);
    open.push(server);
    const home = makeScratchHome();
    writeHomeConfig(home, { models: { small: { baseUrl: server.url, model: MODEL_IDS['llama.cpp'] } }, defaultModel: 'small' });
    const term = new TerminalSession({ cols: 100, rows: 30, home });
    open.push(term);
    await term.waitFor(/small · idle · [\d.k]+\/4k/, 20_000);

    const turns = 14;
    for (let turn = 1; turn <= turns; turn++) {
      term.write(`question ${turn} about small context windows\r`);
      await term.waitFor((screen) => screen.includes(`About "question ${turn} about small`) && /small · idle/.test(screen), 20_000);
    }
    const chats = server.requests.filter((request) => request.path.endsWith('/chat/completions'));
    expect(chats.filter(isCompactionRequest).length).toBeGreaterThan(0);
    for (const request of chats) expect(serverTokens(request)).toBeLessThanOrEqual(4096);
    // The llama.cpp server counted the requests' parts with its own /tokenize.
    expect(server.probes.some((probe) => probe.path === '/tokenize')).toBe(true);
    // The transcript says it, folded.
    term.write(':context\r');
    const screen = await term.waitFor(/context of small: [\d.k]+ of 4k tokens/);
    expect(screen).toContain('compacts before a request passes');

    // The session file holds every question and answer, and the compaction records.
    const dir = path.join(home, '.local', 'state', 'aish', 'sessions');
    const file = path.join(dir, readdirSync(dir)[0]!);
    const messages = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => (JSON.parse(line) as { message: { role: string; content?: string } }).message);
    expect(messages.filter((message) => message.role === 'user').map((message) => message.content)).toEqual(Array.from({ length: turns }, (_, index) => `question ${index + 1} about small context windows`));
    expect(messages.filter((message) => message.role === 'assistant')).toHaveLength(turns);
    expect(messages.filter((message) => message.role === 'compaction').length).toBeGreaterThan(0);
  });
});
