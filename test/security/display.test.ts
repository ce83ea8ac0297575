import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { isToolResultTurn, lastUserText, rechunk, textReply, toolCallReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { keys, sleep } from '../helpers/terminal';
import { ask, FRAME_DELAY_MS, hostileServer, startApp, until, waitForSettled } from './helpers/app';
import { expectCleanTerminalOutput } from './helpers/escapes';

// docs/ARCHITECTURE.md, Security invariants 1, end to end: hostile text from the model (answer and reasoning, whole and one
// character per chunk) and from an MCP server (names, titles, descriptions, schemas, arguments,
// results, progress, stderr, errors) goes through the built binary in a real pseudo-terminal. The
// raw bytes the app wrote may contain only the escape sequences the app itself uses; the screen
// shows the hostile parts escaped; the model and the server still get the original text.

/** Everything a model or server could send to take over the terminal or hide what it says. */
const HOSTILE = [
  // First the sequences the UI toolkit would pass through untouched, so that even narrow, cut
  // views (a sidebar row) show them: OSC 52 clipboard write, lone CR, bidi override, BEL.
  '\x1b]52;c;ZXZpbCBjbGlwYm9hcmQ=\x07clip',
  'safe\rEVIL',
  'ls \u202Etxt.exe',
  'bell\x07',
  '\x1b[2J\x1b[Hcleared',
  '\x1b]8;;https://evil.example\x07link\x1b]8;;\x07',
  '\x1b]0;pwned title\x1b\\',
  '\x1bP1$r0m\x1b\\dcs',
  '\x9b31mc1csi\x9b0m',
  '\x9d0;c1osc\x9c',
  'zero\u200Bwidth\uFEFFbom\u00ADshy',
  'tag\u{E0041}\u{E0042}',
  'lone\uD800surrogate',
  'entity &#27;[31m',
].join(' | ');

const ECHO_ARGS = {
  text: HOSTILE,
  // Long runs that could push the rest of the call out of view.
  spaced: `a${' '.repeat(300)}hidden-tail`,
  nested: { deeper: ['\x1b[31m', '\u202Ereversed'] },
};

const { broker, track } = useBrokerAndTerminals();

/** The conversation: a hostile answer with reasoning, a call of the hostile echo tool, a crash. */
function hostileRoute(chunkSize: number | undefined) {
  const cut = (reply: ReturnType<typeof textReply>) => (chunkSize === 1 ? rechunk(reply, 3) : reply);
  return (request: ReceivedRequest) => {
    const text = lastUserText(request);
    if (isToolResultTurn(request)) return cut(textReply(`after the tool ${HOSTILE}`, { chunkSize }));
    if (text.includes('talk')) return cut(textReply(`Answer ${HOSTILE}\n\n\`\`\`sh\n${HOSTILE}\n\`\`\``, { chunkSize, reasoning: `Thinking ${HOSTILE}` }));
    if (text.includes('echo')) return toolCallReply([{ name: 'hostile__echo', arguments: ECHO_ARGS, id: 'call_echo' }], { textBefore: 'Calling it.' });
    if (text.includes('crash')) return toolCallReply([{ name: 'hostile__crash', arguments: {}, id: 'call_crash' }]);
    if (text.includes('command')) return textReply(`Try this:\nCMD: echo ${HOSTILE}${' '.repeat(200)}; rm -rf ~/hidden`, { chunkSize });
    return textReply('?');
  };
}

async function hostileSession(chunkSize: number | undefined, logFile: string) {
  const term = track(startApp({
    broker,
    servers: { hostile: hostileServer({ HOSTILE_TEXT: HOSTILE, HOSTILE_LOG: logFile }) },
    mcp: { autoApprove: { hostile__crash: true } },
    cols: 140,
    rows: 50,
  }));
  await term.waitFor(/mcp 1\/1/, 20_000);
  const from = broker.requests.length;
  broker.route(hostileRoute(chunkSize));
  return { term, from };
}

describe('hostile text from the model and from an MCP server never reaches the terminal raw', () => {
  for (const variant of [{ label: 'whole', chunkSize: undefined }, { label: 'one character per chunk', chunkSize: 1 }]) {
    it(`streamed answer, reasoning, approval frame, result, sidebar, :mcp output, stderr (${variant.label})`, async () => {
      const logFile = path.join((await import('node:os')).tmpdir(), `aish-hostile-${process.pid}-${Date.now()}.jsonl`);
      const { term, from } = await hostileSession(variant.chunkSize, logFile);

      // 1. A hostile answer with hostile reasoning.
      await ask(term, 'talk to me');
      await term.waitFor(/Answer .*clip/, 15_000);
      let screen = await waitForSettled(term, /idle/);
      expect(screen).toContain('Answer \\x1b]52;c;ZXZpbCBjbGlwYm9hcmQ=\\x07clip | safe\\rEVIL | ls <U+202E>txt.exe | bell\\x07');
      expect(screen).toContain('\\x1b[2J\\x1b[Hcleared');
      expect(screen).toContain('Thinking \\x1b]52;c;');
      expect(screen).toContain('\\x9b31mc1csi');
      expect(screen).toContain('safe\\rEVIL');
      expect(screen).toContain('ls <U+202E>txt.exe');
      expect(screen).toContain('lone\uFFFDsurrogate');
      expect(screen).toContain('entity \\x1b[31m');

      // 1b. A proposed command with hostile text and a long run of spaces hiding its tail.
      await ask(term, 'a command please');
      const commandFrame = await waitForSettled(term, 'Run this command?', 15_000);
      expect(commandFrame).toContain('echo \\x1b]52;c;ZXZpbCBjbGlwYm9hcmQ=\\x07clip | safe\\rEVIL');
      expect(commandFrame).toContain('<U+202E>');
      expect(commandFrame).toMatch(/⟨200 spaces⟩; rm -rf ~\/hidden/);
      await sleep(FRAME_DELAY_MS);
      term.write('n');
      await term.waitFor((text) => !text.includes('Run this command?'));

      // 2. A call of the hostile tool: the frame shows every part escaped, nothing pushed out of view.
      await ask(term, 'now echo');
      const frame = await waitForSettled(term, 'Run this tool?', 15_000);
      expect(frame).toContain('call hostile__echo');
      expect(frame).toContain('server hostile · tool echo');
      expect(frame).toContain('Echo \\x1b]52;c;ZXZpbCBjbGlwYm9hcmQ=\\x07clip | safe\\rEVIL');
      // Pretty JSON writes C0 controls as \u001b; what JSON leaves raw (C1, bidi, invisibles) the sanitizer shows.
      expect(frame).toContain('"text": "\\u001b]52;c;ZXZpbCBjbGlwYm9hcmQ=\\u0007clip | safe\\rEVIL | ls <U+202E>txt.exe');
      expect(frame).toContain('\\x9b31mc1');
      expect(frame).toContain('ls <U+202E>txt.exe');
      expect(frame).toContain('zero<U+200B>width<U+FEFF>bom<U+00AD>shy');
      expect(frame).toContain('tag<U+E0041><U+E0042>');
      expect(frame).toMatch(/"spaced": "a⟨300 spaces⟩hidden-tail"/);
      expect(frame).toContain('<U+202E>reversed');
      // The arguments hide characters: the argument guard says so, and allowing takes y twice (README.md, "Safety").
      expect(frame).toContain('▲ Check the arguments (allowing takes the key twice):');
      await sleep(FRAME_DELAY_MS);
      term.write('y');
      await term.waitFor('press it again to allow');
      await sleep(200);
      term.write('y');
      await term.waitFor(/after the tool .*clip/, 15_000);
      await term.waitFor(/idle/);

      // 3. The result in the transcript (expanded), escaped.
      term.write(keys.tab);
      await sleep(100);
      term.write(keys.tab);
      await sleep(100);
      term.write('x');
      screen = await waitForSettled(term, 'result \\x1b]52;c;ZXZpbCBjbGlwYm9hcmQ=\\x07clip');
      expect(screen).toContain('received {"text":"\\u001b]52;c;');
      term.write(keys.escape);
      await sleep(150);

      // 4. The sidebar: the hostile tool name, then echo's title, description and input schema.
      term.write(keys.tab);
      if (!/›▸● hostile/.test(await waitForSettled(term, '↑↓ select'))) term.write(keys.down);
      await term.waitFor(/›▸● hostile/);
      term.write(keys.enter);
      screen = await waitForSettled(term, '├ echo');
      // Escaped and badged (its name holds hidden characters); the row also shows the tool's cost
      // (README.md, "Tool budget"), so the name is cut: what is shown of it is escaped.
      expect(screen).toMatch(/└ evil\\x1b\[2J<U\+\S* ▲/);
      term.write(keys.down);
      await term.waitFor(/› {2}├ echo/);
      term.write(keys.enter);
      screen = await waitForSettled(term, 'input schema');
      expect(screen).toContain('Echo \\x1b]52;c;ZXZpbCBjbGlwYm9hcmQ=\\x07clip');
      expect(screen).toContain('"description": "the text \\u001b]52;c;');
      term.write(keys.escape);
      await term.waitFor((text) => !text.includes('input schema'));
      term.write(keys.tab);
      await sleep(100);
      term.write(keys.tab);
      await sleep(100);

      // 5. :mcp commands print server text through the same sanitizer.
      await ask(term, ':mcp tool hostile__echo');
      screen = await waitForSettled(term, '"description": "the text \\u001b]52;c;');
      await ask(term, ':mcp tools hostile');
      await term.waitFor(/hostile__evil.*name/);

      // 6. A crash mid-call: the error line and the server's last stderr lines, escaped.
      await ask(term, 'please crash');
      screen = await waitForSettled(term, /✗ hostile/, 15_000);
      // The sidebar shows the server's last stderr lines under its error.
      await term.waitFor(/│ {5}fatal \\x1b\]52;c;/, 5_000);
      await term.waitFor(/idle/);
      if (process.env.SEC_DEBUG) console.log(await term.screen());

      expectCleanTerminalOutput(term.raw);
      const requests = broker.requests.slice(from);

      // The model got the original text: its own earlier answer and the tool's result, unescaped.
      const afterEcho = requests.find((request) => request.body?.messages?.some((message) => message.role === 'tool' && String(message.content).startsWith('result ')));
      expect(afterEcho, 'a request carrying the echo result').toBeDefined();
      const messages = afterEcho!.body!.messages!;
      expect(messages.find((message) => message.role === 'assistant' && String(message.content).startsWith('Answer '))?.content).toBe(`Answer ${HOSTILE}\n\n\`\`\`sh\n${HOSTILE}\n\`\`\``);
      const toolResult = String(messages.find((message) => message.role === 'tool')?.content);
      // (The server got HOSTILE through its environment, where a lone surrogate cannot survive.)
      expect(toolResult).toContain(`result ${HOSTILE.replace('\uD800', '\uFFFD')}`);
      expect(toolResult).toContain('\x1b]52;c;');

      // The server received exactly the arguments the model sent.
      await until(() => readFileSync(logFile, 'utf8').includes('"name":"echo"'), 5_000, 'the echo call in the server log');
      const calls = readFileSync(logFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { name: string; arguments: unknown });
      expect(calls.find((call) => call.name === 'echo')?.arguments).toEqual(ECHO_ARGS);
    }, 90_000);
  }
});
