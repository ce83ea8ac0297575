// The runtime: what every conversation front end (the TUI's session, `-p`) is wired from, built
// once here: config -> MCP manager -> pinned definitions and approval policy -> redactor -> session
// log -> conversation loop. It holds no UI and no store; the front ends decide what to show and
// whom to ask. A change to how a tool call is decided, which tools the model sees or what the log
// keeps is made here (or in the piece named below), never twice.
//
// - MCP manager: mcp.ts (lazy: the TUI draws its first frame before the MCP client loads)
// - policy and pins: tool-policy.ts
// - session file: session-log.ts, with the secrets of the config and environment redacted
// - conversation: `converse` runs the loop with the runtime's tools, policy and limits
import path from 'node:path';
import type { StreamChat } from '../services/broker/types';
import type { AppConfig } from '../services/config/load';
import { createCalibration, createFileWindowStore, createServerTokens, createWindowCache, type ContextWindow } from '../services/context/index';
import { compactHistory, measureHistory, runConversation, type ContextDeps, type ConversationInput } from '../services/conversation/index';
import type { StartingServers } from '../services/conversation/server-wait';
import type { ContextSnapshot, ConversationEvent, Message } from '../services/conversation/types';
import { collectSecrets, createRedactor, createResultKeeper, sessionsDir, type Redactor } from '../services/history/index';
import { withInstructions, type ElicitationHandler, type McpManagerService } from '../services/mcp/index';
import type { ApprovalPolicy, DefinitionPins } from '../services/tools/policy';
import type { PinStore } from '../services/tools/pins';
import type { ToolIndex } from '../services/tools/names';
import type { ModelConfig } from '../services/broker/types';
import { createMcpFor, startedServers, toolIndexFor } from './mcp';
import { createSessionLogger, type ResumeChoice, type SessionLogger } from './session-log';
import { argumentGuardFor, createToolPolicy, prepareWhenToolsReady, type HeadlessRules, type Report } from './tool-policy';
import type { PathGuard } from '../services/tools/argument-guard';
import { createInstructionGate, type InstructionGate, type InstructionState } from './instructions';
import { createMemoryPinStore } from '../services/tools/pins';
import { createSampler, type SamplingPrompter } from './sampling';
import { createToolBudget, type ToolBudget } from './tool-budget';
import type { SwitchStore } from '../services/tools/switches';

// The broker client loads on first use (or earlier, when a front end preloads it), so start-up
// reads only what the first frame draws.
const loadBroker = () => import('../services/broker/index');

const lazyStreamChat: StreamChat = async function* (request) {
  const { streamChat } = await loadBroker();
  yield* streamChat(request);
};

export interface RuntimeOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Notes for the person: pins that cannot be saved, changed or accepted tool definitions. */
  report: Report;
  /** `-p`: nobody to ask (see tool-policy.ts). */
  headless?: HeadlessRules;
  /**
   * The front end starts every configured server as it opens (the TUI's session): a message sent
   * before they are connected waits a moment for them (conversation/server-wait.ts).
   */
  startsServers?: boolean;
  /**
   * The front end shows an answer's text at most once per this many ms (the TUI's frame time): the
   * broker reads text no more often (BrokerRequest.textPaceMs). Unset (`-p`): as it arrives.
   */
  textPaceMs?: number;
  /** May a server's sign-in open a browser and wait? Default yes (see mcp.ts). */
  interactive?: boolean;
  /** Who answers a server's elicitation (see mcp.ts). */
  elicit?: ElicitationHandler;
  /** Told when a server's instructions are sent, switched off or held back as changed (the TUI's details view). */
  onInstructions?: (alias: string, state: InstructionState | undefined) => void;
  /**
   * Servers' sampling requests (sampling.ts): who asks the person (the TUI), or `unattended`
   * (`-p --allow-sampling`); `currentModel` is the model in use (default: the config's).
   */
  sampling?: { prompter?: SamplingPrompter; unattended?: boolean; currentModel?: () => string };
  /** Replaceable in tests: the broker client, the MCP manager, the pinned definitions. */
  streamChat?: StreamChat;
  mcp?: McpManagerService;
  definitions?: DefinitionPins;
  pins?: PinStore;
  /** Where the runtime tool switches are kept; default `<stateDir>/tool-switches.json` for `cwd`. */
  switches?: SwitchStore;
}

/** One message through the loop: what the front end decides (who approves, which model, the signal). */
export type TurnInput = Omit<ConversationInput, 'deps'>;

