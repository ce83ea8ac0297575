import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { errorReply, isToolResultTurn, lastUserText, textReply, toolCallReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { startHttpMcpServer, type HttpMcpServer } from '../faults/fixtures/http-mcp-server';
import { ask, directoriesWithModes, filesWithModes, hostileServer, prepareHome, stateDir } from './helpers/app';
import { runHeadless } from './helpers/headless';
import { keys, TerminalSession } from '../helpers/terminal';

// docs/ARCHITECTURE.md, Security invariants 6: API keys and bearer tokens never appear on screen, in the session log, in error
// messages or in --json / stream-json output, even when every server echoes them back: the model
// server in its streamed answer, its reasoning and an error body; an HTTP MCP server in a tool
// description and a result; a stdio server in a result and on stderr. Files we create are 0600.

const API_KEY = 'sk-live-SECRETKEY-1234567890abcdef';
const BEARER = 'mcp-bearer-TOKEN-0987654321zyx';
const STDIO_SECRET = 'stdio-secret-TOKEN-5555aaaa';
const SECRETS = [API_KEY, BEARER, STDIO_SECRET];

const { broker, track } = useBrokerAndTerminals();
let http: HttpMcpServer;

beforeAll(async () => {
  http = await startHttpMcpServer({ token: BEARER, echoSuffix: `(your token: ${BEARER})` });
});
afterAll(async () => {
  await http.close();
});

/** A model server that repeats the key it was sent, in pieces, in every place it can. */
function echoingRoute(request: ReceivedRequest) {
  const key = String(request.headers.authorization ?? '').replace(/^Bearer /, '');
  if (isToolResultTurn(request)) {
    const last = String(request.body?.messages?.at(-1)?.content);
    return textReply(`tool said: ${last.split('\n')[0]} and your key is ${key}.`, { chunkSize: 4 });
  }
  const text = lastUserText(request);
  if (text.includes('web')) return toolCallReply([{ name: 'web__echo', arguments: { text: 'hi' }, id: 'call_web' }]);
  if (text.includes('stdio')) return toolCallReply([{ name: 'local__echo', arguments: { text: 'hi' }, id: 'call_local' }]);
  if (text.includes('fail')) return errorReply(401, { error: { message: `Incorrect API key provided: ${key}. You can find your API key at https://example.invalid` } });
  return textReply(`Your key is ${key}, Bearer ${key}`, { chunkSize: 3, reasoning: `I was sent ${key}` });
}

function expectNoSecret(where: string, text: string) {
  for (const secret of SECRETS) expect(text.includes(secret), `${where} contains ${secret}`).toBe(false);
  // Not even most of one (a secret cut across chunks and shown in part).
  for (const secret of SECRETS) expect(text.includes(secret.slice(0, 16)), `${where} contains the start of ${secret}`).toBe(false);
}

function configure(home?: string): string {
  return prepareHome({
    broker,
    ...(home ? { home } : {}),
    model: { keyEnv: 'AISH_TEST_KEY' },
    servers: {
      web: { url: http.url, authToken: BEARER },
      local: hostileServer({ HOSTILE_TEXT: 'plain', HOSTILE_SECRET: STDIO_SECRET }),
    },
    mcp: { autoApprove: { web__echo: true, local__echo: true, local__crash: true } },
    config: { broker: { maxRetries: 0 } },
  });
}

describe('secrets never leak, even when servers echo them', () => {
  it('a whole session, then headless json and stream-json: screen, state directory, output and errors are clean', async () => {
    broker.route(echoingRoute);
    const home = configure();
    const env = { AISH_TEST_KEY: API_KEY };
    const term = track(new TerminalSession({ home, env, cols: 120, rows: 50 }));
    await term.waitFor('mcp 2/2', 20_000);

    await ask(term, 'hello');
    await term.waitFor(/Your key is \[redacted\]/);
    await ask(term, 'use web');
    await term.waitFor(/tool said: echo: hi/, 15_000);
    await ask(term, 'use stdio');
    await term.waitFor(/tool said: result plain/, 15_000);
    // A failed message comes back into the input (at once, for a 401), so not `ask`, which waits
    // for the input to empty; it is cleared before the next one.
    await term.typeSlowly('now fail');
    term.write(keys.enter);
    await term.waitFor(/HTTP 401: Incorrect API key provided/);
    await term.waitFor(/no answer: your message is back in the input/);
    await term.waitFor(/│ ›\s+now fail/);
    term.write(keys.ctrl('u'));
    await term.waitFor((screen) => !/│ ›\s+now fail/.test(screen));
    await ask(term, ':mcp tools');
    await term.waitFor(/web__echo\s+\d+ tok\s+on\s+Echo the text back/);
    await ask(term, ':model');
    await term.waitFor(/key from \$AISH_TEST_KEY/);
    // The model picker is open: Esc closes it.
    term.write(keys.escape);
    await term.waitFor((screen) => !screen.includes('Choose a model'));
    await ask(term, ':mcp list');
    await term.waitFor(/local\s+ready\s+/);
    // The stdio server printed its secret on stderr: shown in the sidebar only once it fails, so make it fail.
    broker.route((request) => (isToolResultTurn(request) ? textReply('after crash') : toolCallReply([{ name: 'local__crash', arguments: {}, id: 'call_crash' }])));
    await ask(term, 'crash it');
    await term.waitFor('after crash', 15_000);
    await term.waitFor(/✗ local/);

    // The secrets were really in use.
    expect(broker.requests.some((request) => request.headers.authorization === `Bearer ${API_KEY}`)).toBe(true);
    expect(http.authorizations).toContain(`Bearer ${BEARER}`);

    expectNoSecret('the terminal output', term.raw);
    expectNoSecret('the screen', await term.screen());
    for (const { file, mode } of filesWithModes(stateDir(home))) {
      expectNoSecret(file, readFileSync(file, 'utf8'));
      expect(mode, `${file} mode`).toBe(0o600);
    }
    for (const { dir, mode } of directoriesWithModes(stateDir(home))) expect(mode, `${dir} mode`).toBe(0o700);
    expect(filesWithModes(stateDir(home)).map(({ file }) => file.slice(stateDir(home).length))).toEqual(
      expect.arrayContaining(['/pins.json', '/input-history', expect.stringMatching(/^\/sessions\/.+\.jsonl$/)]),
    );

    // Headless: json and stream-json, stdout and stderr.
    broker.route(echoingRoute);
    for (const format of ['json', 'stream-json']) {
      for (const prompt of ['hello', 'use web', 'use stdio', 'now fail']) {
        const run = await runHeadless(['-p', prompt, '--output-format', format, '--auto-approve', 'web__*', '--auto-approve', 'local__*', '--accept-new-tools'], { home, env });
        expectNoSecret(`${format} stdout for ${prompt}`, run.stdout);
        expectNoSecret(`${format} stderr for ${prompt}`, run.stderr);
        expect(run.stdout.length).toBeGreaterThan(0);
      }
    }
    for (const { file } of filesWithModes(stateDir(home))) expectNoSecret(file, readFileSync(file, 'utf8'));
  }, 90_000);
});
