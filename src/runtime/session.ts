// The session behind the TUI: connects what the user types to the services and the store.
//
// - MCP: one manager; its events go to the store (sidebar), configured servers start in the
//   background after the first frame.
// - Each message runs the conversation loop; its events reach the store batched per frame
//   (ui.maxFps), approvals and proposed commands go through the store's frames.
// - Each job (a message or a `!command`) runs as a turn (turns.ts).
// - Every message is logged to the session file as it happens and flushed at the end of a turn.
// - `:commands` (commands.ts), `!shell commands`, cancel, quit.
import type { StreamChat } from '../services/broker/types';
import type { AppConfig } from '../services/config/load';
import { createEventBatcher } from '../services/conversation/batcher';
import type { Message } from '../services/conversation/types';
import { collectSecrets, createRedactor, openHistory, sessionsDir, type OpenedHistory } from '../services/history/index';
import { McpInputError, type McpManagerService } from '../services/mcp/index';
import { changeNotice, createFilePinStore, pinsFile, trackDefinitions, type PinStore } from '../services/tools/pins';
import { createApprovalPolicy, type DefinitionPins } from '../services/tools/policy';
import type { AppStore } from '../state/store';
import { VERSION } from '../version';
import { runMetaCommand, type CommandHost } from './commands';
import type { AppController } from './controller';
import { lazyMcpManager } from './lazyMcp';
import { showOpenedHistory, takeBack } from './sessionHistory';
import { runChatTurn, runShellTurn, type TurnContext } from './turns';

// The broker client and the MCP manager are loaded after the first frame (see createSession), so
// start-up reads only what the first frame draws.
const loadBroker = () => import('../services/broker/index');

/** The broker client, loaded on first use (or earlier, when the session preloads it). */
const lazyStreamChat: StreamChat = async function* (request) {
  const { streamChat } = await loadBroker();
  yield* streamChat(request);
};

export interface SessionOptions {
  config: AppConfig;
  store: AppStore;
  quit: () => void;
  /** `--continue` / `--resume <id>` from the command line. */
  args?: { continueLast?: boolean; resume?: string };
  /** The key table shown under `:help` (the TUI's keymap; absent in front ends without keys). */
  keyHelp?: () => string[];
  /** Replaceable in tests: the broker client and the MCP manager. */
  streamChat?: StreamChat;
  mcp?: McpManagerService;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /**
   * Pinned tool definitions (tools/pins.ts seen through the policy's DefinitionPins): a tool whose
   * definition changed since it was approved loses its "always" rules and is asked again.
   * Default: the pin store in `<stateDir>/pins.json` (or `pins`) tracking the live servers.
   */
  definitions?: DefinitionPins;
  pins?: PinStore;
}

export interface Session extends AppController {
  reconnectServer(alias: string): void;
  disconnectServer(alias: string): void;
  connectServer(url: string, alias?: string): void;
  switchModel(name: string): void;
  /** Resolves once nothing is running or queued. */
  idle(): Promise<void>;
  /** Stops everything and closes the MCP servers and the session file. */
  close(): Promise<void>;
}

type Job = { kind: 'chat'; text: string } | { kind: 'shell'; command: string };