export interface Runtime {
  readonly config: AppConfig;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly mcp: McpManagerService;
  readonly policy: ApprovalPolicy;
  /** Which servers' instructions reach the system prompt (instructions.ts). */
  readonly instructions: InstructionGate;
  /** Tool switches, tool search and tool costs. */
  readonly tools: ToolBudget;
  /** The argument guard's path check (mcp.argumentGuard), for `@file` attachments. */
  readonly pathGuard: PathGuard;
  /** The conversation loop with the runtime's broker, servers, tool index, policy and limits. */
  converse(input: TurnInput): AsyncGenerator<ConversationEvent, void, undefined>;
  /**
   * The context window of a configured model as known now (config, or what its server said), or
   * undefined before the server was asked. The one place the window is read outside the store.
   */
  contextWindow(modelName: string): ContextWindow | undefined;
  /** Asks the model's server for its window in the background (never throws; unknown on failure). */
  discoverWindow(modelName: string, options?: { refresh?: boolean; signal?: AbortSignal }): Promise<ContextWindow | undefined>;
  /** Hears every window that becomes known, by model name. */
  onWindow(listener: (modelName: string, window: ContextWindow) => void): () => void;
  /** The context `history` takes for `modelName` now (estimated, calibrated). */
  measureContext(modelName: string, history: readonly Message[]): ContextSnapshot | undefined;
  /** `:compact [focus]`: summarises the history; the compaction record arrives as a `message` event. */
  compact(input: { modelName: string; history: readonly Message[]; focus?: string; signal: AbortSignal }): AsyncGenerator<ConversationEvent, void, undefined>;
  /** Opens the session file (`choice`: new, --continue, --resume); throws when the id does not exist. */
  sessionLog(choice: ResumeChoice, options: { model: () => string; onError: (message: string) => void }): SessionLogger;
  /** The redactor of the session log, for anything else written out (`:export`). */
  redactor(): Redactor;
  /** Loads the broker client now, so the first message does not wait for it. */
  preloadBroker(): void;
  /** Stops following the servers' tool lists and closes the servers. */
  close(): Promise<void>;
}

