// The context budget of each request (README.md, "Context"): measure it against the model's
// window, and before it would pass `context.autoCompactAt` shorten old tool results, then compact
// (services/context/compact.ts). Also the check of the server's count after the answer.
import type { ModelConfig, ToolSpec, Usage, WireMessage } from '../broker/types';
import { maxTokensOf } from '../broker/request';
import { answerReserve, compactionThreshold, measureContext, messageText, rawPromptEstimate, toolText, type ContextUsage } from '../context/budget';
import { estimateTokensRemembered as estimateTokens } from '../context/estimate';
import type { Calibration } from '../context/calibration';
import { compactionMessage, cutLatestToolResults, effectiveHistory, planCompaction, stubOldToolResults, summarise, type CompactionMessage } from '../context/compact';
import type { ContextWindow } from '../context/window';
import type { ToolIndex } from '../tools/names';
import { TOOL_SEARCH_NAME } from '../tools/budget';
import type { StreamChat } from '../broker/types';
import { buildRequestMessages, toWireMessages, type ContextOptions } from './context';
import type { ContextSnapshot, ConversationEvent, Message } from './types';

/** What the runtime tells the loop about windows and counts. */
export interface ContextDeps {
  /** The model's window as known now (never waits for the server). */
  window(model: ModelConfig): ContextWindow;
  /** The server said its window in an error: remembered for this model. */
  learn(model: ModelConfig, tokens: number): void;
  /** The server counted `promptTokens` for a request: the model's window may be asked again (a provisional one, or one smaller than that). */
  answered?(model: ModelConfig, promptTokens: number): void;
  calibration: Calibration;
  /**
   * The model's own tokenizer, when its server has one (llama.cpp `/tokenize`, server-tokens.ts):
   * `cached` never waits; `count` asks for the texts it does not know yet. Undefined: estimate.
   */
  serverTokens?(model: ModelConfig): { cached(text: string): number | undefined; count(texts: readonly string[], signal?: AbortSignal): Promise<void> } | undefined;
}

export interface BudgetSettings {
  autoCompactAt: number | false;
  keepTurns: number;
}

export interface FitInput {
  history: readonly Message[];
  append: (message: Message) => ConversationEvent;
  model: ModelConfig;
  index: ToolIndex;
  context: ContextDeps | undefined;
  options: ContextOptions;
  budget: BudgetSettings;
  /** `overflow`: the server refused the last attempt for length: compact even below the threshold. */
  force?: 'overflow';
  summarise: { streamChat: StreamChat; signal: AbortSignal; timeouts: { firstByteMs: number; idleMs: number }; maxRetries: number; env?: NodeJS.ProcessEnv };
}

export interface FittedRequest {
  messages: WireMessage[];
  /** Our raw estimate of this request, for calibrating against the server's count. */
  rawEstimate: number;
  /** Which calibration it belongs to: counts by the server's tokenizer and estimates are corrected apart. */
  calibrationKey: string;
  /** Counted by the server's tokenizer: the plain estimate of the same request too (calibrated as well). */
  estimatedRaw?: number;
  snapshot: ContextSnapshot;
}

// The built-in tool_search is no server's: the breakdown names it on its own line.
const alias = (index: ToolIndex) => (wire: string) => index.byWireName.get(wire)?.alias ?? (wire === TOOL_SEARCH_NAME ? 'tool search' : undefined);

type Measured = { messages: WireMessage[]; usage: ContextUsage; raw: number; calibrationKey: string; estimatedRaw?: number; threshold?: number; counting: string };

/** The wire messages of `view`: checked for sending, or (between turns, ending with the answer) as they stand. */
function wireOf(input: Pick<FitInput, 'options'>, view: readonly Message[], check: boolean): WireMessage[] {
  return check ? buildRequestMessages(effectiveHistory(view), input.options) : toWireMessages(effectiveHistory(view), input.options);
}

