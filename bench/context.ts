// The context budget's costs and accuracy (README.md, "Context"), in process:
//
// - the meter costs nothing per token: streamed deltas fold into the store exactly as before (the
//   meter's numbers change only with `context` events, one or two per request), measured here as
//   the fold of a 2,000-token answer with and without a meter in the store;
// - measuring a request happens once per request, not per token: its cost on a long session;
// - the token estimate's error against counts a server reported, on the bench's own fixtures: the
//   2,000-token answer the stream benchmarks send (usage.completion_tokens 2000), and a 20-turn
//   conversation counted by the context servers' tokenizer, raw and calibrated.
import { createCalibration } from '../src/services/context/calibration';
import { estimateTokens } from '../src/services/context/estimate';
import { rawPromptEstimate } from '../src/services/context/budget';
import { measureHistory } from '../src/services/conversation/budget';
import { toWireMessages } from '../src/services/conversation/context';
import type { ConversationEvent, Message } from '../src/services/conversation/types';
import { createAppStore } from '../src/state/store';
import { buildToolIndex } from '../src/services/tools/names';
import { serverTokens } from '../test/helpers/context-servers';
import type { ReceivedRequest } from '../test/helpers/scripted-broker';
import { answerTokens, ANSWER_TOKENS } from './fixtures';
import { medianMs, type Scenario } from './scenario';

const tokens = answerTokens();

function foldAnswer(withMeter: boolean): void {
  const store = createAppStore({ modelName: 'bench' });
  if (withMeter) {
    store.getState().setContextWindow('bench', { tokens: 32_768, source: 'bench' });
    store.getState().setContext({ model: 'bench', used: 1200, reported: true, window: { tokens: 32_768, source: 'bench' }, parts: { system: 100, tools: 600, toolsByServer: { builtin: 600 }, messages: 500, reserve: 4096 } });
  }
  const events: ConversationEvent[] = [{ type: 'request-start', depth: 0, model: 'bench' }];
  // One store update per frame's worth of deltas (the batcher merges ~1 frame of tokens).
  for (let index = 0; index < tokens.length; index += 10) {
    store.getState().applyConversationEvents(tokens.slice(index, index + 10).map((text) => ({ type: 'text-delta', text })));
  }
  store.getState().applyConversationEvents([...events, { type: 'done', finishReason: 'stop' }]);
}

function session(turns: number): Message[] {
  const at = '2025-01-01T00:00:00.000Z';
  const history: Message[] = [];
  for (let turn = 0; turn < turns; turn++) {
    history.push({ id: `u${turn}`, role: 'user', content: `Question ${turn}: how does part ${turn} of the system work, and what should I check first?`, at });
    history.push({ id: `a${turn}`, role: 'assistant', content: `### Answer ${turn}\n\nPart ${turn} reads its **input**, checks it and hands it on:\n\n- validate the \`input\`\n- keep what was seen\n\n\`\`\`sh\nrun --part ${turn}\n\`\`\``, at });
  }
  return history;
}

const options = { systemPrompt: 'You are a helpful assistant with tools.', useToolRole: true, maxToolResultChars: 100_000 };
const percent = (estimate: number, reported: number) => `${(((estimate - reported) / reported) * 100).toFixed(1)}%`;

export const contextScenarios: Scenario[] = [
  {
    name: 'fold a 2,000-token answer into the store: no meter / meter shown',
    async run() {
      // Alternated, best of three medians each: the two differ only in what the store holds besides.
      let without = Infinity;
      let withMeter = Infinity;
      for (let round = 0; round < 3; round++) {
        without = Math.min(without, await medianMs(() => foldAnswer(false), 5, 1));
        withMeter = Math.min(withMeter, await medianMs(() => foldAnswer(true), 5, 1));
      }
      return { input: `${ANSWER_TOKENS} tokens, 10 per update`, 'median ms': `${without.toFixed(2)} / ${withMeter.toFixed(2)}` };
    },
  },
  {
    name: 'measure the next request (once per request), 2,000 earlier messages',
    async run() {
      const history = session(1000);
      const index = buildToolIndex([]);
      const context = { window: () => ({ tokens: 32_768, source: 'bench' }), learn: () => {}, calibration: createCalibration() };
      const ms = await medianMs(() => measureHistory({ history, model: { name: 'bench', baseUrl: 'http://127.0.0.1:1/v1', model: 'bench' }, index, context, options, budget: { autoCompactAt: 0.85, keepTurns: 2 } }), 7, 2);
      return { input: `${history.length} messages`, 'median ms': ms.toFixed(2) };
    },
  },
  {
    name: 'estimate vs reported: the stream benchmarks\' answer (usage.completion_tokens)',
    async run() {
      const estimate = estimateTokens(tokens.join(''));
      return { input: `reported ${ANSWER_TOKENS}`, estimate: String(estimate), error: percent(estimate, ANSWER_TOKENS) };
    },
  },
  {
    name: 'estimate vs reported: 20-turn conversation, context server counting (raw / calibrated on turn 1)',
    async run() {
      const calibration = createCalibration();
      const errors: number[] = [];
      const raw: number[] = [];
      const history = session(20);
      for (let turn = 1; turn <= 20; turn++) {
        const wire = toWireMessages(history.slice(0, turn * 2 - 1), options);
        const reported = serverTokens({ body: { messages: wire } } as unknown as ReceivedRequest);
        const estimate = rawPromptEstimate(wire, []);
        raw.push(Math.abs(estimate - reported) / reported);
        if (turn > 1) errors.push(Math.abs(calibration.apply('bench', estimate) - reported) / reported);
        calibration.record('bench', estimate, reported);
      }
      const mean = (list: number[]) => `${((list.reduce((a, b) => a + b, 0) / list.length) * 100).toFixed(1)}%`;
      return { input: '20 requests', error: `${mean(raw)} raw / ${mean(errors)} calibrated (mean absolute)` };
    },
  },
];
