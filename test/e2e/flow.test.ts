import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { isToolResultTurn, lastMessage, lastUserText, textReply, toolCallReply, type ReceivedRequest, type Router } from '../helpers/scripted-broker';
import { keys, makeScratchHome, ROOT, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// The whole flow, through the built binary in a pseudo-terminal, against the scripted broker, the
// built-in MCP server and server-everything over stdio.

const EVERYTHING = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
/** The approval keys are dead for this long after a frame appears (plus margin). */
const FRAME_DELAY_MS = 600;

const { broker, track } = useBrokerAndTerminals();

function start(options: { cols?: number; rows?: number; everything?: boolean } = {}): TerminalSession {
  const home = makeScratchHome();
  const servers = options.everything ? { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } : {};
  writeHomeConfig(home, {
    models: { scripted: { baseUrl: broker.url, model: 'scripted' } },
    defaultModel: 'scripted',
    mcp: { servers },
  });
  return track(new TerminalSession({ cols: options.cols ?? 120, rows: options.rows ?? 36, home }));
}

/** A session whose MCP servers are up, answered by `router` from here on; `from` is where its requests start. */
async function readySession(router: Router): Promise<{ term: TerminalSession; from: number }> {
  const term = start();
  await term.waitFor('mcp 1/1');
  const from = broker.requests.length;
  broker.route(router);
  return { term, from };
}

/** Requests since `from` (the broker serves every test). */
const requestsSince = (from: number) => broker.requests.slice(from);

function toolMessages(request: ReceivedRequest) {
  return (request.body?.messages ?? []).filter((message) => message.role === 'tool');
}

/** Calculator calls for "calculate X"; the tool's result is reported back in a sentence. */
function calculatorRoute(request: ReceivedRequest) {
  if (isToolResultTurn(request)) return textReply(`The result is ${String(lastMessage(request)?.content)} — done.`, { tokensPerSecond: 200 });
  const expression = /calculate (.+)/.exec(lastUserText(request))?.[1];
  if (expression) return toolCallReply([{ name: 'builtin__calculator', arguments: { expression }, id: `call_${broker.requests.length}` }], { textBefore: 'Let me work it out.' });
  return textReply('Nothing to calculate.');
}

async function ask(term: TerminalSession, text: string) {
  await term.typeSlowly(text);
  await term.waitFor(text);
  term.write(keys.enter);
}

describe('end to end: asking, approving, denying', () => {
  it('ask -> streamed answer -> tool frame -> y -> result -> the model continues', async () => {
    const { term, from } = await readySession(calculatorRoute);
    await ask(term, 'please calculate 2+3*4');
    const frame = await term.waitFor('Run this tool?');
    expect(frame).toContain('Let me work it out.');
    expect(frame).toContain('call builtin__calculator');
    expect(frame).toContain('"expression": "2+3*4"');
    await sleep(FRAME_DELAY_MS);
    term.write('y');
    const screen = await term.waitFor('The result is 14 — done.');
    expect(screen).not.toContain('Run this tool?');
    expect(screen).toMatch(/builtin__calculator.*\n.*14/);
    const requests = requestsSince(from);
    expect(requests).toHaveLength(2);
    expect(toolMessages(requests[1]!).map((message) => message.content)).toEqual(['14']);
  });

  it('deny with a reason: the model receives the reason as the tool result', async () => {
    const { term, from } = await readySession(calculatorRoute);
    await ask(term, 'calculate 1/0');
    await term.waitFor('Run this tool?');
    await sleep(FRAME_DELAY_MS);
    term.write('e');
    await term.waitFor('Reason:');
    await term.typeSlowly('do it by hand');
    await term.waitFor('Reason: do it by hand');
    term.write(keys.enter);
    await term.waitFor('The result is');
    const requests = requestsSince(from);
    const [toolTurn] = toolMessages(requests[1]!);
    expect(String(toolTurn?.content)).toContain('denied by the user');
    expect(String(toolTurn?.content)).toContain('do it by hand');
  });

  it('t approves this tool for the session: the second call runs without a frame', async () => {
    const { term, from } = await readySession(calculatorRoute);
    await ask(term, 'calculate 6*7');
    await term.waitFor('Run this tool?');
    await sleep(FRAME_DELAY_MS);
    term.write('t');
    await term.waitFor('The result is 42 — done.');
    await ask(term, 'calculate 9*9');
    const screen = await term.waitFor('The result is 81 — done.');
    expect(screen).toMatch(/auto-approved by .*builtin__calculator/);
    expect(screen).not.toContain('Run this tool?');
    expect(requestsSince(from)).toHaveLength(4);
  });

  it('a key pasted or typed ahead while the frame appears never approves', async () => {
    const { term, from } = await readySession(calculatorRoute);
    await ask(term, 'calculate 5+5');
    await term.waitFor('Run this tool?');
    term.write('y');
    await sleep(FRAME_DELAY_MS);
    term.write(keys.paste('y'));
    term.write('yyy');
    await sleep(300);
    expect(await term.screen()).toContain('Run this tool?');
    expect(requestsSince(from)).toHaveLength(1);
    term.write('\x1b[24;80R');
    await sleep(200);
    expect(await term.screen()).toContain('Run this tool?');
    term.write('n');
    await term.waitFor('The result is');
    expect(String(toolMessages(requestsSince(from)[1]!)[0]?.content)).toContain('denied');
  });
});

describe('end to end: sidebar, paste, resize, cancel', () => {
  it("browses the sidebar to a server-everything tool's input schema", async () => {
    const term = start({ cols: 140, rows: 40, everything: true });
    // The transport label gives way to the alias and the tools' cost on a narrow sidebar.
    await term.waitFor(/● everything\s+(stdio )?\d+/, 20_000);
    term.write(keys.tab);
    await term.waitFor('↑↓ select');
    // builtin first, then everything (config order after the built-in server).
    const screen = await term.screen();
    // Focusing the sidebar puts the cursor on the first server.
    const everythingFirst = screen.indexOf('everything') < screen.indexOf('builtin');
    if (!everythingFirst) term.write(keys.down);
    await term.waitFor(/›▸● everything/);
    term.write(keys.enter);
    await term.waitFor('├ echo');
    // Walk down to `echo` (the first tool of server-everything).
    term.write(keys.down);
    await term.waitFor(/› {2}├ echo/);
    term.write(keys.enter);
    const details = await term.waitFor('input schema');
    expect(details).toContain('everything__echo');
    expect(details).toMatch(/"message": \{/);
    expect(details).toContain('"type": "string"');
    term.write(keys.escape);
    await term.waitFor((text) => !text.includes('input schema'));
  });

  it('a paste of 50 lines shows as one chip and is sent whole', async () => {
    const { term, from } = await readySession(() => textReply('Got your lines.'));
    const lines = Array.from({ length: 50 }, (_, index) => `pasted line ${index + 1}`);
    term.write(keys.paste(lines.join('\r')));
    await term.waitFor('[pasted 50 lines]');
    expect(requestsSince(from)).toHaveLength(0);
    term.write(keys.enter);
    await term.waitFor('Got your lines.');
    expect(lastUserText(requestsSince(from)[0]!)).toBe(lines.join('\n'));
  });

  it('reflows when resized in the middle of a streamed answer, and the answer completes', async () => {
    const term = start({ cols: 120, rows: 36 });
    await term.waitFor('mcp 1/1');
    const words = Array.from({ length: 40 }, (_, index) => `word${index}`).join(' ');
    broker.route(() => textReply(`${words} THE-END`, { tokensPerSecond: 20 }));
    await ask(term, 'tell me a long story');
    await term.waitFor('streaming');
    term.resize(80, 24);
    await term.waitFor((screen) => screen.split('\n').length === 24 && /^scripted · streaming/.test(screen.split('\n')[23] ?? ''));
    const screen = await term.waitFor((text) => text.includes('THE-END') && /\nscripted · idle/.test(text), 15_000);
    const rows = screen.split('\n');
    expect(rows).toHaveLength(24);
    expect(rows.every((row) => row.length <= 80)).toBe(true);
    expect(rows[23]).toMatch(/^scripted · idle/);
  });

  it('Ctrl+C during a streamed answer stops it and keeps the partial answer', async () => {
    const term = start();
    await term.waitFor('mcp 1/1');
    const words = Array.from({ length: 60 }, (_, index) => `part${index}`).join(' ');
    broker.route(() => textReply(words, { tokensPerSecond: 10 }));
    await ask(term, 'stream slowly');
    await term.waitFor('part3');
    term.write(keys.ctrl('c'));
    const screen = await term.waitFor(/cancelled/);
    expect(screen).toContain('part0 part1 part2 part3');
    expect(screen).not.toContain('part59');
    await sleep(500);
    expect(await term.screen()).toContain('part0 part1 part2 part3');
    expect(term.exitCode).toBeUndefined();
  });
});
