// One request to the model: streams its events on as conversation events and returns what the
// answer contained. Deltas are passed through as they arrive (the front end batches them).
import type { BrokerRequest, CompletedToolCall, FinishReason, StreamChat, Usage } from '../broker/types';
import { overflowInText, type ContextOverflow } from '../context/overflow';
import type { ConversationEvent } from './types';

export interface AnswerResult {
  text: string;
  reasoning: string;
  calls: CompletedToolCall[];
  finishReason: FinishReason;
  /** The broker's error message, when the answer failed. */
  error?: string;
  usage?: Usage;
  /** The server rejected the request for length (its error was held back, see `holdOverflow`). */
  overflow?: ContextOverflow;
}

export interface AnswerOptions {
  now?: () => number;
  /**
   * A length rejection is not shown as an error but returned as `overflow`: the caller compacts
   * and retries, and says so itself.
   */
  holdOverflow?: boolean;
}

/** Tokens per second of the answer itself: from its first streamed token to its end. */
export function tokensPerSecond(usage: Usage | undefined, firstTokenAt: number | undefined, endedAt: number): number | undefined {
  const tokens = usage?.completionTokens;
  if (!tokens || firstTokenAt === undefined) return undefined;
  const seconds = (endedAt - firstTokenAt) / 1000;
  // One chunk carrying the whole answer says nothing about speed.
  if (seconds <= 0.05) return undefined;
  return tokens / seconds;
}

export const EMPTY_ANSWER = 'the server sent an empty answer';

/** Names the server's finish reason when it says more than "stopped" (e.g. `length`, `content_filter`). */
function emptyAnswerMessage(reason: FinishReason): string {
  return reason === 'stop' || reason === 'incomplete' ? EMPTY_ANSWER : `${EMPTY_ANSWER} (finish_reason "${reason}")`;
}

export async function* streamAnswer(
  streamChat: StreamChat,
  request: BrokerRequest,
  options: AnswerOptions = {},
): AsyncGenerator<ConversationEvent, AnswerResult, undefined> {
  const now = options.now ?? Date.now;
  let overflow: ContextOverflow | undefined;
  let text = '';
  let reasoning = '';
  const calls: CompletedToolCall[] = [];
  let finishReason: FinishReason = 'incomplete';
  let error: string | undefined;
  let usage: Usage | undefined;
  let firstTokenAt: number | undefined;

  try {
    for await (const event of streamChat(request)) {
      switch (event.type) {
        case 'text-delta':
          firstTokenAt ??= now();
          text += event.text;
          yield { type: 'text-delta', text: event.text };
          break;
        case 'reasoning-delta':
          firstTokenAt ??= now();
          reasoning += event.text;
          yield { type: 'reasoning-delta', text: event.text };
          break;
        case 'tool-call':
          firstTokenAt ??= now();
          calls.push(event.call);
          break;
        case 'usage':
          usage = event.usage;
          break;
        case 'status':
          yield { type: 'status', level: 'info', message: event.message };
          break;
        case 'error': {
          error = event.message;
          // Some servers (LM Studio) report it in a 200 stream, without a structured body.
          const length = event.overflow ?? overflowInText(event.message);
          if (length && options.holdOverflow) {
            overflow = length;
            break;
          }
          yield { type: 'error', message: event.message };
          break;
        }
        case 'finish':
          finishReason = event.reason;
          break;
      }
    }
  } catch (thrown) {
    // The broker reports failures as events; a throw is a bug or broken infrastructure, still
    // reported as this answer's error so the conversation stays consistent.
    if (request.signal?.aborted) {
      finishReason = 'cancelled';
    } else {
      error = thrown instanceof Error ? thrown.message : String(thrown);
      finishReason = 'error';
      yield { type: 'error', message: error };
    }
  }
  if (request.signal?.aborted && finishReason !== 'error') finishReason = 'cancelled';
  if (error !== undefined && finishReason !== 'cancelled') finishReason = 'error';
  // A 200 with nothing in it (an empty body, only a finish chunk, only chunks that are not JSON)
  // is a failed answer, not a silent one: left as it is, the question would stay unanswered in
  // the history and go out glued to the next message.
  if (finishReason !== 'cancelled' && finishReason !== 'error' && text.trim().length === 0 && reasoning.trim().length === 0 && calls.length === 0) {
    error = emptyAnswerMessage(finishReason);
    finishReason = 'error';
    yield { type: 'error', message: error };
  }
  if (usage) {
    const speed = tokensPerSecond(usage, firstTokenAt, now());
    yield { type: 'usage', usage, ...(speed !== undefined ? { tokensPerSecond: speed } : {}) };
  }
  return { text, reasoning, calls, finishReason, ...(error !== undefined ? { error } : {}), ...(usage ? { usage } : {}), ...(overflow ? { overflow } : {}) };
}
