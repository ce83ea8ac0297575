import type { ResolvedModel } from '../config/load';
import type { ContextOverflow } from '../context/overflow';

/** A model from the registry, as the broker needs it. */
export type ModelConfig = ResolvedModel;

/** A part of a user message with media (servers' sampling requests may carry images or audio). */
export type WireContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: string } };

/** OpenAI chat-completions message shapes as sent on the wire. */
/** Parts of a user message that carries images (OpenAI content parts). */
export type UserContentPart = WireContentPart;

export type WireMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | WireContentPart[] }
  | {
      role: 'assistant';
      content: string | null;
      tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }>;
    }
  | { role: 'tool'; tool_call_id: string; content: string };

/** One tool offered to the model (OpenAI function shape). `name` is the wire name. */
export interface ToolSpec {
  type: 'function';
  function: { name: string; description?: string; parameters: Record<string, unknown> };
}

export interface Usage {
  promptTokens?: number;
  completionTokens?: number;
  totalTokens?: number;
  reasoningTokens?: number;
}

/**
 * `incomplete`: the stream ended without any finish_reason (dropped connection, server crash);
 * the text received so far is kept but the turn is not treated as a clean stop.
 * `cancelled`: the caller aborted.
 */
export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error' | 'incomplete' | 'cancelled' | (string & {});

/** A tool call whose id, name and arguments are complete. `arguments` is the raw string the model sent. */
export interface CompletedToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** `config`: the request could not be made as configured (e.g. the API key variable is unset). */
export type BrokerErrorKind = 'http' | 'network' | 'timeout' | 'stream' | 'protocol' | 'config';

export type BrokerEvent =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call'; call: CompletedToolCall }
  | { type: 'usage'; usage: Usage }
  /** Something the user should see that is not an error, e.g. `HTTP 429, retrying in 3s (1/2)`. */
  | { type: 'status'; message: string }
  /** `overflow`: the server rejected the request because it does not fit the context window (services/context/overflow.ts). */
  | { type: 'error'; kind: BrokerErrorKind; message: string; status?: number; overflow?: ContextOverflow }
  /** Always the last event of a stream, also after an error or an abort. */
  | { type: 'finish'; reason: FinishReason };

export interface BrokerTimeouts {
  /** From sending the request to the first byte of the response body. */
  firstByteMs: number;
  /** Longest silence between two reads once streaming began. */
  idleMs: number;
}

export interface BrokerRequest {
  model: ModelConfig;
  messages: WireMessage[];
  /** Omitted from the request body when empty: some servers reject `"tools": []`. */
  tools?: ToolSpec[];
  /** Stop sequences (`stop`), omitted when empty. */
  stop?: string[];
  signal?: AbortSignal;
  timeouts?: Partial<BrokerTimeouts>;
  maxRetries?: number;
  env?: NodeJS.ProcessEnv;
  /**
   * While the answer is only text, read it at most once per this many ms (the screen's frame time:
   * text shown no more often gains nothing from being read more often). Unset: as it arrives.
   */
  textPaceMs?: number;
}

/** The broker's one entry point; the conversation loop takes it as a dependency so tests can swap servers. */
export type StreamChat = (request: BrokerRequest) => AsyncGenerator<BrokerEvent, void, undefined>;