export function createSession(options: SessionOptions): Session {
  const { config, store } = options;
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const streamChat = options.streamChat ?? lazyStreamChat;
  const mcp =
    options.mcp ??
    lazyMcpManager(async () => {
      const { createMcpManager, mcpOptionsFromConfig } = await import('../services/mcp/client');
      return createMcpManager(mcpOptionsFromConfig(config, VERSION, env));
    });
  const redact = createRedactor(collectSecrets(config, env));
  const dir = sessionsDir(config);
  const reportedProblems = new Set<string>();
  const status = (level: 'info' | 'warn' | 'error', text: string) => store.getState().addStatus(level, text);
  // Every tool list a server reports is pinned on first sight and compared with its pin after.
  const pinTracking = options.definitions
    ? undefined
    : trackDefinitions(options.pins ?? createFilePinStore(pinsFile(config.paths.stateDir), (message) => status('warn', message)), mcp, {
        onChange: (alias, tool, change) => status('warn', changeNotice(alias, tool, change)),
      });
  const definitions = options.definitions ?? pinTracking?.definitions;
  const policy = createApprovalPolicy({ autoApprove: config.mcp.autoApprove, ...(definitions ? { definitions } : {}) });
  let modelName = config.defaultModel;
  let closed = false;

  const open = (resume: { continueLast?: boolean; resume?: string }): OpenedHistory =>
    openHistory({
      dir,
      enabled: config.history.enabled,
      ...resume,
      redact,
      cwd,
      model: modelName,
      onError: (message) => status('error', message),
    });

  // Messages taken back (no answer) are marked withdrawn in the log only when the next message is
  // written: until then the file still says the question is unanswered, so quitting (or a signal)
  // before sending anything loses nothing, and the next resume puts it back in the input again.
  let pendingWithdrawals: string[] = [];
  const showHistory = (opened: OpenedHistory) => {
    pendingWithdrawals = showOpenedHistory(opened, store, status);
  };

  store.getState().setModelName(modelName);
  let history = open({ continueLast: options.args?.continueLast ?? false, ...(options.args?.resume !== undefined ? { resume: options.args.resume } : {}) });
  showHistory(history);

  const unsubscribe = mcp.subscribe((event) => {
    store.getState().applyMcpEvent(event);
    if (event.type === 'status') status(event.level, event.message);
  });
  // The first frame never waits for servers: they start once the UI is up, and the broker client
  // loads meanwhile so the first message does not wait for it either.
  const startTimer = setTimeout(() => {
    if (closed) return;
    mcp.connectAll(config.mcp.servers);
    if (!options.streamChat) void loadBroker();
  }, 0);

  let current: AbortController | undefined;
  const queue: Job[] = [];
  /** Messages Esc took out of the queue: back into the input once the running one has ended. */
  let cancelledQueue: Job[] = [];
  const typed = (job: Job) => (job.kind === 'chat' ? job.text : `!${job.command}`);
  const takeBackCancelled = (unanswered?: { id: string; text: string; reason: 'cancelled' | 'error' }) => {
    const jobs = cancelledQueue.splice(0);
    const queuedCommand = !unanswered && jobs.length === 1 && jobs[0]!.kind === 'shell';
    takeBack({ ...(unanswered ? { unanswered } : {}), queued: jobs.map(typed), queuedCommand }, store, status);
  };
  let draining: Promise<void> | undefined;

  const batcher = createEventBatcher((events) => store.getState().applyConversationEvents(events), config.ui.maxFps);

  /** Keeps what a turn appends: in the store (via the event) and in the session file. */
  const record = (message: Message) => {
    for (const id of pendingWithdrawals.splice(0)) history.log?.withdraw(id);
    history.log?.append(message);
    if (message.role === 'user') {
      // The transcript shows the user's message before anything of the answer.
      batcher.flush();
      store.getState().addUserItem(message.id, message.content);
    }
  };

  const turns: TurnContext = {
    config,
    store,
    batcher,
    record,
    streamChat,
    mcp,
    policy,
    reportedProblems,
    cwd,
    env,
    modelName: () => modelName,
    status,
    withdraw(id, text, reason) {
      // Cancelled because the app is closing (a signal, quit): the question stays as it is.
      if (closed) return;
      batcher.flush();
      takeBackCancelled({ id, text, reason });
      pendingWithdrawals.push(id);
    },
  };

  async function drain(): Promise<void> {
    while (queue.length > 0 && !closed) {
      const job = queue.shift()!;
      const controller = new AbortController();
      current = controller;
      try {
        if (job.kind === 'chat') await runChatTurn(turns, job.text, controller.signal);
        else await runShellTurn(turns, job.command, controller.signal);
      } catch (error) {
        // The loop reports failures as events; anything thrown is a bug, shown rather than lost.
        batcher.push({ type: 'error', message: `internal error: ${(error as Error).message}` });
        batcher.push({ type: 'done', finishReason: 'error' });
      } finally {
        batcher.flush();
        history.log?.flush();
        current = undefined;
        // The running message was answered (in part): the queued ones come back on their own.
        if (cancelledQueue.length > 0 && !closed) takeBackCancelled();
      }
    }
  }

  function enqueue(job: Job) {
    if (closed) return;
    queue.push(job);
    if (draining) {
      status('info', `queued: runs when the current answer ends (${queue.length} waiting)`);
      return;
    }
    draining = drain().finally(() => {
      draining = undefined;
    });
  }

  const host: CommandHost = {
    store,
    config,
    mcp: mcp as McpManagerService,
    env,
    sessionsDir: dir,
    currentSessionId: () => history.log?.id,
    modelName: () => modelName,
    switchModel: (name) => session.switchModel(name),
    isBusy: () => current !== undefined,
    quit: () => session.quit(),
    ...(options.keyHelp ? { keyHelp: options.keyHelp } : {}),
    clearConversation() {
      history.log?.close();
      store.getState().clearChat();
      pendingWithdrawals = [];
      history = open({});
      status('info', 'cleared; a new session starts with your next message');
    },
    resumeSession(id) {
      let opened: OpenedHistory;
      try {
        opened = open({ resume: id });
      } catch (error) {
        status('error', (error as Error).message.replace(/^--resume: /, ''));
        return;
      }
      history.log?.close();
      store.getState().clearChat();
      history = opened;
      showHistory(opened);
    },
  };

  const report = (promise: Promise<unknown>, what: string) =>
    promise.catch((error: unknown) => status('error', error instanceof McpInputError ? error.message : `${what}: ${(error as Error).message}`));

  const session: Session = {
    submit(text: string, submitOptions?: { literal?: boolean }) {
      const trimmed = text.trim();
      if (trimmed.length === 0 || closed) return;
      if (!submitOptions?.literal && trimmed.startsWith(':')) {
        void runMetaCommand(trimmed, host);
        return;
      }
      if (!submitOptions?.literal && trimmed.startsWith('!')) {
        const command = trimmed.slice(1).trim();
        if (command.length === 0) status('info', 'type a shell command after ! (e.g. !ls -la)');
        else enqueue({ kind: 'shell', command });
        return;
      }
      enqueue({ kind: 'chat', text });
    },
    cancel() {
      if (!current) return false;
      cancelledQueue.push(...queue.splice(0));
      current.abort();
      store.getState().cancelPending();
      return true;
    },
    quit() {
      void session.close();
      options.quit();
    },
    reconnectServer(alias) {
      void report(mcp.reconnect(alias), `mcp ${alias}`);
    },
    disconnectServer(alias) {
      void report(mcp.disconnect(alias), `mcp ${alias}`);
    },
    connectServer(url, alias) {
      void report(
        mcp.connectUrl(url, alias).then((snapshot) => {
          // A failure is reported by the server's own status event; waiting for authorization is not.
          if (snapshot.state === 'needs-auth') status('warn', `mcp ${snapshot.alias}: ${snapshot.state}${snapshot.error ? `: ${snapshot.error}` : ''}`);
        }),
        'mcp connect',
      );
    },
    switchModel(name) {
      if (!config.models[name]) {
        status('error', `no model named ${JSON.stringify(name)}`);
        return;
      }
      modelName = name;
      store.getState().setModelName(name);
    },
    async idle() {
      while (draining) await draining;
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(startTimer);
      queue.splice(0);
      current?.abort();
      store.getState().cancelPending();
      await draining?.catch(() => {});
      batcher.dispose();
      history.log?.close();
      unsubscribe();
      pinTracking?.stop();
      await mcp.close();
    },
  };
  return session;
}
