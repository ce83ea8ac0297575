import type { ServerConfig } from '../config/schema';

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
}

export interface ToolProgress {
  progress: number;
  total?: number;
  message?: string;
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
  | { type: 'status'; alias: string; level: 'info' | 'warn' | 'error'; message: string };

export interface CallToolOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ToolProgress) => void;
  timeoutMs?: number;
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
}

/**
 * What `createMcpManager` returns: the McpService contract plus the runtime-connect helpers the
 * `:mcp` commands and the headless subcommands use.
 */
export interface McpManagerService extends McpService {
  /**
   * `:mcp connect <url> [alias]`. Without an alias one is made from the host name (deduplicated
   * with -2, -3, ...). Throws McpInputError (one line for the user) for a bad URL or alias;
   * server faults end in the snapshot's state like any connect.
   */
  connectUrl(url: string, alias?: string): Promise<ServerSnapshot>;
  /** Removes a server from the list (a disconnected server otherwise stays listed). */
  remove(alias: string): Promise<void>;
  /** Resolves once no server is `connecting` or `needs-auth` (or after the timeout). */
  settled(timeoutMs?: number): Promise<ServerSnapshot[]>;
}
