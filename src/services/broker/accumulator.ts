import type { BrokerEvent, FinishReason, Usage } from './types';
import {
  errorMessageOf,
  isErrorChunk,
  isObject,
  type JsonObject,
  nonEmptyString,
  normalizeFinishReason,
  readContent,
  readReasoning,
  readUsage,
} from './wire';
import { maxOf, pushAll } from '../terminal/rows';

/**
 * The pure heart of the broker: (state, SSE message) -> (state, events), with no I/O, so every
 * server quirk is a unit test. Text and reasoning are emitted as they arrive; tool calls, usage and
 * the finish reason only when the stream ends (`finalize`), because servers keep sending argument
 * fragments, usage and even a second finish chunk after the first `finish_reason`.
 */

/** One SSE event as eventsource-parser yields it. */
export interface SseMessage {
  event?: string;
  data: string;
}

interface ToolSlot {
  /** Unique per stream: several calls may share a wire `index` (Ollama sends every call at 0). */
  readonly key: number;
  readonly index: number;
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

export interface AccumulatorState {
  /** Tool calls being assembled, in the order first seen. */
  readonly slots: readonly ToolSlot[];
  /** The key of the slot an index-less fragment continues (a missing index means the current call; docs/ARCHITECTURE.md, Conversation rules). */
  readonly currentKey: number | undefined;
  /** The first non-null finish reason; a later null or duplicate never replaces it. */
  readonly finishReason: string | undefined;
  /** The last usage seen (servers send it on every chunk, on the finish chunk or separately). */
  readonly usage: Usage | undefined;
  /** The first error the server reported inside the stream. */
  readonly error: string | undefined;
  /** `data: [DONE]` arrived: the stream is over whatever follows. */
  readonly done: boolean;
  readonly malformedChunks: number;
  /** A tool-call fragment without an index was seen (noted once per stream; docs/ARCHITECTURE.md, Conversation rules). */
  readonly missingIndexNoted: boolean;
  /** For tool calls that arrive without an id: `${idPrefix}_${index}`. */
  readonly idPrefix: string;
}

export interface Step {
  state: AccumulatorState;
  events: BrokerEvent[];
}

export function createAccumulator(options: { idPrefix?: string } = {}): AccumulatorState {
  return {
    slots: [],
    currentKey: undefined,
    finishReason: undefined,
    usage: undefined,
    error: undefined,
    done: false,
    malformedChunks: 0,
    missingIndexNoted: false,
    idPrefix: options.idPrefix ?? 'call',
  };
}

const NO_EVENTS: BrokerEvent[] = [];

export function accumulate(state: AccumulatorState, message: SseMessage): Step {
  if (state.done) return { state, events: NO_EVENTS };
  const data = message.data.trim();
  if (data === '[DONE]') return { state: { ...state, done: true }, events: NO_EVENTS };
  if (data === '') return { state, events: NO_EVENTS };

  let body: unknown;
  try {
    body = JSON.parse(data);
  } catch {
    body = undefined;
  }
  if (message.event === 'error') return reportError(state, errorMessageOf(body) ?? (data.slice(0, 400) || 'error'));
  if (!isObject(body)) {
    const events: BrokerEvent[] =
      state.malformedChunks === 0 ? [{ type: 'status', message: `ignored a stream chunk that is not a JSON object: ${data.slice(0, 80)}` }] : NO_EVENTS;
    return { state: { ...state, malformedChunks: state.malformedChunks + 1 }, events };
  }
  return applyChunk(state, body);
}

function reportError(state: AccumulatorState, message: string): Step {
  if (state.error !== undefined) return { state, events: NO_EVENTS };
  return {
    state: { ...state, error: message },
    events: [{ type: 'error', kind: 'stream', message: `the server reported an error during the answer: ${message}` }],
  };
}

function applyChunk(initial: AccumulatorState, body: JsonObject): Step {
  let state = initial;
  const events: BrokerEvent[] = [];
  const push = (step: Step) => {
    state = step.state;
    pushAll(events, step.events);
  };

  if (isErrorChunk(body)) push(reportError(state, errorMessageOf(body) ?? 'error'));

  const usage = readUsage(body.usage) ?? (isObject(body.x_groq) ? readUsage(body.x_groq.usage) : undefined);
  if (usage) state = { ...state, usage };

  const choice = pickChoice(body.choices);
  if (!choice) return { state, events };

  const delta = isObject(choice.delta) ? choice.delta : undefined;
  if (delta) {
    const content = readContent(delta.content);
    const reasoning = readReasoning(delta) + content.reasoning;
    if (reasoning) events.push({ type: 'reasoning-delta', text: reasoning });
    if (content.text) events.push({ type: 'text-delta', text: content.text });
    if (Array.isArray(delta.tool_calls)) {
      if (!state.missingIndexNoted && delta.tool_calls.some((fragment) => isObject(fragment) && !hasIndex(fragment))) {
        state = { ...state, missingIndexNoted: true };
        events.push({ type: 'status', message: MISSING_INDEX_NOTE });
      }
      state = mergeToolCalls(state, delta.tool_calls);
    }
    else if (isObject(delta.function_call)) state = mergeToolCalls(state, [{ index: 0, function: delta.function_call }]);
  }

  const reason = normalizeFinishReason(choice.finish_reason);
  if (reason !== undefined && state.finishReason === undefined) state = { ...state, finishReason: reason };
  if (reason === 'error') push(reportError(state, 'the server ended the answer with finish_reason "error"'));
  return { state, events };
}

/** The first choice (index 0); other choices of an `n > 1` request are ignored. */
function pickChoice(choices: unknown): JsonObject | undefined {
  if (!Array.isArray(choices) || choices.length === 0) return undefined;
  const first = choices.find((choice) => isObject(choice) && (choice.index === 0 || choice.index === undefined));
  return isObject(first) ? first : isObject(choices[0]) ? choices[0] : undefined;
}

/** Said once per stream: the server breaks the spec (some llama.cpp builds do), and we cope. */
export const MISSING_INDEX_NOTE = 'the server sent tool-call fragments without an index; each continues the current call';

function hasIndex(fragment: JsonObject): fragment is JsonObject & { index: number } {
  return typeof fragment.index === 'number' && Number.isInteger(fragment.index) && fragment.index >= 0;
}

/** True when the text is one whole JSON value (a call whose arguments are finished). */
function isCompleteJson(text: string): boolean {
  if (text.trim() === '') return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether a fragment carrying `id` starts a new call rather than continuing `slot`. Ollama and
 * LiteLLM's ollama_chat stream every call whole at `index: 0`, each with its own id: a new id
 * there is a new call. A fragment without a name that lands on unfinished arguments is still read
 * as their continuation, so a proxy that invents an id per chunk does not tear one call apart.
 */
function startsNewCall(slot: ToolSlot, id: string | undefined, fragment: JsonObject): boolean {
  if (!id || !slot.id || slot.id === id) return false;
  const fn = isObject(fragment.function) ? fragment.function : {};
  return nonEmptyString(fn.name) !== undefined || isCompleteJson(slot.arguments);
}

/** The latest slot at a wire index (the one later fragments for that index continue). */
function lastAt(state: AccumulatorState, index: number): ToolSlot | undefined {
  return state.slots.findLast((slot) => slot.index === index);
}

/** The slot a fragment belongs to: an existing one, or the wire index of a new one. */
function slotFor(state: AccumulatorState, fragment: JsonObject, position: number, count: number): ToolSlot | { index: number } {
  const id = nonEmptyString(fragment.id);
  if (hasIndex(fragment)) {
    const same = id ? state.slots.find((slot) => slot.index === fragment.index && slot.id === id) : undefined;
    if (same) return same;
    const occupant = lastAt(state, fragment.index);
    return occupant && !startsNewCall(occupant, id, fragment) ? occupant : { index: fragment.index };
  }
  if (id) {
    const same = state.slots.find((slot) => slot.id === id);
    if (same) return same;
  }
  // Several index-less calls in one delta are told apart by position; a single one continues the
  // current call (docs/ARCHITECTURE.md, Conversation rules), unless it carries a new id: then it is a new call.
  const current = state.slots.find((slot) => slot.key === state.currentKey);
  const candidate = count > 1 ? position : (current?.index ?? 0);
  const occupant = count > 1 ? lastAt(state, candidate) : (current ?? lastAt(state, candidate));
  if (id && occupant && occupant.id && occupant.id !== id) return { index: maxOf(state.slots.map((slot) => slot.index)) + 1 };
  return occupant ?? { index: candidate };
}

function mergeToolCalls(initial: AccumulatorState, fragments: unknown[]): AccumulatorState {
  let state = initial;
  fragments.forEach((fragment, position) => {
    if (!isObject(fragment)) return;
    const target = slotFor(state, fragment, position, fragments.length);
    const existing = 'key' in target ? target : undefined;
    const fn = isObject(fragment.function) ? fragment.function : {};
    const slot: ToolSlot = existing ?? { key: state.slots.length, index: target.index, id: '', name: '', arguments: '' };
    const args = fn.arguments;
    const next: ToolSlot = {
      ...slot,
      // The first non-empty id and name win: servers repeat them (or send "") on later chunks,
      // and concatenating would produce `fnfn`.
      id: slot.id || (nonEmptyString(fragment.id) ?? ''),
      name: slot.name || (nonEmptyString(fn.name) ?? ''),
      // Fragments of the JSON string are concatenated; a server that sends the arguments as an
      // object sends them whole, so the object replaces what was there.
      arguments: typeof args === 'string' ? slot.arguments + args : isObject(args) || Array.isArray(args) ? JSON.stringify(args) : slot.arguments,
    };
    const slots = existing ? state.slots.map((s) => (s === existing ? next : s)) : [...state.slots, next];
    state = { ...state, slots, currentKey: next.key };
  });
  return state;
}

export type StreamEnd =
  /** `[DONE]` or the end of the body: the answer is as complete as the server made it. */
  | 'complete'
  /** The connection broke, timed out or was cancelled before the server finished. */
  | 'cut';

/** The finish reason the stream earned; see FinishReason for `incomplete`. */
export function finishReasonOf(state: AccumulatorState, end: StreamEnd): FinishReason {
  if (state.error !== undefined) return 'error';
  if (end === 'cut' && state.finishReason === undefined) return 'incomplete';
  const reason = state.finishReason;
  // Some servers (older Ollama, several proxies) report tool calls with finish_reason "stop".
  if (state.slots.length > 0 && (reason === 'stop' || reason === 'tool_calls')) return 'tool_calls';
  return reason ?? 'incomplete';
}

/**
 * Ends the stream: the completed tool calls (only when the server finished; calls from a cut
 * stream may be truncated and must not run), the last usage, then `finish`.
 */
export function finalize(state: AccumulatorState, end: StreamEnd, override?: FinishReason): BrokerEvent[] {
  const events: BrokerEvent[] = [];
  const reason = override ?? finishReasonOf(state, end);
  const complete = end === 'complete' || state.finishReason !== undefined;
  if (complete && reason !== 'error' && reason !== 'cancelled') {
    // By wire index; calls that share one keep the order they arrived in (the sort is stable).
    const ordered = [...state.slots].sort((a, b) => a.index - b.index);
    for (const slot of ordered) {
      events.push({
        type: 'tool-call',
        call: {
          id: slot.id || `${state.idPrefix}_${slot.index}`,
          name: slot.name,
          // A call to a tool without parameters often arrives with no arguments at all.
          arguments: slot.arguments.trim() === '' ? '{}' : slot.arguments,
        },
      });
    }
  }
  if (state.usage) events.push({ type: 'usage', usage: state.usage });
  events.push({ type: 'finish', reason });
  return events;
}
