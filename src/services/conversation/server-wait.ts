// A message sent while the servers are still connecting (typed ahead during start-up, or sent the
// moment the input box shows) waits a moment for them, so that its first request can offer their
// tools: the built-in server is ready within a few tens of milliseconds, a local stdio server
// within a second or two. A server that takes longer is left out of this request and offered from
// the next one on, and the user is told; later messages do not wait for it again. Only the TUI waits this way; `-p` waits for every server
// before its only message (cli/headless.ts).
import { setTimeout as delay } from 'node:timers/promises';
import type { ServerSnapshot } from '../mcp/index';
import type { ConversationEvent } from './types';

/** The longest a message waits for servers that are still connecting. */
export const CONNECTING_WAIT_MS = 3_000;
/** A wait shorter than this is not worth a line in the transcript. */
const SAY_AFTER_MS = 300;
const CHECK_EVERY_MS = 25;

export interface StartingServers {
  /** The servers this run starts: the enabled configured ones and the built-in one. */
  expected(): readonly string[];
  servers(): readonly ServerSnapshot[];
  /** Servers a message was already sent without: the next messages do not wait for them again. */
  gaveUp: Set<string>;
}

/**
 * The servers not connected yet: those still connecting, or, before any has started (the MCP
 * client is still loading), every expected one. Once the servers have started they are all
 * known, and one removed later (`:mcp remove`) is not waited for.
 */
export function stillConnecting(starting: StartingServers): string[] {
  const servers = starting.servers();
  const waiting = servers.length === 0 ? [...starting.expected()] : servers.filter((server) => server.state === 'connecting').map((server) => server.alias);
  return waiting.filter((alias) => !starting.gaveUp.has(alias));
}

/** Waits until no expected server is connecting, at most `maxMs`; says so when it takes a while. */
export async function* waitForStartingServers(starting: StartingServers, signal: AbortSignal, maxMs = CONNECTING_WAIT_MS): AsyncGenerator<ConversationEvent, void, undefined> {
  let waiting = stillConnecting(starting);
  const startedAt = Date.now();
  let said = false;
  while (waiting.length > 0 && !signal.aborted) {
    const waited = Date.now() - startedAt;
    if (waited >= maxMs) {
      for (const alias of waiting) starting.gaveUp.add(alias);
      yield { type: 'status', level: 'warn', message: `sent without ${waiting.join(', ')}: still connecting after ${maxMs / 1000} s; its tools are offered from the next request on` };
      return;
    }
    if (!said && waited >= SAY_AFTER_MS) {
      said = true;
      yield { type: 'status', level: 'info', message: `waiting up to ${maxMs / 1000} s for ${waiting.join(', ')} to connect, so that its tools can be offered` };
    }
    // An abort ends the pause at once (and the loop with it).
    await delay(CHECK_EVERY_MS, undefined, { signal }).catch(() => undefined);
    waiting = stillConnecting(starting);
  }
}
