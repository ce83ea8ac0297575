import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { chunk, isToolResultTurn, lastUserText, sse, textReply, toolCallReply, type SseItem, type StreamResponse } from '../helpers/scripted-broker';
import { keys, type TerminalSession } from '../helpers/terminal';
import { startHttpMcpServer } from '../faults/fixtures/http-mcp-server';
import { ask, hostileServer, sessionMessages, startApp, waitForSettled } from './helpers/app';
import { memoryOf } from './helpers/memory';

// docs/ARCHITECTURE.md, Security invariants 7: everything a server or a model can send is bounded. Each case floods the built
// binary and then checks behaviour, not timings: the flood is reported, the UI still echoes a
// keystroke and quits on Ctrl+D, and the process's peak memory stayed far below what keeping the
// flood would take.

const { broker, track } = useBrokerAndTerminals();

/** The UI still takes input: a typed word appears in the input bar, Ctrl+U clears it, Ctrl+D quits. */
async function expectResponsiveAndQuit(session: TerminalSession): Promise<void> {
  await session.typeSlowly('still-here');
  await session.waitFor('› still-here');
  session.write(keys.ctrl('u'));
  session.write(keys.ctrl('d'));
  expect(await session.waitForExit(15_000)).toBe(0);
}

/** One response carrying `count` complete tool calls, written as one body (not one write per chunk). */
function manyToolCalls(count: number, name: string): StreamResponse {
  const items: SseItem[] = [chunk({ role: 'assistant', content: null })];
  for (let index = 0; index < count; index++) {
    items.push(chunk({ tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name, arguments: `{"text":"n${index}"}` } }] }));
  }
  items.push(chunk({}, { finishReason: 'tool_calls' }));
  const reply = sse(items);
  return { ...reply, frames: [{ text: reply.frames.map((frame) => frame.text).join('') }] };
}

