import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../helpers/lifecycle';
import { EVERYTHING } from '../helpers/mcp';
import { isToolResultTurn, lastMessage, textReply, toolCallReply, type ReceivedRequest } from '../helpers/scripted-broker';
import { keys, makeScratchHome, TerminalSession, writeHomeConfig } from '../helpers/terminal';

// Through the built binary in a pseudo-terminal: the model calls server-everything's task-only
// tool, the transcript shows the task's status, `:bg` lets the conversation go on, and when the
// task completes its report is shown and given to the model, which answers on its own.

const { broker, track } = useBrokerAndTerminals();

function route(request: ReceivedRequest) {
  const last = lastMessage(request);
  if (last?.role === 'user' && String(last.content).startsWith('[aish] background task')) return textReply('Report received: reefs covered.');
  if (isToolResultTurn(request)) return textReply('Going on while it runs.');
  return toolCallReply([{ name: 'everything__simulate-research-query', arguments: { topic: 'reefs' } }], { textBefore: 'Starting the research.' });
}

describe('end to end: a task moved to the background', () => {
  it('120x40: task status under the call, :bg, then the report arrives and the model answers it', async () => {
    const home = makeScratchHome();
    writeHomeConfig(home, {
      models: { scripted: { baseUrl: broker.url, model: 'scripted' } },
      defaultModel: 'scripted',
      mcp: { servers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } }, autoApprove: { 'everything__simulate-research-query': true } },
    });
    const term = track(new TerminalSession({ cols: 120, rows: 40, home }));
    await term.waitFor('mcp 2/2', 30_000);
    await term.waitFor(/everything +(stdio )?1[6-9]/, 15_000);
    broker.route(route);
    await term.typeSlowly('research reefs');
    term.write(keys.enter);
    await term.waitFor(/task working .*\(:bg backgrounds, Esc cancels\)/, 20_000);
    await term.typeSlowly(':bg');
    term.write(keys.enter);
    await term.waitFor('Going on while it runs.', 20_000);
    // The report is shown (as the message that carries it to the model), then the model's answer.
    const done = await term.waitFor('Report received: reefs covered.', 30_000);
    expect(done).toContain('Stage 4: Generating report');
    const fed = broker.requests.map((request) => lastMessage(request)).find((message) => message?.role === 'user' && String(message.content).startsWith('[aish] background task'));
    expect(String(fed?.content)).toContain('# Research Report: reefs');
  }, 120_000);
});
