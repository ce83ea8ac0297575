import { aliasProblem } from '../config/checks';
import type { ServerConfig } from '../config/schema';
import { BUILTIN_ALIAS } from '../builtin/alias';
import { callSessionTool, TRANSPORT_ERROR, DISPATCH_FAILED, type CallContext } from './calls';
import { resolveOptions, type McpManagerOptions, type ResolvedMcpOptions } from './options';
import { ServerSession } from './session';
import type { BackgroundedTask, CallToolOptions, McpEvent, McpManagerService, RunningTaskView, ServerSnapshot, ToolCallOutcome } from './types';
import { McpInputError } from './input-error';
import { ArgumentValidator } from './validate';
import { resolveConnectRequest } from './connect-request';
import { answerServerRequests } from './client-requests';
import { TaskRegistry } from './task-calls';
import type { Client } from '@modelcontextprotocol/client';
import type { ElicitationAnswer, ElicitationRequest } from './types';
import { McpCatalog, watchCatalog } from './catalog';

export { McpInputError };
export { aliasFromUrl } from './connect-request';

class McpManager implements McpManagerService {
  private readonly options: ResolvedMcpOptions;
  private readonly sessions = new Map<string, ServerSession>();
  private readonly listeners = new Set<(event: McpEvent) => void>();
  private readonly tasks = new TaskRegistry();
  private readonly calls: CallContext = {
    validator: new ArgumentValidator(),
    announced: new Set(),
    elicit: (request, signal) => this.elicit(request, signal),
    tasks: this.tasks,
    emit: (event) => this.emit(event),
  };
  private rootDirectories: string[];
  /** Resources and prompts (catalog.ts); the manager only hands it the sessions. */
  private readonly catalog = new McpCatalog((alias) => this.sessions.get(alias));
  readonly resourceCatalog = this.catalog.resourceCatalog.bind(this.catalog);
  readonly readResource = this.catalog.readResource.bind(this.catalog);
  readonly subscribeResource = this.catalog.subscribeResource.bind(this.catalog);
  readonly listPrompts = this.catalog.listPrompts.bind(this.catalog);
  readonly getPrompt = this.catalog.getPrompt.bind(this.catalog);
  readonly completeArgument = this.catalog.completeArgument.bind(this.catalog);
  readonly onCatalogEvent = this.catalog.onCatalogEvent.bind(this.catalog);

  constructor(options: McpManagerOptions) {
    this.options = resolveOptions(options);
    this.rootDirectories = [...this.options.roots];
  }

  /** Each new client answers `roots/list` and `elicitation/create` (declared in capabilities.ts). */
  private prepareClient = (alias: string, client: Client): void => {
    answerServerRequests(client, alias, { features: this.options.features, roots: () => this.rootDirectories, elicit: (request, signal) => this.elicit(request, signal), emit: this.emit });
    this.catalog.forget(alias);
    watchCatalog(client, alias, this.catalog.emit);
  };

  private elicit(request: ElicitationRequest, signal: AbortSignal): Promise<ElicitationAnswer> {
    const elicit = this.options.elicit;
    // The call that asked does not time out while the user answers (user-waits.ts).
    if (elicit) return this.sessions.get(request.alias)?.userWaits.during(() => elicit(request, signal)) ?? elicit(request, signal);
    this.emit({ type: 'status', alias: request.alias, level: 'warn', message: `mcp ${request.alias}: asked for input (${request.mode}); declined: nobody is asked here` });
    return Promise.resolve({ action: 'decline' });
  }

  roots(): string[] {
    return [...this.rootDirectories];
  }

  setRoots(directories: string[]): void {
    this.rootDirectories = [...directories];
    if (!this.options.features.roots) return;
    for (const session of this.sessions.values()) {
      if (session.snapshot.state !== 'ready') continue;
      // A server that went away meanwhile is not a problem of the roots change.
      session.connection?.client.sendRootsListChanged().catch(() => {});
    }
  }

