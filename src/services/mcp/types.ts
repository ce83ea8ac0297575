import type { ServerConfig } from '../config/schema';
import type { McpCatalogService } from './catalog-types';

export type ServerState = 'connecting' | 'ready' | 'error' | 'needs-auth' | 'disconnected';
export type TransportKind = 'streamable-http' | 'sse' | 'stdio' | 'in-memory';

/** A tool as the server described it (raw, unsanitized: the UI sanitizes at display time). */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /** JSON Schema of the tool's structuredContent. */
  outputSchema?: Record<string, unknown>;
  /** How the tool runs, e.g. `{ taskSupport: "required" }` (see task-support.ts). */
  execution?: Record<string, unknown>;
  /** Icons as the server lists them (`src` is a URL, possibly a `data:` URL). */
  icons?: Array<Record<string, unknown>>;
}

/** Everything the store and the sidebar know about one server. Immutable: a change makes a new snapshot. */
export interface ServerSnapshot {
  alias: string;
  /** URL for HTTP servers, command line for stdio, `built-in` for the in-process server. */
  target: string;
  state: ServerState;
  transport?: TransportKind;
  protocolVersion?: string;
  /** `modern`: 2026-07-28 or later, found with `server/discover` (stateless); `legacy`: the `initialize` handshake. */
  protocolEra?: 'modern' | 'legacy';
  /** The server runs `tools/call` as tasks (capabilities.tasks.requests.tools.call; see tasks.ts). */
  taskCalls?: boolean;
  serverName?: string;
  serverVersion?: string;
  /** Milliseconds from starting the connect to `ready`. */
  connectMs?: number;
  /** One clear line when state is `error` or `needs-auth`. */
  error?: string;
  tools: McpToolInfo[];
  /** Last lines a stdio server wrote to stderr (capped, raw). */
  stderr: string[];
  /** Last lines a stdio server printed on stdout that are not MCP messages (capped, cut, raw). */
  strayStdout?: string[];
  /** Where the user can authorize when state is `needs-auth`. */
  authUrl?: string;
  /** The server's `instructions` from initialize (raw, unsanitized, uncapped). */
  instructions?: string;
  /** The server's latest log messages (`notifications/message`), oldest first, capped. */
  log?: ServerLogEntry[];
  /** `sandboxed: no network · writes …` for a stdio server confined by its `sandbox` config. */
  sandbox?: string;
}

/** A form the server asks the user to fill (`elicitation/create`, form mode). Raw and unsanitized. */
export interface FormElicitation {
  mode: 'form';
  alias: string;
  message: string;
  /** The requested schema: an object of flat primitive properties. */
  schema: Record<string, unknown>;
}

/** A page the server asks the user to open (`elicitation/create` in URL mode, or a -32042 error). */
export interface UrlElicitation {
  mode: 'url';
  alias: string;
  message: string;
  url: string;
  elicitationId: string;
  /** Came with a URL-required error (-32042): the call failed and is worth retrying afterwards. */
  fromError?: boolean;
  /**
   * Not a page to open but the question after one (-32042): may the failed call `tool` run once
   * more now? Accepting retries it; `notifications/elicitation/complete` for every id in
   * `waitFor` (the pages the user opened) accepts it on the user's behalf.
   */
  retry?: { tool: string; waitFor: string[] };
}

export type ElicitationRequest = FormElicitation | UrlElicitation;

/** The user's answer, as `elicitation/create` returns it. */
export type ElicitationAnswer = { action: 'accept'; content?: Record<string, string | number | boolean | string[]> } | { action: 'decline' } | { action: 'cancel' };

/** Answers a server's elicitation; `signal` aborts when the server cancels or goes away. */
export type ElicitationHandler = (request: ElicitationRequest, signal: AbortSignal) => Promise<ElicitationAnswer>;

export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
  /** The call runs as a task (tasks.ts): its status (`working`, `input_required`, …); `progress` is then not a count. */
  task?: string;
}

/**
 * How a call ended. Every kind still produces `content` for the model (docs/ARCHITECTURE.md, Conversation rules: a tool call is
 * never left without a tool turn).
 */
export type ToolOutcomeKind =
  | 'ok'
  | 'tool-error'
  | 'rpc-error'
  | 'transport-error'
  | 'invalid-arguments'
  | 'timeout'
  | 'cancelled'
  | 'unknown-server';

export interface ToolCallOutcome {
  kind: ToolOutcomeKind;
  /** Flattened text for the model, e.g. `[aish] tool dispatch failed: Tool not found`. */
  content: string;
  /** The server's advisory flag (or true for our own failures). */
  isError: boolean;
  /** One-line notes for the user, e.g. `builtin__x returned image/png (12 KB), shown as a placeholder`. */
  notices?: string[];
}

