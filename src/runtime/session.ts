// The session behind the TUI: the runtime (runtime.ts: MCP manager, policy and pins, session log,
// conversation loop) put together with the store. It only assembles the named pieces:
//
// - MCP events -> store, sidebar actions -> MCP: mcp-bridge.ts; configured servers start in the
//   background after the first frame, and the broker client loads meanwhile;
// - what the user sends waits in the job queue (job-queue.ts) and runs as a turn (turns.ts), its
//   events reaching the store batched per frame (ui.maxFps);
// - the context meter and the sidebar's tool costs follow servers, windows and switches
//   (session-meters.ts);
// - every message is logged to the session file (session-log.ts) as it happens and flushed at the
//   end of a turn;
// - a message that got no answer, and what Esc took out of the queue, go back into the input
//   (take-back.ts);
// - `:commands` (commands.ts), `!shell commands`, cancel, quit.
import { resumeHint } from './resume-hint';
import type { StreamChat } from '../services/broker/types';
import type { AppConfig } from '../services/config/load';
import { createEventBatcher } from '../services/conversation/batcher';
import type { Message } from '../services/conversation/types';
import type { OpenedHistory } from '../services/history/index';
import type { McpManagerService } from '../services/mcp/index';
import type { PinStore } from '../services/tools/pins';
import type { DefinitionPins } from '../services/tools/policy';
import type { AppStore } from '../state/store';
import { runMetaCommand, toggleToolSwitch, type CommandHost } from './commands';
import type { AppController } from './controller';
import { createJobQueue } from './job-queue';
import { bridgeMcpEvents, serverActions } from './mcp-bridge';
import { createRuntime } from './runtime';
import { attachmentLabel } from '../state/slices/chat';
import { resolveAttachments } from './attachments/resolve';
import { createGoingBack } from './going-back';
import { readSlash, unknownSlashHint } from './slash';
import { createTakeBack, showOpenedHistory } from './take-back';
import { createTextOut } from './text-out';
import { runJob, type Job, type TurnContext } from './turns';
import { elicitInStore } from './elicitation';
import { storeSamplingPrompter } from './sampling-prompter';
import { createTaskResults } from './task-results';
import { watchMeters } from './session-meters';
import { randomUUID } from 'node:crypto';
import { createResourceSending } from './resources/resource-sending';
import type { CompletionSource } from './completion';

export interface SessionOptions {
  config: AppConfig;
  store: AppStore;
  quit: () => void;
  /** `--continue` / `--resume <id>` from the command line. */
  args?: { continueLast?: boolean; resume?: string };
  /**
   * A session was resumed at run time (`:resume`) and its messages loaded: the front end may
   * collect the loading's garbage before the next answer (cli/collect-after-load.ts).
   */
  onHistoryLoaded?: (messages: number) => void;
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
  /**
   * Sends an OSC 52 clipboard request through the screen writer (`:copy`); false when this
   * terminal cannot take one. Absent (tests, no terminal): `:copy` writes a file.
   */
  clipboard?: (sequence: string) => boolean;
}

export interface Session extends AppController {
  precheck(text: string, options?: { literal?: boolean }): string | undefined;
  reconnectServer(alias: string): void;
  disconnectServer(alias: string): void;
  connectServer(url: string, alias?: string): void;
  switchModel(name: string): void;
  toggleTool(alias: string, tool?: string): void;
  /** `@` completion: files here and the servers' resources (`@alias:uri`). */
  mentionCompletion: CompletionSource;
  /** Resolves once nothing is running or queued. */
  idle(): Promise<void>;
  /** `aish-tui --resume <id>` for the session being written, once it is saved (printed on exit). */
  resumeHint(): string | undefined;
  /** Stops everything and closes the MCP servers and the session file. */
  close(): Promise<void>;
}

