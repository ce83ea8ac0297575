import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { EVERYTHING } from '../helpers/mcp';
import { lastMessage, textReply } from '../helpers/scripted-broker';
import { keys, makeScratchHome, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// Through the built binary in a pseudo-terminal, against server-everything over stdio: a resource
// is completed with Tab after `@` and attached to the message; a prompt is run with `:prompt`, its
// argument asked in the form, and its text lands in the input to be sent.

const { broker, track } = useBrokerAndTerminals();

function start(): TerminalSession {
  const home = makeScratchHome();
  writeHomeConfig(home, {
    models: { scripted: { baseUrl: broker.url, model: 'scripted' } },
    defaultModel: 'scripted',
    mcp: { servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } },
  });
  return track(new TerminalSession({ cols: 120, rows: 40, home }));
}

const userText = (index: number) => {
  const content = lastMessage(broker.requests[index]!)?.content;
  return typeof content === 'string' ? content : JSON.stringify(content);
};

describe('end to end: MCP resources and prompts', () => {
  it('@ Tab completes a resource; Enter reads and attaches it (chip on screen, text to the model)', async () => {
    const term = start();
    await term.waitFor('mcp 2/2', 30_000);
    broker.route(() => textReply('Read it.'));
    const before = broker.requests.length;
    // `:resources` lists what the server offers (and waits for its lists, which Tab then uses).
    await term.typeSlowly(':resources');
    term.write(keys.enter);
    await term.waitFor('@everything:demo://resource/dynamic/text/{resourceId}', 20_000);
    await term.typeSlowly('summarize @ev');
    term.write(keys.tab);
    await term.waitFor('summarize @everything:demo://resource/');
    await term.typeSlowly('static/document/arch');
    term.write(keys.tab);
    await term.waitFor('@everything:demo://resource/static/document/architecture.md');
    term.write(keys.enter);
    await term.waitFor('Read it.', 20_000);
    expect(await term.screen()).toContain('[resource everything:demo://resource/static/document/architecture.md');
    const sent = userText(before);
    expect(sent).toContain('[resource: everything:demo://resource/static/document/architecture.md]');
    expect(sent).toContain('# Everything Server – Architecture');
  }, 90_000);

  it(':prompt asks for the missing argument in a form and puts the prompt into the input', async () => {
    const term = start();
    await term.waitFor('mcp 2/2', 30_000);
    broker.route(() => textReply('Sunny.'));
    // The broker is shared by the tests of this file.
    const before = broker.requests.length;
    await term.typeSlowly(':prompt everything/args-prompt');
    term.write(keys.enter);
    await term.waitFor((screen) => screen.includes('prompt everything/args-prompt: city') && screen.includes('Enter next'), 20_000);
    await sleep(700);
    await term.typeSlowly('Lyon', 30);
    term.write(keys.enter);
    await sleep(150);
    term.write(keys.enter);
    // The optional argument comes next: accepted empty.
    await term.waitFor('prompt everything/args-prompt: state (optional)', 20_000);
    await sleep(700);
    term.write(keys.enter);
    await sleep(150);
    term.write(keys.enter);
    await term.waitFor("› What's weather in Lyon?", 20_000);
    expect(broker.requests).toHaveLength(before);
    term.write(keys.enter);
    await term.waitFor('Sunny.', 20_000);
    expect(userText(before)).toBe("What's weather in Lyon?");
  }, 90_000);
});
