import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { EVERYTHING } from '../helpers/mcp';
import { isToolResultTurn, lastMessage, textReply, toolCallReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { keys, makeScratchHome, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// Through the built binary in a pseudo-terminal: server-everything asks for a form in the middle of
// a tool call, the user fills it in the frame, and the server receives the answers (its tool
// result, which the model gets, quotes them).

const FRAME_DELAY_MS = 600;
const { broker, track } = useBrokerAndTerminals();

function route(request: ReceivedRequest) {
  if (isToolResultTurn(request)) return textReply('The server got the form.');
  return toolCallReply([{ name: 'everything__trigger-elicitation-request', arguments: {} }], { textBefore: 'Asking the server.' });
}

describe('end to end: a server asks for a form', () => {
  it('120x40: the form shows the schema, the answers typed reach the server, Accept sends them', async () => {
    const home = makeScratchHome();
    writeHomeConfig(home, {
      models: { scripted: { baseUrl: broker.url, model: 'scripted' } },
      defaultModel: 'scripted',
      mcp: { servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }, autoApprove: { 'everything__trigger-elicitation-request': true } },
    });
    const term = track(new TerminalSession({ cols: 120, rows: 40, home }));
    await term.waitFor('mcp 2/2', 30_000);
    // The conditional tools come with a tools list_changed once the server has read the capabilities.
    await term.waitFor(/everything +(stdio )?1[6-9]/, 15_000);
    broker.route(route);
    await term.typeSlowly('fill it');
    term.write(keys.enter);
    // The frame's last row: the whole frame is on screen.
    const frame = await term.waitFor((screen) => screen.includes('A server asks for input') && screen.includes('Space tick · Enter next'), 20_000);
    expect(frame).toContain('server everything asks for input');
    expect(frame).toContain('String with default: It was a dark and stormy night.');
    expect(frame).toMatch(/\(•\) Monica +\( \) Rachel/);
    await sleep(FRAME_DELAY_MS);
    await term.typeSlowly('Ada Lovelace', 30);
    term.write(keys.down);
    await sleep(60);
    term.write(' ');
    await term.waitFor('[x] yes');
    // Past the remaining fields to the buttons, Accept first.
    for (let field = 0; field < 12; field++) {
      term.write(keys.down);
      await sleep(60);
    }
    await sleep(100);
    term.write(keys.enter);
    await term.waitFor('The server got the form.', 20_000);
    const toolTurn = broker.requests.map((request) => lastMessage(request)).find((message) => message?.role === 'tool');
    const content = String(toolTurn?.content ?? '');
    expect(content).toContain('- Name: Ada Lovelace');
    expect(content).toContain('- Agreed to terms: true');
    expect(content).toContain('- Favorite Integer: 42');
  }, 90_000);
});
