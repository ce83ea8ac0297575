import type { Client, Tool } from '@modelcontextprotocol/client';
import { readyFacts } from './ready-facts';
import { ConnectAttempt, openAndList, within } from './connect-attempt';
import { failureLine, type StdioFacts } from './connect-failure';
import type { Connection } from './connection';
import { describeTarget, type SessionSpec } from './target';
import { describeError } from './errors';
import type { AishOAuthProvider } from './oauth';
import type { ResolvedMcpOptions } from './options';
import { SessionAuth } from './session-auth';
import { SessionView } from './session-view';
import type { StderrTail } from './stderr';
import { ExitWatchingStdioTransport } from './watched-transports';
import type { McpEvent, ServerSnapshot } from './types';
import { ClientHandlers } from './client-handlers';
import { AuthorizationRounds } from './authorization-rounds';
import { UserWaits } from './user-waits';
import { sandboxNote } from './sandboxed-stdio';
import { isStdioServer } from '../config/checks';

// One server's life: connecting (with its timeout and authorization rounds), being ready, and
// losing the connection. What it shows (snapshot, status lines, stderr) lives in SessionView.

export interface SessionContext {
  options: ResolvedMcpOptions;
  emit: (event: McpEvent) => void;
  /** Registers the answers to the server's requests (roots, elicitation) on each new client. */
  prepareClient?: (alias: string, client: Client) => void;
}

export class ServerSession {
  connection: Connection | undefined;
  private readonly view: SessionView;
  /** The latest connect attempt; the ones before it are aborted. */
  private attempt: ConnectAttempt | undefined;
  private readonly auth: SessionAuth;
  /** Browser sign-ins after a 401: waited for, bounded (authorization-rounds.ts). */
  private readonly authorization: AuthorizationRounds;
  /** Why the transport stopped the server, when it did (e.g. a message over the size limit). */
  private transportProblem: string | undefined;
  /** Sampling requests and log messages from the server (client-handlers.ts). */
  private readonly handlers: ClientHandlers;
  /** This server's requests that wait for the user: its tool calls do not time out meanwhile. */
  readonly userWaits = new UserWaits();

  constructor(
    readonly alias: string,
    readonly spec: SessionSpec,
    private readonly context: SessionContext,
  ) {
    this.auth = new SessionAuth(alias, this.config, context.options, (level, message) => this.view.status(level, message));
    this.view = new SessionView(alias, describeTarget(spec), context.emit, () => this.auth.secrets(), context.options.limits);
    this.authorization = new AuthorizationRounds(alias, this.view, () => this.connectOnce());
    const sandbox = this.config && isStdioServer(this.config) ? sandboxNote(this.config, context.options.env) : undefined;
    if (sandbox) this.view.snapshot = { ...this.view.snapshot, sandbox };
    this.handlers = new ClientHandlers(alias, context.options, this.view, () => this.config?.logLevel, this.userWaits);
  }

  get snapshot(): ServerSnapshot {
    return this.view.snapshot;
  }

  private get oauth(): AishOAuthProvider | undefined {
    return this.auth.oauth;
  }

  get config() {
    return this.spec.kind === 'config' ? this.spec.config : undefined;
  }

  get toolTimeoutMs(): number {
    return this.config?.timeoutMs ?? this.context.options.toolTimeoutMs;
  }

  /** Why the transport stopped the server, if it did (shown instead of a bare "Connection closed"). */
  get stoppedBecause(): string | undefined {
    return this.transportProblem;
  }

  /** Removes this server's known secrets (tokens, header values, env values) from text. */
  redact(text: string): string {
    return this.view.redact(text);
  }

  /** Connects (closing any previous connection); resolves with the resulting snapshot. */
  async connect(): Promise<ServerSnapshot> {
    this.authorization.reset();
    return this.connectOnce();
  }

