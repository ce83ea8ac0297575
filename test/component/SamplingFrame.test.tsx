import { describe, expect, it, vi } from 'vitest';
import { APPROVAL_DELAY_MS } from '../../src/ui/keys/frameKeys';
import type { SamplingRequest } from '../../src/services/mcp/types';
import type { SamplingAnswer } from '../../src/state/slices/sampling';
import { serverDetailLines } from '../../src/ui/panels/ToolDetails';
import { useRenderedApp, type Harness } from './render';
import { askApproval } from './frames';

let h: Harness;
const app = useRenderedApp({ fakeTimers: true });

const request = (over: Partial<SamplingRequest> = {}): SamplingRequest => ({
  id: 'req-1',
  alias: 'everything',
  systemPrompt: 'You are a helpful test server.',
  messages: [{ role: 'user', content: [{ type: 'text', text: 'Resource context: say hi' }] }],
  maxTokens: 64,
  temperature: 0.7,
  ...over,
});

/** Queues a sampling review as the runtime's prompter does; the probe gets the answer. */
async function review(stage: 'request' | 'result', over: Partial<SamplingRequest> = {}, text = ''): Promise<{ answer?: SamplingAnswer }> {
  const probe: { answer?: SamplingAnswer } = {};
  void h.store
    .getState()
    .reviewSampling({ request: request(over), model: 'local', stage, editText: stage === 'result' ? text : '### user\nResource context: say hi', text })
    .then((answer) => {
      probe.answer = answer;
    });
  await h.settle();
  return probe;
}

const pastDelay = () => vi.advanceTimersByTimeAsync(APPROVAL_DELAY_MS + 10);

describe('sampling frame', () => {
  it('shows the server, model, limits, preferences, context asked for and the messages, escaped', async () => {
    h = app.render({ columns: 120, rows: 40 });
    await review('request', {
      alias: 'evil',
      systemPrompt: 'sys \x1b[31mred',
      modelPreferences: { hints: ['claude-3'], intelligencePriority: 0.8 },
      includeContext: 'allServers',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi\u202Eevil' }, { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'earlier answer' }] },
      ],
    });
    const screen = h.screen();
    expect(screen).toContain('Sampling request: send to your model?');
    expect(screen).toContain('server evil asks your model for an answer');
    expect(screen).toContain('model local · up to 64 tokens · temperature 0.7');
    expect(screen).toContain('prefers: hints claude-3 · intelligence 0.8');
    expect(screen).toContain('asks to include context (allServers): none is sent');
    expect(screen).toContain('sys \\x1b[31mred');
    expect(screen).toContain('hi<U+202E>evil');
    expect(screen).toContain('image [image/png, 8 B]');
    expect(screen).toContain('earlier answer');
    expect(screen).not.toContain('\x1b[31m');
  });

  it('y sends it only after the delay; a pasted y never does; n denies', async () => {
    h = app.render({ columns: 120, rows: 40 });
    const probe = await review('request');
    await h.type('y');
    expect(probe.answer).toBeUndefined();
    await pastDelay();
    await h.type('\x1b[200~y\x1b[201~');
    await h.settle();
    expect(probe.answer).toBeUndefined();
    await h.type('y');
    await h.settle();
    expect(probe.answer).toEqual({ action: 'approve' });
    // While the model answers, the request stays at the head as running: the next one waits.
    const denied = await review('request', { id: 'req-2' });
    expect(h.screen()).toContain('Sampling: the model is answering');
    h.store.getState().endSampling('req-1');
    await h.settle();
    await pastDelay();
    await h.type('n');
    await h.settle();
    expect(denied.answer).toEqual({ action: 'deny' });
  });

  it('e edits the request as text; Enter hands the edit back', async () => {
    h = app.render({ columns: 120, rows: 40 });
    const probe = await review('request');
    await pastDelay();
    await h.type('e');
    expect(h.screen()).toContain('Enter use the edit · Ctrl+J new line · Esc back');
    for (const char of ' now') await h.type(char);
    await vi.advanceTimersByTimeAsync(50);
    await h.type('\r');
    await h.settle();
    expect(probe.answer).toEqual({ action: 'edit', text: '### user\nResource context: say hi now' });
  });

  it('Ctrl+G edits the request in $EDITOR; what was saved waits in the edit field for Enter', async () => {
    const edited: string[] = [];
    h = app.render({ columns: 120, rows: 40, env: { editExternally: async (text) => (edited.push(text), { text: '### user\nwritten in the editor' }) } });
    const probe = await review('request');
    await pastDelay();
    await h.type('\x07');
    await h.settle();
    expect(edited).toEqual(['### user\nResource context: say hi']);
    expect(h.screen()).toContain('Enter use the edit · Ctrl+J new line · Esc back');
    expect(h.screen()).toContain('written in the editor');
    expect(probe.answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(50);
    await h.type('\r');
    await h.settle();
    expect(probe.answer).toEqual({ action: 'edit', text: '### user\nwritten in the editor' });
  });

  it('Ctrl+G on the answer: the saved text is what goes back after Enter', async () => {
    h = app.render({ columns: 120, rows: 40, env: { editExternally: async () => ({ text: 'answer from the editor' }) } });
    const probe = await review('result', {}, 'model answer');
    await pastDelay();
    await h.type('\x07');
    await h.settle();
    await vi.advanceTimersByTimeAsync(50);
    await h.type('\r');
    await h.settle();
    expect(probe.answer).toEqual({ action: 'approve', text: 'answer from the editor' });
  });

  it("the answer is shown for approval again, and waits behind a tool call's frame", async () => {
    h = app.render({ columns: 120, rows: 40 });
    const call = await askApproval(h, { id: 'call-1', wireName: 'everything__echo', alias: 'everything', tool: 'echo', rawArguments: '{}', arguments: {} });
    const probe = await review('result', {}, 'Hello \x07 there');
    expect(h.screen()).toContain('Run this tool?');
    await pastDelay();
    await h.type('n');
    await h.settle();
    expect(call.answer).toEqual({ action: 'deny' });
    const screen = h.screen();
    expect(screen).toContain("Sampling: return the model's answer to the server?");
    expect(screen).toContain('Hello \\x07 there');
    await pastDelay();
    await h.type('y');
    await h.settle();
    expect(probe.answer).toEqual({ action: 'approve' });
  });

  it("the server's details show its log, escaped, newest last", () => {
    const lines = serverDetailLines(
      'srv',
      {
        alias: 'srv',
        target: 'x',
        state: 'ready',
        tools: [],
        stderr: [],
        log: [
          { at: 0, level: 'warning', text: 'first' },
          { at: 1000, level: 'error', logger: 'db', text: 'bad \x1b]0;title\x07 thing' },
        ],
      },
      80,
    );
    const text = lines.map((line) => line.map((segment) => segment.text).join(''));
    expect(text).toContain('log, last 2 messages');
    const error = text.find((line) => line.includes('error [db]'));
    expect(error).toContain('bad \\x1b]0;title\\x07 thing');
    expect(text.indexOf(text.find((line) => line.includes('first'))!)).toBeLessThan(text.indexOf(error!));
  });
});
