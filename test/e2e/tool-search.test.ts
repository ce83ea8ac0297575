import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { isToolResultTurn, lastMessage, textReply, toolCallReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { keys, makeScratchHome, ROOT, sleep, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// README.md, "Tool budget": with 300 tools connected and an 8k context window, the model gets
// `tool_search` instead of 300 definitions; a (scripted) model searches, calls the tool it found,
// and the user approves that call in the frame. The sidebar shows each tool's cost and switches
// tools off.

const MANY = path.join(ROOT, 'test', 'helpers', 'many-tools-server.mjs');
const FRAME_DELAY_MS = 600;

const { broker, track } = useBrokerAndTerminals();

function start(cols = 120, rows = 40): TerminalSession {
  const home = makeScratchHome();
  writeHomeConfig(home, {
    models: { scripted: { baseUrl: broker.url, model: 'scripted', contextWindow: 8000 } },
    defaultModel: 'scripted',
    builtin: false,
    mcp: { servers: { many: { command: process.execPath, args: [MANY, '--count', '300'] } } },
  });
  return track(new TerminalSession({ cols, rows, home }));
}

const toolNames = (request: ReceivedRequest) => (request.body?.tools ?? []).map((tool) => (tool as { function: { name: string } }).function.name);

describe('tool search end to end', () => {
  it('300 tools, 8k window: the model searches, calls the tool it found, the user approves it', async () => {
    const term = start();
    await term.waitFor('mcp 1/1');
    const from = broker.requests.length;
    broker.route((request) => {
      const last = lastMessage(request);
      if (!isToolResultTurn(request)) return toolCallReply([{ name: 'tool_search', arguments: { query: 'open a new support ticket' }, id: 'call_search' }]);
      if (last?.tool_call_id === 'call_search') {
        // The scripted model takes the first tool the search returned.
        const found = /^(\S+) — /m.exec(String(last.content))?.[1] ?? 'nothing_found';
        return toolCallReply([{ name: found, arguments: { fields: { title: 'login broken' } }, id: 'call_found' }]);
      }
      return textReply(`Done: ${String(last?.content)}`);
    });
    await term.typeSlowly('file a ticket: the login is broken');
    await term.waitFor('the login is broken');
    term.write(keys.enter);

    const frame = await term.waitFor('Run this tool?', 15_000);
    expect(frame).toContain('tool_search');
    expect(frame).toContain('auto-approved by tool search');
    expect(frame).toContain('call many__tickets_create_ticket');
    await sleep(FRAME_DELAY_MS);
    term.write('y');
    await term.waitFor('Done: tickets_create_ticket done');

    const requests = broker.requests.slice(from);
    expect(requests).toHaveLength(3);
    // First request: the search function and nothing of the 300 tools.
    expect(toolNames(requests[0]!)).toEqual(['tool_search']);
    // After the search, the tools it found are sent in full.
    expect(toolNames(requests[1]!)).toContain('many__tickets_create_ticket');
    expect(toolNames(requests[1]!).length).toBeLessThanOrEqual(6);
  }, 40_000);

  it('the sidebar shows each tool\'s cost and switches a tool off, remembered for the directory', async () => {
    const term = start(120, 40);
    await term.waitFor('mcp 1/1');
    await term.waitFor(/many\s+stdio 300 \d+k/);
    await term.waitFor(/tools \d+k → search/);
    term.write(keys.tab); // focus the sidebar
    await sleep(100);
    term.write(keys.enter); // expand "many"
    const expanded = await term.waitFor('├ tickets_list_ticke');
    expect(expanded).toMatch(/tickets_list_ticke\S*\s+\d+ │/);
    term.write(keys.down);
    // Space only once the cursor is on the tool: read together with the arrow (a busy machine),
    // it would be typed-ahead text, which the sidebar does not take as a key.
    await term.waitFor(/›\s+├ tickets_list_ticke/);
    term.write(' ');
    const switched = await term.waitFor(/tickets_list_\S*\s+off\* \d+/);
    expect(switched).toMatch(/many\s+stdio 299\/300 \d+k\*?/);
    expect(switched).toContain('* switched here');
    expect(switched).toMatch(/tools \d+k → search/);
    const file = path.join(term.home, '.local', 'state', 'aish', 'tool-switches.json');
    await sleep(100);
    expect(existsSync(file)).toBe(true);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { directories: Record<string, Record<string, boolean>> };
    expect(Object.values(saved.directories)).toEqual([{ 'many__tickets_list_tickets': false }]);
  }, 30_000);
});
