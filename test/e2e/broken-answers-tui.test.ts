import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { chunk, lastUserText, sse, textReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { keys, makeScratchHome, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// The built binary in a pseudo-terminal: an empty answer and an inline <think> block, as a
// person sees them.
const { broker, track } = useBrokerAndTerminals();

async function startReady(): Promise<TerminalSession> {
  const home = makeScratchHome();
  writeHomeConfig(home, { models: { scripted: { baseUrl: broker.url, model: 'scripted' } }, defaultModel: 'scripted', mcp: { servers: {} } });
  const term = track(new TerminalSession({ cols: 100, rows: 30, home }));
  await term.waitFor('mcp 1/1');
  return term;
}

async function ask(term: TerminalSession, text: string) {
  await term.typeSlowly(text);
  await term.waitFor(text);
  term.write(keys.enter);
}

const userTurns = (request: ReceivedRequest) => (request.body?.messages ?? []).filter((message) => message.role === 'user').map((message) => message.content);

describe('end to end: broken answers in the TUI', () => {
  it('an empty answer shows an error, the question goes back into the input, the next message goes alone', async () => {
    const term = await startReady();
    const from = broker.requests.length;
    broker.route((request) => (lastUserText(request) === 'e1' ? sse([chunk({}, { finishReason: 'stop' })]) : textReply('answer two')));
    await ask(term, 'e1');
    await term.waitFor('the server sent an empty answer');
    await term.waitFor(/no answer: your message is back in the input/);
    // The input holds e1 again: clear it (Ctrl+U) and send something else.
    term.write('\x15');
    await ask(term, 'e2');
    await term.waitFor('answer two');
    const sent = broker.requests.slice(from);
    expect(sent.map(userTurns)).toEqual([['e1'], ['e2']]);
  });

  it('a <think> block in the answer text is shown as reasoning, not as the answer', async () => {
    const term = await startReady();
    broker.route(() => textReply('<think>\nweighing options\n</think>\n\nThe plain answer.', { chunkSize: 3 }));
    await ask(term, 'think');
    const screen = await term.waitFor('The plain answer.');
    expect(screen).toContain('reasoning');
    expect(screen).toContain('weighing options');
    expect(screen).not.toContain('<think>');
  });
});
