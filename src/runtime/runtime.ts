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
import type { StreamChat } from '../services/broker/types';
import type { AppConfig } from '../services/config/load';
import { runConversation, type ConversationInput } from '../services/conversation/index';
import type { ConversationEvent } from '../services/conversation/types';
import { collectSecrets, createRedactor, type Redactor } from '../services/history/index';
import type { McpManagerService } from '../services/mcp/index';
import type { ApprovalPolicy, DefinitionPins } from '../services/tools/policy';
import type { PinStore } from '../services/tools/pins';
import { createMcpFor, toolIndexFor } from './mcp';
import { createSessionLogger, type ResumeChoice, type SessionLogger } from './session-log';
import { createToolPolicy, type HeadlessRules, type Report } from './tool-policy';

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
  /** May a server's sign-in open a browser and wait? Default yes (see mcp.ts). */
  interactive?: boolean;
  /** Replaceable in tests: the broker client, the MCP manager, the pinned definitions. */
  streamChat?: StreamChat;
  mcp?: McpManagerService;
  definitions?: DefinitionPins;
  pins?: PinStore;
}

/** One message through the loop: what the front end decides (who approves, which model, the signal). */
export type TurnInput = Omit<ConversationInput, 'deps'>;

export interface Runtime {
  readonly config: AppConfig;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
  readonly mcp: McpManagerService;
  readonly policy: ApprovalPolicy;
  /** The conversation loop with the runtime's broker, servers, tool index, policy and limits. */
  converse(input: TurnInput): AsyncGenerator<ConversationEvent, void, undefined>;
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
  const mcp = options.mcp ?? createMcpFor(config, env, options.interactive !== undefined ? { interactive: options.interactive } : {});
  const { policy, stop } = createToolPolicy(config, mcp, {
    report: options.report,
    ...(options.headless ? { headless: options.headless } : {}),
    ...(options.definitions ? { definitions: options.definitions } : {}),
    ...(options.pins ? { pins: options.pins } : {}),
  });
  // The secrets are collected when the first session opens: `--base-url` without `--model` names
  // its model only once the server has been asked.
  let redact: Redactor | undefined;
  const redactor = (): Redactor => (redact ??= createRedactor(collectSecrets(config, env)));
  /** Problems already reported this run (a broken tool list is said once, not per turn). */
  const reportedProblems = new Set<string>();

  return {
    config,
    env,
    cwd,
    mcp,
    policy,
    converse: (input) =>
      runConversation({
        ...input,
        deps: { streamChat, mcp, buildToolIndex: (servers) => toolIndexFor(config, servers), policy, config, reportedProblems, cwd, env },
      }),
    sessionLog(choice, logOptions) {
      return createSessionLogger({ config, redact: redactor(), cwd, ...logOptions }, choice);
    },
    redactor,
    preloadBroker() {
      if (!options.streamChat) void loadBroker();
    },
    async close() {
      stop();
      await mcp.close();
    },
  };
}