  private async connectOnce(): Promise<ServerSnapshot> {
    this.view.unmute();
    this.attempt?.abort();
    const attempt = new ConnectAttempt();
    this.attempt = attempt;
    this.auth.cancel();
    // The new state is visible at once (before anything is awaited): the UI shows `connecting`.
    const previous = this.connection;
    this.connection = undefined;
    const stderr = this.view.resetStderr();
    this.transportProblem = undefined;
    this.view.update({
      state: 'connecting',
      error: undefined,
      authUrl: undefined,
      tools: [],
      stderr: [],
      transport: undefined,
      protocolVersion: undefined,
      protocolEra: undefined,
      taskCalls: undefined,
      serverName: undefined,
      serverVersion: undefined,
      connectMs: undefined,
      instructions: undefined,
    });
    if (previous) await previous.close().catch(() => {});
    const started = performance.now();
    const timeoutMs = this.config?.connectTimeoutMs ?? this.context.options.connectTimeoutMs;
    let lastStatus: number | undefined;
    const bearer = this.auth.bearerToken();
    const oauth = bearer ? undefined : await this.auth.oauthProvider();
    if (oauth) oauth.signInNeeded = false;
    // Superseded while the previous connection closed: nothing is started for it.
    if (!attempt.current) return this.snapshot;
    const opened = (async () => {
      await this.auth.refreshIfNeeded(oauth);
      return openAndList(this.spec, {
        options: this.context.options,
        timeoutMs,
        stderr,
        onStderr: () => this.view.scheduleStderrUpdate(),
        listChanged: { tools: { debounceMs: 300, onChanged: (error, tools) => this.onToolsChanged(attempt, error, tools) } },
        bearer,
        oauth,
        track: (transport) => attempt.opening.push(transport),
        onHttpTransport: (transport) => {
          if (attempt.current) this.authorization.pendingTransport = transport;
        },
        recordStatus: (status) => {
          lastStatus = status;
        },
        onTransportProblem: (message) => {
          if (attempt.current) this.transportProblem = message;
        },
        onConnectionLost: (reason) => this.connectionLost(reason, attempt),
        prepareClient: (client) => {
          this.context.prepareClient?.(this.alias, client);
          this.handlers.prepare(client, () => attempt.current);
        },
        ...this.view.connectionNotes(() => attempt.current),
      });
    })();
    try {
      const { connection, tools } = await within(opened, timeoutMs, attempt.signal);
      if (!attempt.current) {
        await connection.close().catch(() => {});
        return this.snapshot;
      }
      attempt.opening.length = 0;
      return this.becomeReady(connection, tools, performance.now() - started, attempt);
    } catch (error) {
      // Read before closing: closing stops the process, and that is not how it ended.
      const stdio = this.stdioFacts(attempt, stderr);
      await attempt.closeOpening();
      if (!attempt.current) return this.snapshot;
      return this.fail(error, lastStatus, timeoutMs, attempt, stdio);
    }
  }

  private becomeReady(connection: Connection, tools: Tool[], elapsedMs: number, attempt: ConnectAttempt): ServerSnapshot {
    this.connection = connection;
    connection.liveness?.start();
    const client = connection.client;
    client.onclose = () => this.onConnectionClosed(attempt, connection);
    client.onerror = () => {
      // Transport hiccups (a dropped notification stream, a retry) are not failures of the
      // session; a real failure shows up as a close or as a failed call.
    };
    const { facts, warning } = readyFacts(client);
    if (warning) this.view.status('warn', `mcp ${this.alias}: ${warning}`);
    this.view.update({
      state: 'ready',
      transport: connection.kind,
      ...facts,
      connectMs: Math.round(elapsedMs),
      tools: this.view.acceptTools(tools),
      stderr: this.view.stderrLines(),
    });
    this.handlers.ready(client, () => attempt.current);
    return this.snapshot;
  }

  private onToolsChanged(attempt: ConnectAttempt, error: Error | null, tools: Tool[] | null): void {
    if (!attempt.current || this.snapshot.state !== 'ready') return;
    if (error || !tools) this.view.status('warn', `mcp ${this.alias}: re-listing tools failed: ${describeError(error)}`);
    else this.view.replaceTools(tools);
  }