/** Throws (an Error naming the pattern) when a rule pattern in the config or `headless.allow` is malformed. */
export function createRuntime(config: AppConfig, options: RuntimeOptions): Runtime {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const streamChat = options.streamChat ?? lazyStreamChat;
  let secrets: string[] | undefined;
  const sampling = createSampler({
    config,
    streamChat,
    env,
    currentModel: options.sampling?.currentModel ?? (() => config.defaultModel),
    ...(options.sampling?.prompter ? { prompter: options.sampling.prompter } : {}),
    ...(options.sampling?.unattended ? { unattended: true } : {}),
    report: options.report,
  });
  const mcp =
    options.mcp ??
    createMcpFor(config, env, { cwd, ...(options.interactive !== undefined ? { interactive: options.interactive } : {}), ...(options.elicit ? { elicit: options.elicit } : {}), sampling });
  const { policy, stop, pins: trackedPins } = createToolPolicy(config, mcp, {
    report: options.report,
    env,
    cwd,
    secrets: () => (secrets ??= collectSecrets(config, env)),
    ...(options.headless ? { headless: options.headless } : {}),
    ...(options.definitions ? { definitions: options.definitions } : {}),
    ...(options.pins ? { pins: options.pins } : {}),
  });
  const stopPreparing = prepareWhenToolsReady(mcp, policy);
  // One pin store for tool definitions and server instructions (one file, one writer); with
  // test-supplied definitions, instructions are pinned in memory.
  const pins = trackedPins ?? options.pins ?? createMemoryPinStore();
  const instructions = createInstructionGate(config, mcp, pins, {
    report: options.report,
    ...(options.headless ? { acceptChanges: options.headless.acceptChangedTools } : {}),
    ...(options.onInstructions ? { onState: options.onInstructions } : {}),
  });
  // The secrets are collected when the first session opens: `--base-url` without `--model` names
  // its model only once the server has been asked.
  let redact: Redactor | undefined;
  /** Problems already reported this run (a broken tool list is said once, not per turn). */
  const reportedProblems = new Set<string>();
  // The context budget: windows asked of the servers (in the background), the calibrated estimate.
  const windows = createWindowCache({
    env,
    timeoutMs: config.context.windowTimeoutMs,
    store: createFileWindowStore(path.join(config.paths.stateDir, 'context-windows.json'), (message) => options.report('warn', message)),
    maxAgeMs: config.context.windowMaxAgeHours * 3_600_000,
  });
  const calibration = createCalibration();
  const serverTokens = createServerTokens({ env });
  const context: ContextDeps = {
    window: (model) => {
      const known = windows.get(model);
      if (known) return known;
      void windows.discover(model);
      return { source: 'unknown: still asking the server' };
    },
    learn: (model, tokens) => windows.learn(model, tokens),
    answered: (model, promptTokens) => windows.counted(model, promptTokens),
    calibration,
    // llama.cpp counts with the model's own tokenizer (/tokenize); every other server is estimated.
    serverTokens: (model) =>
      windows.get(model)?.server === 'llama.cpp' ? { cached: (text) => serverTokens.cached(model, text), count: (texts, signal) => serverTokens.count(model, texts, signal) } : undefined,
  };
  const contextOptions = () => ({ systemPrompt: withInstructions(config.systemPrompt, instructions.section(mcp.servers())), useToolRole: config.context.useToolRole, maxToolResultChars: config.context.maxToolResultChars });
  const budget = () => ({ autoCompactAt: config.context.autoCompactAt, keepTurns: config.context.keepTurns });
  const secretsRedactor = (): Redactor => (redact ??= createRedactor((secrets ??= collectSecrets(config, env))));
  const keepResult = createResultKeeper({ dir: sessionsDir(config), maxBytes: config.limits.maxResultBytes, save: config.history.enabled, redact: secretsRedactor });
  /** The tools the next request of `model` sends (every enabled one, or tool_search and what it found). */
  const requestIndex = (model: ModelConfig, history: readonly Message[]): ToolIndex => {
    const index = toolIndexFor(config, mcp.servers());
    const offered = tools.gate(model).offer(index, history).specs;
    return offered === index.specs ? index : { ...index, specs: offered };
  };
  const tools = createToolBudget(config, cwd, { ...(options.switches ? { store: options.switches } : {}), report: (message) => options.report('warn', message), window: (model) => windows.get(model)?.tokens });

  // What the TUI's messages wait for while the servers start (conversation/server-wait.ts).
  const startingServers: StartingServers | undefined = options.startsServers ? { expected: () => startedServers(config), servers: () => mcp.servers(), gaveUp: new Set() } : undefined;
  return {
    config,
    env,
    cwd,
    mcp,
    policy,
    instructions,
    tools,
    pathGuard: argumentGuardFor(config, env, cwd).path,
    converse: (input) =>
      runConversation({
        ...input,
        deps: {
          streamChat,
          mcp,
          buildToolIndex: (servers) => toolIndexFor(config, servers),
          serverInstructions: () => instructions.section(mcp.servers()),
          policy,
          config,
          tools: tools.gate(input.model),
          reportedProblems,
          context,
          keepResult,
          cwd,
          env,
          // The TUI's messages wait a moment for servers still starting; `-p` waits for every server before its message (cli/headless.ts).
          ...(startingServers ? { startingServers } : {}),
          ...(options.textPaceMs ? { textPaceMs: options.textPaceMs } : {}),
        },
      }),
    contextWindow(modelName) {
      const model = config.models[modelName];
      return model ? windows.get(model) : undefined;
    },
    async discoverWindow(modelName, discoverOptions) {
      const model = config.models[modelName];
      return model ? windows.discover(model, discoverOptions) : undefined;
    },
    onWindow(listener) {
      return windows.subscribe((model, window) => listener(model.name, window));
    },
    measureContext(modelName, history) {
      const model = config.models[modelName];
      if (!model) return undefined;
      try {
        return measureHistory({ history, model, index: requestIndex(model, history), context, options: contextOptions(), budget: budget() });
      } catch {
        // A history that cannot be sent as it is has no size to show.
        return undefined;
      }
    },
    async *compact(input) {
      const model = config.models[input.modelName];
      if (!model) return;
      const history = [...input.history];
      const index = requestIndex(model, history);
      const before = measureHistory({ history, model, index, context, options: contextOptions(), budget: budget() });
      yield* compactHistory({
        history,
        append: (message) => ({ type: 'message', message }),
        model,
        index,
        context,
        options: contextOptions(),
        budget: budget(),
        trigger: 'user',
        ...(input.focus ? { focus: input.focus } : {}),
        tokensBefore: before.used,
        window: context.window(model),
        summarise: {
          streamChat,
          signal: input.signal,
          timeouts: { firstByteMs: config.broker.firstByteTimeoutMs, idleMs: config.broker.idleTimeoutMs },
          maxRetries: config.broker.maxRetries,
          env,
        },
      });
    },
    sessionLog(choice, logOptions) {
      return createSessionLogger({ config, redact: secretsRedactor(), cwd, ...logOptions }, choice);
    },
    redactor: secretsRedactor,
    preloadBroker() {
      if (!options.streamChat) void loadBroker();
    },
    async close() {
      stop();
      stopPreparing();
      instructions.stop();
      await mcp.close();
    },
  };
}
