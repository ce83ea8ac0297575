import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { until } from '../helpers/mcp';
import { startSessionHttpMcpServer } from '../helpers/session-http-mcp-server';
import { keys } from '../helpers/terminal';
import { ask, startApp, waitForSettled } from '../security/helpers/app';

// The TUI ends the streamable-HTTP sessions it leaves: `:mcp disconnect` DELETEs the session at
// once, and quitting DELETEs the one open then.

const { broker, track } = useBrokerAndTerminals();

describe('MCP sessions in the TUI', () => {
  it(':mcp disconnect and quitting send the session DELETE', async () => {
    const server = track(await startSessionHttpMcpServer());
    const term = track(startApp({ broker, servers: { web: { url: server.url } } }));
    await waitForSettled(term, 'mcp 1/1', 20_000);
    await ask(term, ':mcp disconnect web');
    await term.waitFor('mcp web: disconnected');
    await until(() => server.deleted.length === 1);
    expect(server.deleted).toEqual([server.sessions[0]]);

    await ask(term, ':mcp reconnect web');
    await waitForSettled(term, 'mcp 1/1', 20_000);
    expect(server.sessions).toHaveLength(2);
    term.write(keys.ctrl('d'));
    expect(await term.waitForExit(15_000)).toBe(0);
    expect(server.deleted).toEqual(server.sessions);
  }, 60_000);
});