/** The numbers of a request of `messages`, against the window. */
function measureWire(input: Pick<FitInput, 'model' | 'index' | 'context' | 'options' | 'budget'>, messages: WireMessage[], window: ContextWindow): Measured {
  const reserve = answerReserve(maxTokensOf(input.model), window.tokens);
  const tokenizer = input.context?.serverTokens?.(input.model);
  // Every part counted by the server's tokenizer: its own calibration (only the chat template's
  // overhead is left to correct); any part estimated: the estimate's.
  let exact = tokenizer !== undefined;
  let anyCounted = false;
  const count = (text: string) => {
    const counted = tokenizer?.cached(text);
    if (counted !== undefined) anyCounted = true;
    if (counted !== undefined || text.length === 0) return counted ?? 0;
    exact = false;
    return estimateTokens(text);
  };
  const calibrationKey = () => (exact ? `${input.model.name} (server tokenizer)` : input.model.name);
  const calibrate = (tokens: number) => input.context?.calibration.apply(calibrationKey(), tokens) ?? tokens;
  const usage = measureContext({ messages, tools: input.index.specs, serverOf: alias(input.index), reserve, count, calibrate });
  const threshold = compactionThreshold(window.tokens, reserve, input.budget.autoCompactAt);
  // Counted exactly, the estimate is still calibrated on the same request: the meter between turns
  // estimates the parts the tokenizer has not seen yet (the answer just streamed).
  const estimatedRaw = exact ? rawPromptEstimate(messages, input.index.specs) : undefined;
  const counting = countingOf(anyCounted, exact, input.context?.calibration.samples(calibrationKey()) ?? 0);
  return { messages, usage, raw: usage.raw, calibrationKey: calibrationKey(), counting, ...(estimatedRaw !== undefined ? { estimatedRaw } : {}), ...(threshold !== undefined ? { threshold } : {}) };
}

/** How a measured prompt size was counted, for `:context`: the server's tokenizer, or our estimate and how far it is corrected. */
function countingOf(someCounted: boolean, exact: boolean, samples: number): string {
  const corrected = samples === 0 ? 'not yet corrected by a server count' : `corrected by ${samples} server count${samples === 1 ? '' : 's'}`;
  if (exact) return `counted by the server's tokenizer (/tokenize); the chat template's overhead ${corrected}`;
  if (someCounted) return `estimated where the server's tokenizer (/tokenize) has not counted yet, ${corrected}`;
  return `estimated (about 4 characters a token), ${corrected}`;
}

function measure(input: Pick<FitInput, 'model' | 'index' | 'context' | 'options' | 'budget'>, view: readonly Message[], window: ContextWindow, check = true): Measured {
  return measureWire(input, wireOf(input, view, check), window);
}

/**
 * Like measure, after the server's tokenizer (when there is one) counted the parts it had not seen:
 * only new messages are sent to it, all at once, and a request whose parts are all known waits for nothing.
 */
async function measureCounted(input: Pick<FitInput, 'model' | 'index' | 'context' | 'options' | 'budget' | 'summarise'>, view: readonly Message[], window: ContextWindow): Promise<Measured> {
  const messages = wireOf(input, view, true);
  const tokenizer = input.context?.serverTokens?.(input.model);
  if (tokenizer) await tokenizer.count([...messages.map(messageText), ...input.index.specs.map(toolText)], input.summarise.signal);
  return measureWire(input, messages, window);
}

/** The context the history would take in the next request, without sending anything (the meter between turns, `:context`). */
export function measureHistory(input: Pick<FitInput, 'history' | 'model' | 'index' | 'context' | 'options' | 'budget'>): ContextSnapshot {
  const window = input.context?.window(input.model) ?? { source: 'unknown' };
  const measured = measure(input, input.history, window, false);
  return snapshotOf(input.model, window, measured);
}

export function snapshotOf(model: ModelConfig, window: ContextWindow, measured: Pick<Measured, 'usage' | 'threshold' | 'counting'>): ContextSnapshot {
  const { usage, threshold, counting } = measured;
  return { model: model.name, used: usage.used, reported: usage.reported, counting, window, parts: usage.parts, ...(threshold !== undefined ? { compactAt: threshold } : {}) };
}

/** A window in the units it was chosen in (`4k`, `32k`, `128k`), as the meter shows it. */
export const formatWindowTokens = (tokens: number): string => (tokens < 1000 ? String(tokens) : tokens % 1000 === 0 ? `${tokens / 1000}k` : tokens % 1024 === 0 ? `${tokens / 1024}k` : `${Math.round(tokens / 1000)}k`);

