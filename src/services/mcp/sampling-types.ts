// A server's sampling requests (`sampling/createMessage`) as the app sees them (services/mcp/sampling.ts,
// runtime/sampling.ts). Raw, unsanitized texts: whoever shows them sanitizes at display time.

/** One part of a sampling message. Binary parts keep their data for the model; the UI shows only type and size. */
export type SamplingPart =
  | { type: 'text'; text: string }
  | { type: 'image' | 'audio'; mimeType: string; data: string }
  /** Content this client cannot send to a chat model (tool use/results when tools are not offered). */
  | { type: 'other'; kind: string };

export interface SamplingMessageView {
  role: 'user' | 'assistant';
  content: SamplingPart[];
}

/** A server's `sampling/createMessage` request, as the person approving it and the model see it. */
export interface SamplingRequest {
  /** Unique per request (frames and answers are bound to it). */
  id: string;
  alias: string;
  systemPrompt?: string;
  messages: SamplingMessageView[];
  maxTokens: number;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: { hints?: string[]; costPriority?: number; speedPriority?: number; intelligencePriority?: number };
  includeContext?: 'none' | 'thisServer' | 'allServers';
}

/** What goes back to the server: the model's text, which model wrote it, and why it stopped. */
export interface SamplingResult {
  model: string;
  text: string;
  stopReason?: string;
}

/**
 * How a sampling request ends. `deny` becomes a JSON-RPC error for the server: code -1 when the
 * person (or a rule acting for them) refused, as the spec asks; another code for failures.
 */
export type SamplingOutcome = { action: 'result'; result: SamplingResult } | { action: 'deny'; reason: string; code?: number };

/** Answers a server's sampling request; `signal` aborts when the server cancels it or goes away. */
export type SamplingHandler = (request: SamplingRequest, signal: AbortSignal) => Promise<SamplingOutcome>;