  private onConnectionClosed(attempt: ConnectAttempt, connection: Connection): void {
    if (!attempt.current) return;
    if (this.snapshot.state !== 'ready') return;
    this.connection = undefined;
    // The exit code or signal, with the stderr line that reads like the reason (never a start-up
    // banner or a stack frame); the whole tail stays in the snapshot. Calls still running end
    // with the same reason.
    this.transportProblem ??= connection.processEnd?.() ?? 'the connection was closed';
    this.view.showError(this.transportProblem, { tools: [], stderr: this.view.stderrLines() });
  }

  /**
   * The server is gone (a stream could not be resumed or re-opened, a call or an idle ping could
   * not reach it): the connection is closed, which ends every running call and shows the server
   * in error. The user reconnects when the server is back; nothing here retries on its own.
   */
  connectionLost(reason: string, attempt = this.attempt): void {
    const connection = this.connection;
    if (!attempt?.current || this.snapshot.state !== 'ready' || !connection) return;
    this.transportProblem ??= `the connection to the server was lost: ${reason}`;
    void connection.close({ endSession: false }).catch(() => {});
  }

  /** How the stdio server of the attempt being opened fared, if it is one. */
  private stdioFacts(attempt: ConnectAttempt, stderr: StderrTail): StdioFacts | undefined {
    const transport = attempt.opening.find((candidate) => candidate instanceof ExitWatchingStdioTransport);
    return transport ? { exit: transport.exit, stderr, strayStdout: transport.strayStdout.first } : undefined;
  }

  private fail(error: unknown, lastStatus: number | undefined, timeoutMs: number, attempt: ConnectAttempt, stdio?: StdioFacts): ServerSnapshot {
    if (this.authorization.handle(error, this.oauth, attempt)) return this.snapshot;
    const line = failureLine(error, { spec: this.spec, transportProblem: this.transportProblem, lastStatus, timeoutMs, stdio });
    this.view.showError(line, { stderr: this.view.stderrLines() });
    return this.snapshot;
  }

  /**
   * A call that needs more authorization (a step-up to a wider scope) starts a browser
   * authorization; this waits for it (or for the caller's abort), finishes it on the live
   * transport, and says whether the call may be retried.
   */
  completePendingAuthorization(signal?: AbortSignal): Promise<boolean> {
    return this.auth.completeStepUp(this.connection?.transport, signal);
  }

  /** Resolves once this session is no longer connecting or waiting for authorization (or on timeout). */
  settled(timeoutMs: number): Promise<ServerSnapshot> {
    // Only an interactive session waits for a browser; otherwise needs-auth is where it stays.
    const waiting = (snapshot: ServerSnapshot) => snapshot.state === 'connecting' || (snapshot.state === 'needs-auth' && this.context.options.interactive);
    return this.view.until(waiting, timeoutMs);
  }

  /** Ends the current attempt: its callbacks stop touching the session, its transports close. */
  private async abortAttempt(): Promise<void> {
    const attempt = this.attempt;
    attempt?.abort();
    await attempt?.closeOpening();
  }

  private async dropConnection(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    if (connection) await connection.close().catch(() => {});
  }

  /** Opens the pending sign-in address in the browser (the user asked); returns what to say. */
  openSignIn(): Promise<string> {
    // Only the address the user is being shown, while the server waits for it.
    return this.auth.openSignIn(this.snapshot.state === 'needs-auth' ? this.snapshot.authUrl : undefined);
  }

  /** Closes the connection and marks the server disconnected (it stays listed). */
  async disconnect(): Promise<void> {
    const ending = this.abortAttempt();
    this.auth.cancel();
    await ending;
    await this.dropConnection();
    this.view.update({ state: 'disconnected', tools: [], error: undefined, authUrl: undefined });
  }

  /** Closes everything; no more events are emitted. */
  async close(): Promise<void> {
    const ending = this.abortAttempt();
    this.view.mute();
    this.auth.cancel();
    await ending;
    await this.dropConnection();
  }
}
