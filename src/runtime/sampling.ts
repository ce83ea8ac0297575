// Answering servers' sampling requests with the user's own model (README "Sampling"): the limits
// of the server (sampling-messages.ts `samplingLimits`), then the person approves or edits the
// request (the TUI's frame; `-p` only with --allow-sampling, saying on stderr what was sampled),
// the model's answer streams, and the person approves or edits the answer before it goes back.
// Every refusal goes back to the server as the spec's "user rejected" error (-1); a model that
// fails is an internal error.
import type { StreamChat } from '../services/broker/types';
import type { AppConfig } from '../services/config/load';
import type { SamplingHandler, SamplingOutcome, SamplingRequest, SamplingResult } from '../services/mcp/index';
import { parseEditedRequest, RateWindow, samplingLimits, samplingWireMessages } from './sampling-messages';

/** The spec's code for a sampling request the user (or a rule acting for them) refused. */
const USER_REJECTED = -1;
const INTERNAL_ERROR = -32603;

export type RequestReview = { action: 'approve' } | { action: 'edit'; text: string } | { action: 'deny'; reason?: string };
export type ResultReview = { action: 'approve'; text?: string } | { action: 'deny'; reason?: string };

/** Who shows a sampling request to the person (the TUI's store and frame). */
export interface SamplingPrompter {
  /** Shows the request (with `problem` after an edit that could not be read); resolves with the person's answer, or deny on abort. */
  reviewRequest(request: SamplingRequest, model: string, signal: AbortSignal, problem?: string): Promise<RequestReview>;
  /** The model starts answering; `cancel` stops it (the person cancelled). */
  generating(id: string, cancel: () => void): void;
  /** The model's answer so far. */
  streaming(id: string, text: string): void;
  /** Shows the finished answer; resolves with the person's answer, or deny on abort. */
  reviewResult(id: string, result: SamplingResult, signal: AbortSignal): Promise<ResultReview>;
  /** The request is over: its frame goes. */
  done(id: string): void;
}

export interface SamplerDeps {
  config: AppConfig;
  streamChat: StreamChat;
  env: NodeJS.ProcessEnv;
  /** The model in use (`:model` may switch it); `mcp.sampling.model` wins. */
  currentModel: () => string;
  /** Someone to ask (the TUI); without one only `unattended` answers. */
  prompter?: SamplingPrompter;
  /** `-p --allow-sampling`: answered without asking, within the limits. */
  unattended?: boolean;
  /** One line for the person: what was sampled when nobody was asked, and why a request was refused. */
  report: (level: 'info' | 'warn' | 'error', text: string) => void;
  now?: () => number;
}

function stopReasonOf(reason: string | undefined): string | undefined {
  if (reason === 'stop') return 'endTurn';
  if (reason === 'length') return 'maxTokens';
  return reason;
}

const deny = (reason: string, code = USER_REJECTED): SamplingOutcome => ({ action: 'deny', reason, code });

