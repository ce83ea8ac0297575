import { describe, expect, it } from 'vitest';
import { stillConnecting, waitForStartingServers, type StartingServers } from '../../../src/services/conversation/server-wait';
import type { ConversationEvent } from '../../../src/services/conversation/types';
import type { ServerSnapshot } from '../../../src/services/mcp/index';

// A message sent while servers are still starting waits a moment for them (TUI), so that its first
// request can offer their tools.

function snapshot(alias: string, state: ServerSnapshot['state']): ServerSnapshot {
  return { alias, state, tools: [], target: alias } as unknown as ServerSnapshot;
}

/** Servers that become ready at the given times (ms after the start); `null`: never. */
function starting(readyAt: Record<string, number | null>, started = true): StartingServers {
  const begin = Date.now();
  return {
    gaveUp: new Set(),
    expected: () => Object.keys(readyAt),
    servers: () => (started ? Object.entries(readyAt).map(([alias, at]) => snapshot(alias, at !== null && Date.now() - begin >= at ? 'ready' : 'connecting')) : []),
  };
}

async function drain(events: AsyncGenerator<ConversationEvent>): Promise<ConversationEvent[]> {
  const seen: ConversationEvent[] = [];
  for await (const event of events) seen.push(event);
  return seen;
}

describe('servers still starting when a message is sent', () => {
  it('are those connecting, or every expected one before any has started', () => {
    expect(stillConnecting(starting({ builtin: 0, fs: null }))).toEqual(['fs']);
    expect(stillConnecting(starting({ builtin: 0, fs: null }, false))).toEqual(['builtin', 'fs']);
    // Started, then one removed: only what is connecting counts.
    expect(stillConnecting({ gaveUp: new Set(), expected: () => ['builtin', 'gone'], servers: () => [snapshot('builtin', 'ready')] })).toEqual([]);
    expect(stillConnecting({ gaveUp: new Set(), expected: () => [], servers: () => [] })).toEqual([]);
  });

  it('are not waited for when none is connecting: asked once, nothing said', async () => {
    const servers = starting({ builtin: 0, fs: 0 });
    let asked = 0;
    const counted = { gaveUp: new Set<string>(), expected: servers.expected, servers: () => (asked++, servers.servers()) };
    expect(await drain(waitForStartingServers(counted, new AbortController().signal))).toEqual([]);
    expect(asked).toBe(1);
  });

  it('a quick one is waited for until it is ready, without a word', async () => {
    const servers = starting({ builtin: 0, fs: 80 });
    expect(await drain(waitForStartingServers(servers, new AbortController().signal))).toEqual([]);
    expect(stillConnecting(servers)).toEqual([]);
  });

  it('a slower one is waited for, and the user is told what is awaited', async () => {
    const servers = starting({ builtin: 0, fs: 600 });
    expect(await drain(waitForStartingServers(servers, new AbortController().signal))).toEqual([
      { type: 'status', level: 'info', message: 'waiting up to 3 s for fs to connect, so that its tools can be offered' },
    ]);
    expect(stillConnecting(servers)).toEqual([]);
  });

  it('one that does not come in time is left out, and the user is told', async () => {
    const servers = starting({ builtin: 0, slow: null });
    const events = await drain(waitForStartingServers(servers, new AbortController().signal, 500));
    expect(events.map((event) => (event as { level?: string }).level)).toEqual(['info', 'warn']);
    expect(events[1]).toMatchObject({ message: 'sent without slow: still connecting after 0.5 s; its tools are offered from the next request on' });
    // The next message does not wait for it again.
    expect(stillConnecting(servers)).toEqual([]);
    expect(await drain(waitForStartingServers(servers, new AbortController().signal, 500))).toEqual([]);
  });

  it('stops waiting when the turn is cancelled, before the limit and without a word', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const servers = starting({ slow: null });
    // A limit no test would wait for: only the cancel ends this wait.
    expect(await drain(waitForStartingServers(servers, controller.signal, 600_000))).toEqual([]);
    expect(stillConnecting(servers)).toEqual(['slow']);
  });
});