describe('bounds under floods', () => {
  it('a stdio server writing 100 MB without a line end is stopped and reported; memory stays bounded', async () => {
    broker.route((request) => (isToolResultTurn(request) ? textReply('after the flood') : toolCallReply([{ name: 'hostile__flood', arguments: { megabytes: 100 }, id: 'call_flood' }])));
    const term = track(startApp({ broker, servers: { hostile: hostileServer({ HOSTILE_TEXT: 'plain' }) }, mcp: { autoApprove: { hostile__flood: true } } }));
    await term.waitFor('mcp 1/1', 20_000);
    const before = memoryOf(term.pid);
    await ask(term, 'flood me');
    const screen = await waitForSettled(term, 'after the flood', 30_000);
    expect(screen).toMatch(/tool transport error: the server wrote more than 8 MB without a line end[\s│]*\(limits\.stdioMaxLineBytes\); it was stopped/);
    expect(screen).toMatch(/✗ hostile/);
    const after = memoryOf(term.pid);
    if (process.env.SEC_DEBUG) console.log('memory', before, after);
    // Keeping 100 MB (as a Buffer and then a string) would need well over 200 MB more than at rest.
    expect(after.peakMb - before.rssMb, `peak ${after.peakMb} MB, at rest ${before.rssMb} MB`).toBeLessThan(150);
    await expectResponsiveAndQuit(term);
  }, 60_000);

  it('limits.stdioMaxLineBytes is the bound: a smaller one stops a smaller flood', async () => {
    broker.route((request) => (isToolResultTurn(request) ? textReply('after the small flood') : toolCallReply([{ name: 'hostile__flood', arguments: { megabytes: 3 }, id: 'call_small_flood' }])));
    const term = track(
      startApp({ broker, servers: { hostile: hostileServer({ HOSTILE_TEXT: 'plain' }) }, mcp: { autoApprove: { hostile__flood: true } }, config: { limits: { stdioMaxLineBytes: 1024 * 1024 } } }),
    );
    await term.waitFor('mcp 1/1', 20_000);
    await ask(term, 'flood me a little');
    const screen = await waitForSettled(term, 'after the small flood', 30_000);
    expect(screen).toMatch(/tool transport error: the server wrote more than 1 MB without a line end[\s│]*\(limits\.stdioMaxLineBytes\); it was stopped/);
  }, 60_000);

  it('a 50 MB tool result: the model gets a capped copy, the UI stays responsive; a 200 MB one is refused at the message limit', async () => {
    const http = track(await startHttpMcpServer());
    broker.route((request) => {
      if (isToolResultTurn(request)) return textReply(`after the ${request.body?.messages?.at(-1)?.tool_call_id === 'call_huge' ? 'huge' : 'big'} result`);
      const megabytes = lastUserText(request).includes('huge') ? 200 : 50;
      return toolCallReply([{ name: 'web__big', arguments: { megabytes }, id: megabytes === 200 ? 'call_huge' : 'call_big' }]);
    });
    const term = track(startApp({ broker, servers: { web: { url: http.url } }, mcp: { autoApprove: { web__big: true } } }));
    await term.waitFor('mcp 1/1', 20_000);
    const before = memoryOf(term.pid);
    const from = broker.requests.length;
    await ask(term, 'something big');
    await term.waitFor('after the big result', 60_000);
    await term.waitFor(/idle/);
    // The request after the tool carries the result cut to context.maxToolResultChars, with a marker.
    const followUp = broker.requests.slice(from).find((request) => request.body?.messages?.some((message) => message.role === 'tool'));
    const toolTurn = String(followUp?.body?.messages?.find((message) => message.role === 'tool')?.content);
    expect(toolTurn.length).toBeLessThan(110_000);
    expect(toolTurn).toMatch(/truncated/);

    await ask(term, 'something huge');
    const screen = await waitForSettled(term, 'after the huge result', 60_000);
    expect(screen).toMatch(/the server sent a message larger than 64 MB[\s│]*\(limits\.httpMaxMessageBytes\)/);
    const after = memoryOf(term.pid);
    if (process.env.SEC_DEBUG) console.log('memory', before, after);
    expect(after.peakMb - before.rssMb, `peak ${after.peakMb} MB, at rest ${before.rssMb} MB`).toBeLessThan(600);
    await expectResponsiveAndQuit(term);
    // The session log keeps limits.maxResultBytes of the 50 MB result and names the side file that
    // holds all of it (JSON lines of 101 characters that decode to 100).
    const logged = sessionMessages(term.home).find((message) => message.role === 'tool');
    expect(logged?.content?.length).toBeLessThan(300_000);
    const side = /the whole result is in (\S+)$/.exec(String(logged?.content))?.[1];
    expect(side && statSync(side).size).toBe(50 * Math.floor((1024 * 1024) / 101) * 100);
  }, 120_000);

  it('10,000 tool calls in one answer: the first run, the rest are answered as over the limit, the UI stays responsive', async () => {
    broker.route((request) => (isToolResultTurn(request) ? textReply('after ten thousand') : manyToolCalls(10_000, 'hostile__echo')));
    const term = track(startApp({ broker, servers: { hostile: hostileServer({ HOSTILE_TEXT: 'plain' }) }, mcp: { autoApprove: { hostile__echo: true } } }));
    await term.waitFor('mcp 1/1', 20_000);
    const before = memoryOf(term.pid);
    const from = broker.requests.length;
    await ask(term, 'call everything');
    await term.waitFor('after ten thousand', 90_000);
    const after = memoryOf(term.pid);
    if (process.env.SEC_DEBUG) console.log('memory', before, after);
    const followUp = broker.requests.slice(from).at(-1)!;
    const toolTurns = (followUp.body?.messages ?? []).filter((message) => message.role === 'tool');
    expect(toolTurns).toHaveLength(10_000);
    expect(toolTurns.filter((message) => String(message.content).startsWith('result plain'))).toHaveLength(32);
    expect(String(toolTurns[9_999]!.content)).toBe('[aish] tool call not run: too many tool calls in one answer (limit 32)');
    expect(after.peakMb - before.rssMb, `peak ${after.peakMb} MB, at rest ${before.rssMb} MB`).toBeLessThan(600);
    await expectResponsiveAndQuit(term);
    expect(sessionMessages(term.home).filter((message) => message.role === 'tool')).toHaveLength(10_000);
  }, 150_000);
});