export function createSampler(deps: SamplerDeps): SamplingHandler {
  const window = new RateWindow();
  const now = deps.now ?? Date.now;

  const modelFor = () => {
    const name = deps.config.mcp.sampling.model ?? deps.currentModel();
    return deps.config.models[name];
  };

  async function ask(request: SamplingRequest, model: string, signal: AbortSignal, prompter: SamplingPrompter, maxTokens: number): Promise<SamplingRequest | SamplingOutcome> {
    let current = request;
    let problem: string | undefined;
    for (;;) {
      const review = await prompter.reviewRequest(current, model, signal, problem);
      if (review.action === 'approve') return current;
      if (review.action === 'deny') return deny(review.reason ? `the user declined: ${review.reason}` : 'the user declined the sampling request');
      const parsed = parseEditedRequest(review.text, current);
      if ('problem' in parsed) problem = `the edit could not be used: ${parsed.problem}`;
      else {
        problem = parsed.request.maxTokens > maxTokens ? `max tokens lowered to ${maxTokens} (the limit for this server)` : undefined;
        current = { ...parsed.request, maxTokens: Math.min(parsed.request.maxTokens, maxTokens) };
      }
    }
  }

  async function generate(request: SamplingRequest, signal: AbortSignal, onText: (text: string) => void): Promise<SamplingResult | { error: string }> {
    const model = modelFor();
    if (!model) return { error: 'no model is configured' };
    let text = '';
    let error: string | undefined;
    let finish: string | undefined;
    const broker = deps.config.broker;
    for await (const event of deps.streamChat({
      model: { ...model, maxTokens: request.maxTokens, ...(request.temperature !== undefined ? { temperature: Math.min(2, Math.max(0, request.temperature)) } : {}) },
      messages: samplingWireMessages(request),
      ...(request.stopSequences ? { stop: request.stopSequences } : {}),
      signal,
      timeouts: { firstByteMs: broker.firstByteTimeoutMs, idleMs: broker.idleTimeoutMs },
      maxRetries: broker.maxRetries,
      env: deps.env,
    })) {
      if (event.type === 'text-delta') {
        text += event.text;
        onText(text);
      } else if (event.type === 'error') error = event.message;
      else if (event.type === 'finish') finish = event.reason;
    }
    if (signal.aborted) return { error: 'cancelled' };
    if (error) return { error };
    const stopReason = stopReasonOf(finish);
    return { model: model.model, text, ...(stopReason ? { stopReason } : {}) };
  }

  return async (request, signal) => {
    const limits = samplingLimits(deps.config, request.alias);
    const who = `mcp ${request.alias}`;
    const refuse = (reason: string) => {
      deps.report('warn', `${who}: sampling request refused: ${reason}`);
      return deny(reason);
    };
    if (!limits.enabled) return refuse(`sampling is off for this server (mcp.servers.${request.alias}.sampling.enabled)`);
    const prompter = deps.prompter;
    if (!prompter && !deps.unattended) return refuse('nobody is there to approve it (run with --allow-sampling to answer unattended)');
    if (!window.take(request.alias, limits.perMinute, now())) return refuse(`more than ${limits.perMinute} sampling requests in a minute (sampling.perMinute)`);
    const capped = { ...request, maxTokens: Math.min(request.maxTokens, limits.maxTokens) };
    const model = modelFor();
    const modelName = model?.name ?? '(none)';
    // Images go to the model as image_url parts: only to one that reads them (`vision: true`, as for @files).
    if (model && model.vision !== true && request.messages.some((message) => message.content.some((part) => part.type === 'image'))) {
      return refuse(`the request carries an image and ${modelName} is not marked vision: true in the config (models.${modelName}.vision)`);
    }
    const attended = prompter && !limits.autoApprove ? prompter : undefined;
    try {
      let approved = capped;
      if (attended) {
        const asked = await ask(capped, modelName, signal, attended, limits.maxTokens);
        if ('action' in asked) return asked;
        approved = asked;
      } else {
        const context = approved.includeContext && approved.includeContext !== 'none' ? `; it asked for context (${approved.includeContext}): none is included` : '';
        deps.report('info', `${who}: sampling with ${modelName} without asking (${approved.messages.length} message${approved.messages.length === 1 ? '' : 's'}, up to ${approved.maxTokens} tokens${context})`);
      }
      // The person may stop the model (the frame's Cancel); the server may cancel the request.
      const run = new AbortController();
      const stop = () => run.abort();
      signal.addEventListener('abort', stop, { once: true });
      prompter?.generating(request.id, stop);
      const generated = await generate(approved, run.signal, (text) => prompter?.streaming(request.id, text)).finally(() => signal.removeEventListener('abort', stop));
      if ('error' in generated) {
        if (signal.aborted) return deny('cancelled by the server', INTERNAL_ERROR);
        if (run.signal.aborted) return deny('the user cancelled the sampling request');
        deps.report('error', `${who}: sampling failed: ${generated.error}`);
        return deny(`the model failed: ${generated.error}`, INTERNAL_ERROR);
      }
      if (!attended) {
        deps.report('info', `${who}: sampled ${generated.text.length} characters from ${modelName}${generated.stopReason ? ` (${generated.stopReason})` : ''}`);
        return { action: 'result', result: generated };
      }
      const review = await attended.reviewResult(request.id, generated, signal);
      if (review.action === 'deny') return deny(review.reason ? `the user declined the answer: ${review.reason}` : 'the user declined to return the answer');
      return { action: 'result', result: { ...generated, ...(review.text !== undefined ? { text: review.text } : {}) } };
    } finally {
      prompter?.done(request.id);
    }
  };
}
