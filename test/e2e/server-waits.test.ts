import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { isToolResultTurn, lastMessage, lastUserText, textReply, toolCallReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { keys, makeScratchHome, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// Through the built binary in a pseudo-terminal (README.md, "What servers may ask"): a form asked
// in the middle of a tool call may take the user longer than the call's timeout, and a call that
// failed with URL required (-32042) runs once more when the user says so after opening the page.

const ASKING = path.resolve(import.meta.dirname, '..', 'helpers', 'asking-mcp-server.mjs');
const FRAME_DELAY_MS = 600;
const TOOL_TIMEOUT_MS = 1_500;
const { broker, track } = useBrokerAndTerminals();

function route(request: ReceivedRequest) {
  if (isToolResultTurn(request)) return textReply('Tool finished.');
  const tool = /page/.test(lastUserText(request)) ? 'asking__needs-page' : 'asking__ask';
  return toolCallReply([{ name: tool, arguments: {} }], { textBefore: 'Calling.' });
}

async function start(): Promise<TerminalSession> {
  const home = makeScratchHome();
  writeHomeConfig(home, {
    models: { scripted: { baseUrl: broker.url, model: 'scripted' } },
    defaultModel: 'scripted',
    mcp: {
      servers: { asking: { command: process.execPath, args: [ASKING], timeoutMs: TOOL_TIMEOUT_MS } },
      autoApprove: { asking__ask: true, 'asking__needs-page': true },
    },
  });
  const term = track(new TerminalSession({ cols: 120, rows: 40, home }));
  await term.waitFor('mcp 2/2', 30_000);
  broker.route(route);
  return term;
}

const toolTurns = () => broker.requests.map((request) => lastMessage(request)).filter((message) => message?.role === 'tool').map((message) => String(message?.content ?? ''));

describe('end to end: a server that waits for the user', () => {
  it('a form filled after the call timeout has passed still reaches the server', async () => {
    const term = await start();
    const before = toolTurns().length;
    await term.typeSlowly('fill the form');
    term.write(keys.enter);
    await term.waitFor((screen) => screen.includes('Your name, please') && screen.includes('Space tick · Enter next'), 20_000);
    // The user takes twice the call's timeout before typing.
    await sleep(TOOL_TIMEOUT_MS * 2);
    await term.typeSlowly('Ada', 40);
    term.write(keys.down);
    await sleep(100);
    term.write(keys.enter);
    await term.waitFor('Tool finished.', 20_000);
    expect(toolTurns().slice(before).join('\n')).toContain('answer: accept {"name":"Ada"}');
  }, 90_000);

  it('after a URL-required error and the page opened, r runs the call once more', async () => {
    const term = await start();
    const before = toolTurns().length;
    await term.typeSlowly('open the page');
    term.write(keys.enter);
    await term.waitFor((screen) => screen.includes('Open this URL?') && screen.includes('https://example.com/consent'), 20_000);
    await sleep(FRAME_DELAY_MS);
    term.write('o');
    // The frame is drawn by the transcript layer and the key hints by the status bar: under load
    // the hints can come a frame later (seen in a CI run), so both are waited for.
    const question = await term.waitFor((screen) => screen.includes('Run the call again?') && screen.includes('Retry now') && screen.includes('r retry · n decline · Esc cancel'), 20_000);
    expect(question).toContain('[r Retry now] [n Don\'t retry] [Esc Cancel]');
    await sleep(FRAME_DELAY_MS);
    term.write('r');
    await term.waitFor('Tool finished.', 20_000);
    expect(toolTurns().slice(before).join('\n')).toContain('done after the page');
  }, 90_000);
});
