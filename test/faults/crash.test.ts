import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { isToolResultTurn, lastUserText, textReply, toolCallReply } from '../helpers/scripted-broker';
import { keys, sleep, TerminalSession } from '../helpers/terminal';
import { ask, hostileServer, prepareHome, sessionMessages, waitForSettled } from '../security/helpers/app';

// SIGKILL in the middle of an answer (no chance to clean up), then `--continue`: every completed
// turn is back on screen and in the context, the interrupted question is marked, and nothing that
// already ran (a tool call) runs again.

const { broker, track } = useBrokerAndTerminals();

describe('killed mid-answer', () => {
  it('SIGKILL while streaming, then --continue: completed turns kept, nothing re-runs, the history is valid', async () => {
    const home = prepareHome({ broker });
    const log = path.join(home, 'calls.jsonl');
    prepareHome({ broker, home, servers: { hostile: hostileServer({ HOSTILE_TEXT: 'plain', HOSTILE_LOG: log }) }, mcp: { autoApprove: { hostile__echo: true } } });
    const words = Array.from({ length: 80 }, (_, index) => `slow${index}`).join(' ');
    broker.route((request) => {
      if (isToolResultTurn(request)) return textReply('first answer complete');
      const text = lastUserText(request);
      if (text.includes('please go on')) return textReply('resumed fine');
      if (text.startsWith('echo')) return toolCallReply([{ name: 'hostile__echo', arguments: { text: 'once' }, id: 'call_once' }]);
      if (text.includes('slowly')) return textReply(words, { tokensPerSecond: 10 });
      return textReply('resumed fine');
    });

    const first = track(new TerminalSession({ home, cols: 120, rows: 40 }));
    await first.waitFor('mcp 1/1', 20_000);
    await ask(first, 'echo something');
    await first.waitFor('first answer complete');
    await ask(first, 'tell me slowly');
    await first.waitFor('slow3');
    first.kill('SIGKILL');
    await first.waitForExit();
    const callsBefore = readFileSync(log, 'utf8').trim().split('\n');
    expect(callsBefore).toHaveLength(1);

    // What survived on disk: the whole first turn and the interrupted question.
    expect(sessionMessages(home).map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user']);

    const second = track(new TerminalSession({ home, cols: 120, rows: 40, args: ['--continue'] }));
    await second.waitFor(/resumed session/);
    const screen = await waitForSettled(second, 'mcp 1/1', 20_000);
    expect(screen).toContain('echo something');
    expect(screen).toContain('first answer complete');
    expect(screen).toMatch(/hostile__echo/);
    // The unanswered question is back in the input, not in the conversation.
    expect(screen).toMatch(/the last message got no answer/);
    expect(screen).toMatch(/back in the input/);
    expect(screen).toMatch(/│ ›\s+tell me slowly/);
    expect(screen).not.toContain('slow3');

    const from = broker.requests.length;
    second.write(keys.ctrl('u'));
    await second.waitFor((text) => !/│ ›\s+tell me slowly/.test(text));
    await ask(second, 'please go on');
    await second.waitFor('resumed fine');
    await sleep(300);
    // Nothing ran again: the server saw one call in all.
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(callsBefore);
    const requests = broker.requests.slice(from);
    expect(requests).toHaveLength(1);
    const messages = requests[0]!.body!.messages!;
    const roles = messages.map((message) => message.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(messages[2]!.tool_calls).toHaveLength(1);
    expect(messages[3]).toMatchObject({ role: 'tool', tool_call_id: 'call_once' });
    // The unanswered question was taken back (the user cleared it): only the new one goes.
    expect(messages[5]!.content).toBe('please go on');
  }, 60_000);
});