export function createSession(options: SessionOptions): Session {
  const { config, store } = options;
  const status = (level: 'info' | 'warn' | 'error', text: string) => store.getState().addStatus(level, text);
  const elicit = elicitInStore({ store, status, openUrl: async (url) => (await import('../services/mcp/client')).openInBrowser(url) });
  const runtime = createRuntime(config, {
    report: status,
    onInstructions: (alias, state) => store.getState().setInstructionState(alias, state),
    elicit,
    ...(options.env ? { env: options.env } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
    ...(options.streamChat ? { streamChat: options.streamChat } : {}),
    ...(options.mcp ? { mcp: options.mcp } : {}),
    ...(options.definitions ? { definitions: options.definitions } : {}),
    ...(options.pins ? { pins: options.pins } : {}),
    sampling: { prompter: storeSamplingPrompter(store), currentModel: () => store.getState().modelName },
    // It starts them right after the first frame (below).
    startsServers: true,
    // The answer's text reaches the screen at most maxFps times a second (the batcher below).
    textPaceMs: Math.floor(1000 / config.ui.maxFps),
  });
  const { mcp } = runtime;
  let modelName = config.defaultModel;
  let closed = false;

  const takeBack = createTakeBack(store, status);
  const showHistory = (opened: OpenedHistory) => log.withdrawLater(showOpenedHistory(opened, store, status));
  store.getState().setModelName(modelName);
  const log = runtime.sessionLog(
    { continueLast: options.args?.continueLast ?? false, ...(options.args?.resume !== undefined ? { resume: options.args.resume } : {}) },
    { model: () => modelName, onError: (message) => status('error', message) },
  );
  showHistory(log.current());

  const unsubscribe = bridgeMcpEvents(mcp, store);
  const { refreshMeter, publishTools, stop: stopMeters } = watchMeters({
    runtime,
    store,
    config,
    modelName: () => modelName,
    // A turn's own events set the meter while it runs.
    paused: () => closed || jobs.busy(),
  });
  // The first frame never waits for servers: they start once the UI is up, and the broker client
  // loads meanwhile so the first message does not wait for it either.
  const startTimer = setTimeout(() => {
    if (closed) return;
    mcp.connectAll(config.mcp.servers);
    runtime.preloadBroker();
    // The window is asked in the background; the meter shows "?" until it is known.
    void runtime.discoverWindow(modelName);
  }, 0);

  const batcher = createEventBatcher((events) => store.getState().applyConversationEvents(events), config.ui.maxFps);

  const turns: TurnContext = {
    runtime,
    store,
    batcher,
    modelName: () => modelName,
    status,
    /** Keeps what a turn appends: in the store (via the event) and in the session file. */
    record(message: Message) {
      log.append(message);
      if (message.role === 'user') {
        // The transcript shows the user's message before anything of the answer.
        batcher.flush();
        store.getState().addUserItem(message.id, message.content, message.attachments?.map(attachmentLabel));
      }
    },
    withdraw(id, text, reason) {
      // Cancelled because the app is closing (a signal, quit): the question stays as it is.
      if (closed) return;
      batcher.flush();
      takeBack.release({ id, text, reason });
      log.withdrawLater([id]);
    },
  };

  // Late reports of servers (task-results.ts) go to the model in front of the next message.
  const taskResults = createTaskResults({ mcp, status, send: (text) => jobs.enqueue({ kind: 'chat', text }) });
  const deliverHeld = () => {
    for (const content of taskResults.takeHeld()) {
      const message: Message = { id: randomUUID(), role: 'user', content, at: new Date().toISOString() };
      turns.record(message);
      batcher.push({ type: 'message', message });
    }
    batcher.flush();
  };

  const jobs = createJobQueue<Job>({
    run: (job, signal) => {
      if (job.kind === 'chat') deliverHeld();
      return runJob(turns, job, signal);
    },
    onQueued: (waiting) => status('info', `queued: runs when the current answer ends (${waiting} waiting)`),
    onCrash(error) {
      // The loop reports failures as events; anything thrown is a bug, shown rather than lost.
      batcher.push({ type: 'error', message: `internal error: ${(error as Error).message}` });
      batcher.push({ type: 'done', finishReason: 'error' });
    },
    afterEach(job) {
      batcher.flush();
      publishTools();
      log.flush();
      // A compaction changed what the next request carries; a turn's own count stays as the server said it.
      if (job.kind === 'compact') queueMicrotask(refreshMeter);
      // The running message was answered (in part): the queued ones come back on their own.
      if (takeBack.holding() && !closed) takeBack.release();
    },
  });

  const attach = (text: string) => resolveAttachments(text, { cwd: runtime.cwd, vision: config.models[modelName]?.vision === true, modelName, guard: runtime.pathGuard });
  // `@alias:uri`: resources are read before the message is queued (resources/resource-sending.ts).
  const resources = createResourceSending({ mcp, cwd: runtime.cwd, status, store, enqueue: (job) => jobs.enqueue(job) });
  const goingBack = createGoingBack({
    store,
    log,
    status,
    isBusy: () => jobs.busy(),
    send: (text, attachments) => jobs.enqueue({ kind: 'chat', text, ...(attachments?.length ? { attachments } : {}) }),
  });
  const textOut = createTextOut({ store, config, redactor: () => runtime.redactor(), cwd: runtime.cwd, env: runtime.env, sessionId: () => log.id(), status, ...(options.clipboard ? { clipboard: options.clipboard } : {}) });

  const host: CommandHost = {
    store,
    config,
    mcp,
    policy: runtime.policy,
    status,
    resources: resources.index,
    askForm: elicit,
    ...goingBack,
    ...textOut,
    env: runtime.env,
    cwd: runtime.cwd,
    instructions: runtime.instructions,
    tools: runtime.tools,
    tasks: taskResults,
    modelConfig: () => config.models[modelName],
    sessionsDir: log.dir,
    currentSessionId: () => log.id(),
    modelName: () => modelName,
    switchModel: (name) => session.switchModel(name),
    isBusy: () => jobs.busy(),
    quit: () => session.quit(),
    ...(options.keyHelp ? { keyHelp: options.keyHelp } : {}),
    // The server's own count of the last request when it is the current model's; else measured now.
    contextSnapshot: () => {
      const last = store.getState().context;
      return last?.reported && last.model === modelName ? last : runtime.measureContext(modelName, store.getState().messages);
    },
    contextWindow: (name) => runtime.contextWindow(name),
    compact(focus) {
      if (store.getState().messages.length === 0) {
        status('info', 'nothing to compact yet');
        return;
      }
      jobs.enqueue({ kind: 'compact', ...(focus ? { focus } : {}) });
    },
    clearConversation() {
      store.getState().clearChat();
      log.switchTo(log.open({}));
      status('info', 'cleared; a new session starts with your next message');
    },
    resumeSession(id) {
      let opened: OpenedHistory;
      try {
        opened = log.open({ resume: id });
      } catch (error) {
        status('error', (error as Error).message.replace(/^--resume: /, ''));
        return;
      }
      store.getState().clearChat();
      log.switchTo(opened);
      showHistory(opened);
      options.onHistoryLoaded?.(opened.messages.length);
    },
  };

  const session: Session = {
    ...serverActions(mcp, status),
    roots: () => mcp.roots?.() ?? [],
    mentionCompletion: resources.completion,
    promptNames: () => resources.index.promptNames(),
    toggleTool(alias, tool) {
      const line = toggleToolSwitch(runtime.tools.switches, mcp.servers(), alias, tool);
      if (line) status('info', line);
    },
    precheck(text, submitOptions) {
      if (!submitOptions?.literal) {
        const slash = readSlash(text);
        if (slash.kind === 'unknown') return unknownSlashHint(slash.name);
        if (slash.kind === 'command' || /^\s*[:!]/.test(text)) return undefined;
      }
      return attach(text).problems[0] ?? resources.precheck(text);
    },
    submit(text: string, submitOptions?: { literal?: boolean }) {
      if (!submitOptions?.literal) {
        const slash = readSlash(text);
        // An unknown `/word` is never sent by mistake (the input keeps it; see precheck).
        if (slash.kind === 'unknown') return status('warn', unknownSlashHint(slash.name));
        text = slash.kind === 'command' ? slash.line : slash.text;
      }
      const trimmed = text.trim();
      if (trimmed.length === 0 || closed) return;
      if (!submitOptions?.literal && trimmed.startsWith(':')) {
        void runMetaCommand(trimmed, host);
        return;
      }
      if (!submitOptions?.literal && trimmed.startsWith('!')) {
        const command = trimmed.slice(1).trim();
        if (command.length === 0) status('info', 'type a shell command after ! (e.g. !ls -la)');
        else jobs.enqueue({ kind: 'shell', command });
        return;
      }
      const { attachments, problems } = attach(text);
      // The input checked first (precheck); a file that changed since is still never sent half-right.
      if (problems.length > 0) return status('warn', `not sent: ${problems.join('; ')}`);
      resources.send(text, attachments);
    },
    cancel() {
      // Messages still reading their resources were sent after everything in the queue.
      const reading = resources.cancel().map((text): Job => ({ kind: 'chat', text }));
      const taken = jobs.cancel();
      if (!taken) {
        if (reading.length === 0) return false;
        takeBack.hold(reading);
        takeBack.release();
        return true;
      }
      takeBack.hold([...taken, ...reading]);
      store.getState().cancelPending();
      return true;
    },
    quit() {
      void session.close();
      options.quit();
    },
    switchModel(name) {
      if (!config.models[name]) {
        status('error', `no model named ${JSON.stringify(name)}`);
        return;
      }
      modelName = name;
      store.getState().setModelName(name);
      const known = runtime.contextWindow(name);
      if (known) store.getState().setContextWindow(name, known);
      void runtime.discoverWindow(name);
      refreshMeter();
      publishTools();
    },
    idle: () => jobs.idle(),
    resumeHint: () => resumeHint(log.dir, log.id()),
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(startTimer);
      const stopped = jobs.close();
      store.getState().cancelPending();
      await stopped;
      batcher.dispose();
      log.close();
      unsubscribe();
      stopMeters();
      taskResults.stop();
      resources.close();
      await runtime.close();
    },
  };
  return session;
}