export const formatTokens = (value: number): string => (value < 1000 ? String(value) : value < 10_000 ? `${(value / 1000).toFixed(1)}k` : `${Math.round(value / 1000)}k`);

/**
 * Builds the next request so it fits: as it is when under the threshold; else with old tool
 * results shortened; else after compacting (a status line says so; the compaction record goes
 * into the history). Throws ContextError for a malformed history, like buildRequestMessages.
 */
export async function* fitRequest(input: FitInput): AsyncGenerator<ConversationEvent, FittedRequest, undefined> {
  const window = input.context?.window(input.model) ?? { source: 'unknown' };
  let view: readonly Message[] = input.history;
  let measured = await measureCounted(input, view, window);
  const over = () => input.force === 'overflow' || (measured.threshold !== undefined && measured.usage.used > measured.threshold);

  if (over()) {
    const before = measured.usage.used;
    const stubbed = stubOldToolResults(effectiveHistory(view), input.budget.keepTurns);
    if (stubbed.stubbed > 0 && input.force !== 'overflow') {
      const shortened = await measureCounted(input, stubbed.history, window);
      if (shortened.threshold === undefined || shortened.usage.used <= shortened.threshold) {
        yield { type: 'status', level: 'info', message: `context: ${stubbed.stubbed} older tool result${stubbed.stubbed === 1 ? '' : 's'} left out of the request (${formatTokens(before)} → ${formatTokens(shortened.usage.used)} tokens; the full text stays in the session log)` };
        return { messages: shortened.messages, rawEstimate: shortened.raw, calibrationKey: shortened.calibrationKey, ...(shortened.estimatedRaw !== undefined ? { estimatedRaw: shortened.estimatedRaw } : {}), snapshot: snapshotOf(input.model, window, shortened) };
      }
    }
    const compacted = yield* compactHistory({ ...input, trigger: input.force === 'overflow' ? 'overflow' : 'auto', tokensBefore: before, window });
    if (compacted) {
      view = [...view, compacted];
      measured = await measureCounted(input, view, window);
      if (measured.threshold !== undefined && measured.usage.used > measured.threshold) {
        // Still too large: the kept turns' own tool results are what is left to shorten.
        const again = stubOldToolResults(effectiveHistory(view), 1);
        if (again.stubbed > 0) {
          view = again.history;
          measured = await measureCounted(input, view, window);
        }
      }
    }
    // The latest tool results alone are too large for the window: sent cut, never as a request
    // the server must refuse (the full text stays in the history and the session log).
    const fitted = yield* cutToFit(input, effectiveHistory(view), measured, window);
    if (fitted) measured = fitted;
  }
  const snapshot = snapshotOf(input.model, window, measured);
  yield { type: 'context', context: snapshot };
  return { messages: measured.messages, rawEstimate: measured.raw, calibrationKey: measured.calibrationKey, ...(measured.estimatedRaw !== undefined ? { estimatedRaw: measured.estimatedRaw } : {}), snapshot };
}

/** Over the threshold (or refused for length) with the last turn's tool results: cuts them until the request fits. */
async function* cutToFit(input: FitInput, view: readonly Message[], measured: Measured, window: ContextWindow): AsyncGenerator<ConversationEvent, Measured | undefined, undefined> {
  const limit = measured.threshold ?? (input.force === 'overflow' && window.tokens !== undefined ? window.tokens - answerReserve(maxTokensOf(input.model), window.tokens) : undefined);
  if (limit === undefined || (measured.usage.used <= limit && input.force !== 'overflow')) return undefined;
  const before = measured.usage.used;
  // Aim a little below the limit: the estimate of the cut text is not calibrated yet.
  let share = Math.max(0.02, 1 - (before - limit * 0.9) / Math.max(1, before));
  for (let attempt = 0; attempt < 8; attempt++, share *= 0.7) {
    const cut = cutLatestToolResults(view, share);
    if (cut.cut === 0) return undefined;
    const next = measure(input, cut.history, window);
    if (next.usage.used <= limit * 0.95 || attempt === 7) {
      const counted = await measureCounted(input, cut.history, window);
      yield { type: 'status', level: 'warn', message: `context: the latest tool result${cut.cut === 1 ? ' was' : 's were'} too large for the model's window: sent cut (${formatTokens(before)} → ${formatTokens(counted.usage.used)} tokens; the full text stays in the session log)` };
      return counted;
    }
  }
  return undefined;
}

