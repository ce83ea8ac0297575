/**
 * Model servers with a small context window, each kind the way the real one behaves (tests of the
 * context budget, and by hand in tmux):
 *
 * - it reports its window the way that server does (`reportWindow`): llama.cpp `GET /props`
 *   (and counts text with `POST /tokenize`, tokenizeReply),
 *   Ollama `GET /api/ps` + `POST /api/show`, vLLM and OpenRouter in `GET /v1/models`, LM Studio
 *   `GET /api/v0/models/<id>`; `openai` reports nothing (the model id is a well-known one);
 * - it counts each request with its own "tokenizer" (`serverTokens`, deliberately not our
 *   estimate: about 3.3 characters per token), reports that as `usage.prompt_tokens`, and rejects a
 *   request that does not fit with that server's real error body (`overflowError`); Ollama
 *   instead cuts the prompt silently and reports prompt tokens equal to its num_ctx;
 * - summarising requests (aish-tui's compaction) get a short summary.
 *
 * Standalone: `node --import tsx test/helpers/context-servers.ts --kind llama.cpp --window 4096 --port 18090`
 */
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { errorReply, jsonReply, lastUserText, startScriptedBroker, textReply, type ReceivedRequest, type Router, type ScriptedBroker, type ScriptedResponse } from './scripted-broker';

export const SERVER_KINDS = ['llama.cpp', 'ollama', 'vllm', 'lmstudio', 'openrouter', 'openai'] as const;
export type ServerKind = (typeof SERVER_KINDS)[number];

/** The model id each kind is configured with in tests (`openai`: one the known-models table has). */
export const MODEL_IDS: Record<ServerKind, string> = {
  'llama.cpp': 'local-model',
  ollama: 'qwen3:4b',
  vllm: 'Qwen/Qwen3-4B',
  lmstudio: 'qwen3-4b',
  openrouter: 'qwen/qwen3-4b',
  openai: 'gpt-4',
};

/** What a request costs in this server's own counting: not aish-tui's estimate, so calibration has work to do. */
export function serverTokens(request: ReceivedRequest): number {
  const body = request.body ?? {};
  let chars = 0;
  let messages = 0;
  for (const message of body.messages ?? []) {
    messages++;
    chars += typeof message.content === 'string' ? message.content.length : 0;
    if (message.tool_calls) chars += JSON.stringify(message.tool_calls).length;
  }
  if (body.tools) chars += JSON.stringify(body.tools).length;
  return Math.ceil(chars / 3.3) + messages * 5 + 3;
}

/** What one text costs in this server's counting (the same rule as serverTokens, without the per-message cost). */
export function textTokens(text: string): number {
  return Math.ceil(text.length / 3.3);
}

/**
 * llama.cpp's `POST /tokenize`: `{"content": "…", "add_special"?, "with_pieces"?}` →
 * `{"tokens": [ids…]}` (with pieces: `[{"id": n, "piece": "…"}, …]`); a body without `content`
 * is a 400 like the real one. Counted with textTokens, so the counts agree with serverTokens.
 */
export function tokenizeReply(request: ReceivedRequest): ScriptedResponse {
  const body = request.body as unknown as { content?: unknown; with_pieces?: unknown } | undefined;
  if (typeof body?.content !== 'string') return errorReply(400, { error: { code: 400, message: '"content" must be provided', type: 'invalid_request_error' } });
  const content = body.content;
  const count = textTokens(content);
  const size = Math.ceil(content.length / Math.max(1, count));
  const tokens = Array.from({ length: count }, (_, index) => (body.with_pieces === true ? { id: 1000 + index, piece: content.slice(index * size, (index + 1) * size) } : 1000 + index));
  return jsonReply({ tokens });
}

/** What the request asks to keep free for the answer. */
function requested(request: ReceivedRequest): number {
  const value = request.body?.max_tokens;
  return typeof value === 'number' ? value : 0;
}

/** Makes `broker` report a window of `window` tokens the way `kind` does. */
export function reportWindow(broker: ScriptedBroker, kind: ServerKind, window: number, options: { modelId?: string; trained?: number; loaded?: boolean } = {}): void {
  const id = options.modelId ?? MODEL_IDS[kind];
  const trained = options.trained ?? window * 8;
  // Only llama.cpp has /props (the scripted broker answers it by default).
  if (kind !== 'llama.cpp') broker.serve('GET', '/props', errorReply(404, { error: { message: 'not found' } }));
  switch (kind) {
    case 'llama.cpp':
      broker.serve('GET', '/props', jsonReply({ default_generation_settings: { n_ctx: window, params: { n_predict: -1 } }, total_slots: 1, model_path: `/models/${id}.gguf`, build_info: 'b6000' }));
      broker.serve('POST', '/tokenize', tokenizeReply);
      broker.models(jsonReply({ object: 'list', data: [{ id, object: 'model', owned_by: 'llamacpp', meta: { n_ctx_train: trained, n_params: 4_000_000_000 } }] }));
      return;
    case 'ollama':
      broker.serve('GET', '/api/ps', jsonReply({ models: options.loaded === false ? [] : [{ name: id, model: id, size: 1, digest: 'x', details: { family: 'qwen3' }, expires_at: '2099-01-01T00:00:00Z', size_vram: 1, context_length: window }] }));
      broker.serve('POST', '/api/show', jsonReply({ parameters: 'stop "<|im_end|>"\ntemperature 0.6', model_info: { 'general.architecture': 'qwen3', 'qwen3.context_length': trained } }));
      broker.models([id]);
      return;
    case 'vllm':
      broker.models(jsonReply({ object: 'list', data: [{ id, object: 'model', owned_by: 'vllm', root: id, max_model_len: window }] }));
      return;
    case 'lmstudio':
      broker.serve('GET', `/api/v0/models/${id}`, jsonReply({ id, object: 'model', type: 'llm', publisher: 'qwen', arch: 'qwen3', state: options.loaded === false ? 'not-loaded' : 'loaded', max_context_length: trained, ...(options.loaded === false ? {} : { loaded_context_length: window }) }));
      broker.models([id]);
      return;
    case 'openrouter':
      broker.models(jsonReply({ data: [{ id, name: 'Qwen3 4B', context_length: window, top_provider: { context_length: window, max_completion_tokens: 1024 } }] }));
      return;
    case 'openai':
      broker.models([id]);
      return;
  }
}

