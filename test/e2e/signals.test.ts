import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { hangReply, textReply } from '../helpers/scripted-broker';
import { makeScratchHome, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// Closing the terminal window (SIGHUP) or `kill` (SIGTERM) in the middle of an answer: what has
// arrived is saved as a cancelled answer, so `--continue` shows it and sends it as context.

const { broker, track } = useBrokerAndTerminals();
const homes: string[] = [];
afterAll(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

/** The messages of the one session file in `home` (records of type "message"). */
function sessionMessages(home: string): Array<Record<string, unknown>> {
  const dir = path.join(home, '.local', 'state', 'aish', 'sessions');
  const [file] = readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  return readFileSync(path.join(dir, file!), 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as { type: string; message?: Record<string, unknown> })
    .flatMap((record) => (record.type === 'message' && record.message ? [record.message] : []));
}

describe('a signal in the middle of an answer', () => {
  it.each(['SIGHUP', 'SIGTERM'])('%s saves the partial answer as cancelled; --continue shows it', async (signal) => {
    const home = makeScratchHome();
    homes.push(home);
    writeHomeConfig(home, { models: { scripted: { baseUrl: broker.url, model: 'scripted' } }, defaultModel: 'scripted', builtin: false });
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    broker.enqueue(textReply(`Partial start ${words}`, { chunkSize: 6, tokensPerSecond: 40 }));

    const session = track(new TerminalSession({ cols: 100, rows: 30, home }));
    await session.waitFor('Ask anything');
    await session.typeSlowly('tell me a long story');
    session.write('\r');
    await session.waitFor('word3 ');
    session.kill(signal);
    expect(await session.waitForExit()).toBe(signal === 'SIGHUP' ? 129 : 143);
    expect(await session.onAltScreen()).toBe(false);
    await session.dispose();

    const records = sessionMessages(home);
    const answer = records.find((record) => record.role === 'assistant');
    expect(records.find((record) => record.role === 'user')).toMatchObject({ content: 'tell me a long story' });
    expect(String(answer?.content)).toMatch(/^Partial start word0 word1 word2 word3/);
    expect(String(answer?.content).length).toBeLessThan(`Partial start ${words}`.length);

    const begin = broker.requests.length;
    broker.enqueue(textReply('continued'));
    const resumed = track(new TerminalSession({ cols: 100, rows: 30, home, args: ['--continue'] }));
    await resumed.waitFor('resumed session');
    const screen = await resumed.screen();
    expect(screen).toContain('Partial start word0');
    expect(screen).not.toContain('the last message got no answer');
    await resumed.typeSlowly('go on');
    resumed.write('\r');
    await resumed.waitFor('continued');
    const sent = broker.requests[begin]!.body!.messages!;
    expect(sent.at(-2)).toMatchObject({ role: 'assistant' });
    expect(String(sent.at(-2)?.content)).toMatch(/^Partial start word0/);
  });

  it('SIGTERM before the first byte keeps the question: --continue puts it back in the input', async () => {
    const home = makeScratchHome();
    homes.push(home);
    writeHomeConfig(home, { models: { scripted: { baseUrl: broker.url, model: 'scripted' } }, defaultModel: 'scripted', builtin: false });
    broker.enqueue(hangReply());
    const session = track(new TerminalSession({ cols: 100, rows: 30, home }));
    await session.waitFor('Ask anything');
    await session.typeSlowly('question for a model still loading');
    session.write('\r');
    await session.waitFor('waiting for the answer');
    session.kill('SIGTERM');
    expect(await session.waitForExit()).toBe(143);
    await session.dispose();

    expect(sessionMessages(home).map((message) => message.content)).toEqual(['question for a model still loading']);
    const resumed = track(new TerminalSession({ cols: 100, rows: 30, home, args: ['--continue'] }));
    await resumed.waitFor('the last message got no answer');
    await resumed.waitFor(/│ ›\s+question for a model still loading/);
  });
});