  private emit = (event: McpEvent): void => {
    // A ready server's tools are likely to be called: their argument checks compile in idle turns now.
    if (event.type === 'server' && event.snapshot.state === 'ready') this.calls.validator.prepare(event.snapshot.tools.map((tool) => tool.inputSchema));
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch {
        // A failing subscriber must not break the others or the session that emitted.
      }
    }
  };

  servers(): ServerSnapshot[] {
    return [...this.sessions.values()].map((session) => session.snapshot);
  }

  subscribe(listener: (event: McpEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private session(alias: string, spec: ServerSession['spec']): ServerSession {
    const existing = this.sessions.get(alias);
    if (existing && JSON.stringify(existing.spec) === JSON.stringify(spec)) return existing;
    if (existing) void existing.close();
    const session = new ServerSession(alias, spec, { options: this.options, emit: this.emit, prepareClient: this.prepareClient });
    this.sessions.set(alias, session);
    return session;
  }

  async connect(alias: string, config: ServerConfig): Promise<ServerSnapshot> {
    const problem = aliasProblem(alias);
    if (problem) throw new McpInputError(problem);
    return this.session(alias, { kind: 'config', config }).connect();
  }

  async connectUrl(url: string, alias?: string): Promise<ServerSnapshot> {
    const request = await resolveConnectRequest(url, alias, (candidate) => {
      const existing = this.sessions.get(candidate);
      if (!existing) return undefined;
      const config = existing.config;
      return { state: existing.snapshot.state, ...(config && 'url' in config ? { url: config.url } : {}) };
    });
    return this.connect(request.alias, request.config);
  }

  connectAll(servers: Record<string, ServerConfig>): void {
    const entries = Object.entries(servers).filter(([, config]) => !config.disabled);
    if (this.options.builtin) {
      if (servers[BUILTIN_ALIAS]) {
        this.emit({ type: 'status', alias: BUILTIN_ALIAS, level: 'warn', message: `mcp: a configured server is named "${BUILTIN_ALIAS}"; the built-in tools are not started` });
      } else {
        void this.session(BUILTIN_ALIAS, { kind: 'builtin' }).connect();
      }
    }
    // All at once, in the background: each session reports its own progress through events.
    for (const [alias, config] of entries) {
      const problem = aliasProblem(alias);
      if (problem) {
        this.emit({ type: 'status', alias, level: 'error', message: `mcp: ${problem}` });
        continue;
      }
      void this.session(alias, { kind: 'config', config }).connect();
    }
  }

  async reconnect(alias: string): Promise<ServerSnapshot> {
    const session = this.sessions.get(alias);
    if (!session) throw new McpInputError(`no MCP server named ${JSON.stringify(alias)}`);
    return session.connect();
  }

  async openSignIn(alias: string): Promise<string> {
    const session = this.sessions.get(alias);
    if (!session) throw new McpInputError(`no MCP server named ${JSON.stringify(alias)}`);
    return session.openSignIn();
  }

  async disconnect(alias: string): Promise<void> {
    const session = this.sessions.get(alias);
    if (!session) throw new McpInputError(`no MCP server named ${JSON.stringify(alias)}`);
    await session.disconnect();
  }

  /** Removes a server from the list entirely (after closing it). */
  async remove(alias: string): Promise<void> {
    const session = this.sessions.get(alias);
    if (!session) return;
    this.sessions.delete(alias);
    await session.close();
    this.emit({ type: 'removed', alias });
  }

  /** Resolves when no server is connecting or waiting for authorization (or after `timeoutMs`). */
  async settled(timeoutMs = this.options.connectTimeoutMs + 1_000): Promise<ServerSnapshot[]> {
    await Promise.all([...this.sessions.values()].map((session) => session.settled(timeoutMs)));
    return this.servers();
  }

  argumentProblem(alias: string, tool: string, args: Record<string, unknown>): string | undefined {
    const info = this.sessions.get(alias)?.snapshot.tools.find((candidate) => candidate.name === tool);
    return info ? this.calls.validator.problem(info.inputSchema, args) : undefined;
  }

  async callTool(alias: string, tool: string, args: Record<string, unknown>, options: CallToolOptions = {}): Promise<ToolCallOutcome> {
    const session = this.sessions.get(alias);
    if (!session) {
      return { kind: 'unknown-server', content: `${DISPATCH_FAILED}no MCP server named ${JSON.stringify(alias)}`, isError: true };
    }
    try {
      const result = await callSessionTool(session, tool, args, options, this.calls);
      // Notices go back with the outcome: whoever made the call shows them, once.
      return result;
    } catch (error) {
      // callSessionTool does not throw; this only guards the promise that a call is always answered.
      return { kind: 'transport-error', content: session.redact(`${TRANSPORT_ERROR}${(error as Error).message}`), isError: true };
    }
  }

  moveTasksToBackground(): BackgroundedTask[] {
    return this.tasks.moveToBackground();
  }

  runningTasks(): RunningTaskView[] {
    return this.tasks.list();
  }

  cancelTask(which: string): BackgroundedTask | string {
    return this.tasks.cancel(which);
  }

  async close(): Promise<void> {
    this.tasks.stopServer();
    const sessions = [...this.sessions.values()];
    await Promise.all(sessions.map((session) => session.close()));
  }
}

export function createMcpManager(options: McpManagerOptions): McpManagerService {
  return new McpManager(options);
}