export type McpEvent =
  | { type: 'server'; snapshot: ServerSnapshot }
  | { type: 'removed'; alias: string }
  | { type: 'status'; alias: string; level: 'info' | 'warn' | 'error'; message: string }
  /** The server says a URL elicitation finished (`notifications/elicitation/complete`). */
  | { type: 'elicitation-complete'; alias: string; elicitationId: string }
  /** A task the user moved to the background ended; `outcome` is what the model is given. */
  | { type: 'task-finished'; alias: string; tool: string; taskId: string; outcome: ToolCallOutcome }
  /**
   * A progress notification for a call that already returned (the seed's async operations answer
   * with an operation id and push the result this way). `message` is redacted, not sanitized.
   */
  | { type: 'late-progress'; alias: string; tool: string; message: string; progress: number; total?: number };

/** A task running in the foreground (a turn waits for it), as `:tasks` lists it. */
export interface RunningTaskView {
  alias: string;
  tool: string;
  taskId: string;
  status: string;
  message?: string;
  background: boolean;
}

export interface CallToolOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
  timeoutMs?: number;
}

/** What `moveTasksToBackground` did: the tasks now running in the background. */
export interface BackgroundedTask {
  alias: string;
  tool: string;
  taskId: string;
}

/** The MCP side as the rest of aish-tui sees it. Implemented by the MCP manager in this folder. */
export interface McpService {
  servers(): ServerSnapshot[];
  subscribe(listener: (event: McpEvent) => void): () => void;
  /** Connects (or reconnects) one server; resolves with its snapshot, never rejects for server faults. */
  connect(alias: string, config: ServerConfig): Promise<ServerSnapshot>;
  /** Starts every configured server in parallel, in the background. */
  connectAll(servers: Record<string, ServerConfig>): void;
  reconnect(alias: string): Promise<ServerSnapshot>;
  disconnect(alias: string): Promise<void>;
  /** Never rejects for tool, protocol or transport failures: they become the outcome's content. */
  callTool(alias: string, tool: string, args: Record<string, unknown>, options?: CallToolOptions): Promise<ToolCallOutcome>;
  /**
   * What is wrong with these arguments for the tool's input schema, or undefined when they fit (or
   * the tool or its schema is unknown: the server then decides). Lets a call that cannot succeed
   * be answered without asking the user to approve it.
   */
  argumentProblem?(alias: string, tool: string, args: Record<string, unknown>): string | undefined;
  close(): Promise<void>;
  /**
   * Lets the turn waiting on task calls go on: each call answers the model at once that its task
   * runs in the background, and the result comes later as a `task-finished` event.
   */
  moveTasksToBackground?(): BackgroundedTask[];
  /** Tasks running now, in the foreground or the background. */
  runningTasks?(): RunningTaskView[];
  /** Cancels one running task (a number in runningTasks() order, or a task id): what was cancelled, or why nothing was. */
  cancelTask?(which: string): BackgroundedTask | string;
  /** The directories offered to servers as roots (`roots/list`). */
  roots?(): string[];
  /** Replaces the roots and tells every connected server (`notifications/roots/list_changed`). */
  setRoots?(directories: string[]): void;
}

/**
 * What `createMcpManager` returns: the McpService contract plus the runtime-connect helpers the
 * `:mcp` commands and the headless subcommands use.
 */
export interface McpManagerService extends McpService, Partial<McpCatalogService> {
  /**
   * `:mcp connect <url> [alias]`. Without an alias one is made from the host name (deduplicated
   * with -2, -3, ...). Throws McpInputError (one line for the user) for a bad URL or alias;
   * server faults end in the snapshot's state like any connect.
   */
  connectUrl(url: string, alias?: string): Promise<ServerSnapshot>;
  /**
   * Opens the sign-in address a server is waiting on in the browser, after checking it again
   * (sidebar `o`: the user saw it and asked); resolves with one line for the user.
   */
  openSignIn(alias: string): Promise<string>;
  /** Removes a server from the list (a disconnected server otherwise stays listed). */
  remove(alias: string): Promise<void>;
  /** Resolves once no server is `connecting` or `needs-auth` (or after the timeout). */
  settled(timeoutMs?: number): Promise<ServerSnapshot[]>;
}

/** One field of an elicitation form, read from the requested schema (elicitation-form.ts). Raw texts. */
export type FormField = { name: string; title: string; description?: string; required: boolean } & (
  | { kind: 'text'; format?: 'email' | 'uri' | 'date' | 'date-time'; minLength?: number; maxLength?: number; default?: string }
  | { kind: 'number'; integer: boolean; minimum?: number; maximum?: number; default?: number }
  | { kind: 'boolean'; default?: boolean }
  | { kind: 'choice'; multiple: boolean; options: Array<{ value: string; label: string }>; minItems?: number; maxItems?: number; default?: string[] }
);

/** What the user has entered: the text typed (text and number fields), a boolean, or the chosen option values. */
export type FieldInput = string | boolean | string[];

export interface ElicitationForm {
  fields: FormField[];
}
/** Severity of a server's log message (`notifications/message`), syslog order, least severe first. */
export type ServerLogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/** One log message a server sent (raw, unsanitized: the UI sanitizes at display time). */
export interface ServerLogEntry {
  at: number;
  level: ServerLogLevel;
  logger?: string;
  /** The message's `data`: a string as sent, anything else as JSON. */
  text: string;
}

// Sampling requests, and resources and prompts, have files of their own; everything is named from here.
export type * from './sampling-types';
export type * from './catalog-types';
