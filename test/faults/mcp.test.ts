import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { MISBEHAVING } from '../helpers/mcp';
import { isToolResultTurn, lastUserText, textReply, toolCallReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { ask, hostileServer, sessionMessages, startApp, waitForSettled } from '../security/helpers/app';
import { foreignEscapes, rawControls } from '../security/helpers/escapes';
import { startHttpMcpServer } from './fixtures/http-mcp-server';

// MCP servers misbehaving, through the built binary: a stdio server that dies in the middle of a
// call, an HTTP server that never answers (the call times out and the server is told it was
// cancelled), an HTTP server that answers 401 with an HTML page, a stdio server that writes
// non-JSON lines and escape sequences to stdout and stderr. Each is shown clearly; every call gets
// its tool turn, in the session log and in the next request.

const NGINX_401 = '<html>\r\n<head><title>401 Authorization Required</title></head>\r\n<body><center><h1>401 Authorization Required</h1></center></body>\r\n</html>\r\n';

const { broker, track } = useBrokerAndTerminals();

const CALLS: Record<string, string> = { crash: 'hostile__crash', hang: 'web__hang', noisy: 'noisy__noisy' };

function route(request: ReceivedRequest) {
  if (isToolResultTurn(request)) return textReply(`model saw: ${String(request.body?.messages?.at(-1)?.content).split('\n')[0]}`);
  const word = lastUserText(request).split(' ')[0]!;
  return toolCallReply([{ name: CALLS[word]!, arguments: {}, id: `call_${word}` }]);
}

describe('faults of MCP servers', () => {
  it('a crash mid-call, a hanging HTTP server, a 401 HTML page, garbage on stdout: shown clearly, every call answered', async () => {
    const hanging = track(await startHttpMcpServer());
    const locked = track(await startHttpMcpServer({ unauthorizedHtml: NGINX_401 }));
    broker.route(route);
    const term = track(startApp({
      broker,
      rows: 60,
      servers: {
        hostile: hostileServer({ HOSTILE_TEXT: 'plain' }),
        web: { url: hanging.url, timeoutMs: 1500 },
        locked: { url: locked.url, transport: 'http' },
        noisy: { command: process.execPath, args: [MISBEHAVING, '--banner'] },
      },
      // Named one by one: a server-wide rule would ask once for each tool never approved before.
      mcp: { autoApprove: { hostile__crash: true, web__hang: true, noisy__noisy: true } },
    }));
    let screen = await waitForSettled(term, 'mcp 3/4', 20_000);
    // The 401 page becomes one line under the server, without markup.
    screen = await waitForSettled(term, /✗ locked[\s\S]*HTTP 401/);
    expect(screen).not.toMatch(/<html|<title|<center/);

    await ask(term, 'crash now');
    screen = await waitForSettled(term, 'model saw: [aish] tool transport error', 15_000);
    // How it ended and the stderr line that says why, not the SDK's "Connection closed".
    expect(screen).toMatch(/mcp hostile: the server process exited with code 3 \(stderr: fatal plain\)/);
    expect(screen).not.toContain('Connection closed');
    expect(screen).toMatch(/✗ hostile/);

    await ask(term, 'hang now');
    screen = await waitForSettled(term, 'model saw: [aish] tool transport error: timed out after 1.5s', 15_000);
    // The server was told: a notifications/cancelled for the call that timed out.
    expect(hanging.calls).toEqual(['hang']);
    expect(hanging.cancelled).toHaveLength(1);

    await ask(term, 'noisy now');
    screen = await waitForSettled(term, 'model saw: noisy but fine', 15_000);
    expect(screen).toContain('noisy but fine \\x1b[1mbold\\x1b[0m');
    expect(screen).toMatch(/● noisy/);

    expect(foreignEscapes(term.raw)).toEqual([]);
    expect(rawControls(term.raw)).toEqual([]);

    // Every call has its tool turn, in the log and in what the model received.
    const toolTurns = sessionMessages(term.home).filter((message) => message.role === 'tool');
    expect(toolTurns.map((message) => [message.toolCallId, message.isError])).toEqual([
      ['call_crash', true],
      ['call_hang', true],
      ['call_noisy', false],
    ]);
    const last = broker.requests.at(-1)!.body!.messages!;
    expect(last.filter((message) => message.role === 'tool').map((message) => message.tool_call_id)).toEqual(['call_crash', 'call_hang', 'call_noisy']);
  }, 60_000);
});
