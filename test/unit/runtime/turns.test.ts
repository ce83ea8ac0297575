import { describe, expect, it } from 'vitest';
import { useBrokerAndTerminals } from '../../helpers/lifecycle';
import { errorReply, textReply } from '../../helpers/scripted-broker';
import { testConfig } from '../../integration/conversation/harness';
import { createRuntime } from '../../../src/runtime/runtime';
import { runJob, type TurnContext } from '../../../src/runtime/turns';
import type { AppConfig } from '../../../src/services/config/load';
import { createEventBatcher } from '../../../src/services/conversation/batcher';
import type { Message } from '../../../src/services/conversation/types';
import { createAppStore } from '../../../src/state/store';

// The turn runner with real parts: the runtime's loop against the scripted broker, a real store
// fed through the per-frame batcher, a real shell for `!commands`.
const { broker, track } = useBrokerAndTerminals();

function context(config: AppConfig) {
  const store = createAppStore();
  const recorded: Message[] = [];
  const withdrawn: string[] = [];
  const statuses: string[] = [];
  const runtime = track(createRuntime(config, { report: () => {} }));
  const batcher = createEventBatcher((events) => store.getState().applyConversationEvents(events), 1000);
  const turn: TurnContext = {
    runtime,
    store,
    batcher,
    record: (message) => recorded.push(message),
    modelName: () => config.defaultModel,
    status: (level, text) => statuses.push(`${level}: ${text}`),
    withdraw: (id, text, reason) => withdrawn.push(`${reason}: ${text}`),
  };
  return { store, recorded, withdrawn, statuses, turn, batcher };
}

describe('the turn runner', () => {
  it('a message: the answer streams into the store, what the turn appends is recorded', async () => {
    const config = await testConfig(broker.url);
    const { store, recorded, withdrawn, turn, batcher } = context(config);
    broker.enqueue(textReply('Hello there.'));
    await runJob(turn, { kind: 'chat', text: 'hi' }, new AbortController().signal);
    batcher.flush();
    expect(recorded.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(store.getState().items.find((item) => item.kind === 'assistant')).toMatchObject({ text: 'Hello there.', streaming: false });
    expect(withdrawn).toEqual([]);
  });

  it('a message that got no answer at all is handed to the take-back', async () => {
    const config = await testConfig(broker.url, (settings) => {
      settings.broker.maxRetries = 0;
    });
    const { withdrawn, turn } = context(config);
    broker.enqueue(errorReply(400, { error: { message: 'bad request' } }));
    await runJob(turn, { kind: 'chat', text: 'will fail' }, new AbortController().signal);
    expect(withdrawn).toEqual(['error: will fail']);
  });

  it('a !command runs without asking and is recorded as an exec turn; shell.enabled false refuses it', async () => {
    const config = await testConfig(broker.url);
    const { recorded, turn } = context(config);
    await runJob(turn, { kind: 'shell', command: 'echo from-the-shell' }, new AbortController().signal);
    expect(recorded).toEqual([expect.objectContaining({ role: 'exec', command: 'echo from-the-shell', exitCode: 0, output: expect.stringContaining('from-the-shell') })]);

    const off = await testConfig(broker.url, (settings) => {
      settings.shell.enabled = false;
    });
    const refused = context(off);
    await runJob(refused.turn, { kind: 'shell', command: 'echo no' }, new AbortController().signal);
    expect(refused.recorded).toEqual([]);
    expect(refused.statuses).toEqual(['warn: shell commands are disabled (shell.enabled: false)']);
  });
});