/** The error body `kind` answers a request of `prompt` tokens with, in a window of `window`. */
export function overflowError(kind: ServerKind, window: number, prompt: number, completion = 0): ScriptedResponse {
  const openAiSentence = `This model's maximum context length is ${window} tokens. However, your messages resulted in ${prompt} tokens. Please reduce the length of the messages.`;
  switch (kind) {
    case 'llama.cpp':
      return errorReply(400, { error: { code: 400, message: `request (${prompt} tokens) exceeds the available context size (${window} tokens), try increasing it`, type: 'exceed_context_size_error', n_prompt_tokens: prompt, n_ctx: window } });
    case 'openai':
      return errorReply(400, { error: { message: openAiSentence, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } });
    case 'vllm':
      return errorReply(400, {
        object: 'error',
        message: `This model's maximum context length is ${window} tokens. However, you requested ${prompt + completion} tokens (${prompt} in the messages, ${completion} in the completion). Please reduce the length of the messages or completion.`,
        type: 'BadRequestError',
        param: null,
        code: 400,
      });
    case 'lmstudio':
      return errorReply(400, { error: `Trying to keep the first ${prompt} tokens when context the overflows. However, the model is loaded with context length of only ${window} tokens, which is not enough. Try to load the model with a larger context length, or provide a shorter input` });
    case 'openrouter':
      return errorReply(400, {
        error: { message: 'Provider returned error', code: 400, metadata: { raw: JSON.stringify({ error: { message: openAiSentence, type: 'Bad Request', code: 400 } }), provider_name: 'Nvidia', is_byok: false } },
        user_id: 'user_x',
      });
    case 'ollama':
      throw new Error('Ollama does not reject long prompts: it cuts them (see windowedRouter)');
  }
}

export const SUMMARY_MARK = 'SUMMARY-OF-EARLIER-TURNS';

/** A request aish-tui sends to compact the conversation. */
export function isCompactionRequest(request: ReceivedRequest): boolean {
  const system = request.body?.messages?.[0];
  return system?.role === 'system' && typeof system.content === 'string' && system.content.startsWith('You condense a conversation');
}

export interface WindowedRouterOptions {
  /** The answer to an ordinary request (default: a paragraph that repeats the question). */
  answer?: (request: ReceivedRequest) => string;
  /** Completion tokens reported for every answer. */
  completionTokens?: number;
}

/** Default answer: long enough that a conversation fills a small window in a few turns. */
export function longAnswer(request: ReceivedRequest): string {
  const question = lastUserText(request).replace(/\s+/g, ' ').slice(0, 80);
  const sentence = `About "${question}": this is a deliberately long answer so that a small context window fills up after a few turns. `;
  return sentence.repeat(6).trim();
}

/**
 * Answers like a server with `window` tokens: oversize requests get `kind`'s error (Ollama: a
 * normal answer with prompt tokens cut to the window), compaction requests a summary, others
 * `answer`, each with usage counted by `serverTokens`.
 */
export function windowedRouter(kind: ServerKind, window: number, options: WindowedRouterOptions = {}): Router {
  const completion = options.completionTokens ?? 60;
  return (request) => {
    const prompt = serverTokens(request);
    const fits = prompt + requested(request) <= window;
    if (!fits && kind !== 'ollama') return overflowError(kind, window, prompt, requested(request));
    const usage = { prompt_tokens: fits ? prompt : window, completion_tokens: completion };
    if (isCompactionRequest(request)) return textReply(`${SUMMARY_MARK}: the user asked several questions about the topic; each was answered at length. Next: keep answering.`, { usage });
    return textReply((options.answer ?? longAnswer)(request), { usage });
  };
}

/** A started server of `kind` with `window` tokens, reporting it and enforcing it. */
export async function startContextServer(kind: ServerKind, window: number, options: WindowedRouterOptions & { port?: number; loaded?: boolean } = {}): Promise<ScriptedBroker> {
  const broker = await startScriptedBroker(options.port !== undefined ? { port: options.port } : {});
  reportWindow(broker, kind, window, options.loaded !== undefined ? { loaded: options.loaded } : {});
  broker.route(windowedRouter(kind, window, options));
  return broker;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { kind: { type: 'string', default: 'llama.cpp' }, window: { type: 'string', default: '4096' }, port: { type: 'string', default: '18090' } } });
  const kind = values.kind as ServerKind;
  if (!SERVER_KINDS.includes(kind)) throw new Error(`--kind: one of ${SERVER_KINDS.join(', ')}`);
  const broker = await startContextServer(kind, Number(values.window), { port: Number(values.port) });
  broker.route(undefined);
  const router = windowedRouter(kind, Number(values.window));
  broker.route((request) => {
    const response = router(request);
    process.stderr.write(`#${request.index} ${serverTokens(request)} tokens${isCompactionRequest(request) ? ' (compaction)' : ''} -> ${response?.kind === 'body' ? response.status : 200}\n`);
    return response;
  });
  process.stdout.write(`${kind} server with a ${values.window}-token window on ${broker.url} (model ${MODEL_IDS[kind]})\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`context server: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