export interface CompactInput extends Omit<FitInput, 'force'> {
  trigger: CompactionMessage['trigger'];
  focus?: string;
  tokensBefore?: number;
  window: ContextWindow;
}

/**
 * One compaction: the summary request, then the record appended to the history (announced as a
 * `message` event, so the front end logs it). Returns the record, or undefined when there was
 * nothing to compact or the summary failed (a status line says which).
 */
export async function* compactHistory(input: CompactInput): AsyncGenerator<ConversationEvent, CompactionMessage | undefined, undefined> {
  const effective = effectiveHistory(input.history);
  const plan = planCompaction(effective, input.budget.keepTurns);
  if (!plan) {
    yield { type: 'status', level: input.trigger === 'user' ? 'info' : 'warn', message: 'context: nothing to compact yet (only the latest turn is left)' };
    return undefined;
  }
  const window = input.window;
  const reserve = answerReserve(maxTokensOf(input.model), window.tokens);
  const size = input.tokensBefore !== undefined && window.tokens ? ` (${formatTokens(input.tokensBefore)}/${formatWindowTokens(window.tokens)} tokens)` : '';
  const why = input.trigger === 'auto' ? 'the next request would pass context.autoCompactAt' : input.trigger === 'overflow' ? 'the server rejected the request for length' : 'asked with :compact';
  const count = plan.old.filter((message) => message.role !== 'compaction').length;
  yield { type: 'status', level: 'info', message: `compacting ${count} earlier message${count === 1 ? '' : 's'}${size}: ${why}…` };
  const result = await summarise({
    streamChat: input.summarise.streamChat,
    model: input.model,
    old: plan.old,
    ...(input.focus ? { focus: input.focus } : {}),
    ...(window.tokens !== undefined ? { window: window.tokens } : {}),
    reserve,
    signal: input.summarise.signal,
    timeouts: input.summarise.timeouts,
    maxRetries: input.summarise.maxRetries,
    ...(input.summarise.env ? { env: input.summarise.env } : {}),
  });
  if ('error' in result) {
    yield { type: 'status', level: result.error === 'cancelled' ? 'info' : 'warn', message: `context: compaction ${result.error === 'cancelled' ? 'cancelled' : `failed: ${result.error}`}` };
    return undefined;
  }
  const draft = compactionMessage(plan, result.summary, { trigger: input.trigger, ...(input.focus ? { focus: input.focus } : {}), ...(input.tokensBefore !== undefined ? { tokensBefore: input.tokensBefore } : {}) });
  const after = measure(input, [...input.history, draft], window, false).usage.used;
  const record: CompactionMessage = { ...draft, tokensAfter: after };
  yield input.append(record);
  return record;
}

/**
 * After an answer: calibrates the estimate, reports the counted context, and warns when Ollama
 * cut the prompt to its num_ctx without saying so (prompt tokens reported at the window's size).
 */
export function* afterAnswer(input: { model: ModelConfig; context: ContextDeps | undefined; fitted: FittedRequest; usage: Usage | undefined }): Generator<ConversationEvent, void, undefined> {
  const prompt = input.usage?.promptTokens;
  if (!input.context || prompt === undefined || prompt <= 0) return;
  input.context.calibration.record(input.fitted.calibrationKey, input.fitted.rawEstimate, prompt);
  if (input.fitted.estimatedRaw !== undefined) input.context.calibration.record(input.model.name, input.fitted.estimatedRaw, prompt);
  input.context.answered?.(input.model, prompt);
  const { snapshot } = input.fitted;
  const used = prompt + (input.usage?.completionTokens ?? 0);
  yield { type: 'context', context: { ...snapshot, used, reported: true } };
  const window = snapshot.window.tokens;
  if (window !== undefined && /^Ollama/.test(snapshot.window.source) && prompt >= window - 1) {
    yield {
      type: 'status',
      level: 'warn',
      message: `Ollama counted ${prompt} prompt tokens, exactly its num_ctx (${window}): it most likely cut the start of the conversation without saying so. compact (:compact), or give the model a larger num_ctx (in a Modelfile, or OLLAMA_CONTEXT_LENGTH for the server)`,
    };
  }
}
