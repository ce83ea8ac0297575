import type { FetchLike } from '@modelcontextprotocol/client';
import type { AppConfig } from '../config/load';
import type { SchemaLimits } from '../tools/names';
import { DEFAULT_DEFINITION_BOUNDS, type DefinitionBounds } from './definition-bounds';
import { DEFAULT_PING, type PingOptions } from './liveness';
import type { ClientFeatures } from './capabilities';
import type { ElicitationHandler } from './types';
import type { SamplingHandler } from './types';

export interface McpLimits extends SchemaLimits, DefinitionBounds {
  /** Largest total size of one server's tool list (a larger list is cut, with a note). */
  toolListBytes: number;
  /** Longest line (one JSON-RPC message) a stdio server may write. */
  stdioMaxLineBytes: number;
  /** Largest message (JSON body, or one event of an event stream) an HTTP server may send. */
  httpMaxMessageBytes: number;
  /**
   * Bytes of a tool result's text that are kept in memory (limits.maxResultBytes). A stdio server's
   * longer text is read into a file past its head (shared/spilled-text.ts); unset: read whole.
   */
  resultHeadBytes?: number;
}

export interface McpManagerOptions {
  /** Directory for OAuth registrations and tokens (config.paths.stateDir). */
  stateDir: string;
  clientVersion: string;
  clientName?: string;
  /** Environment for `authEnv` lookups and the stdio servers' minimal environment. */
  env?: NodeJS.ProcessEnv;
  /** Start the built-in server (alias `builtin`) with connectAll. */
  builtin?: boolean;
  /** Default tool-call timeout (silence; progress notifications restart it). */
  toolTimeoutMs?: number;
  /** Default time allowed for connecting and listing tools. */
  connectTimeoutMs?: number;
  /** How often an idle remote server is pinged (0: never) and how long its answer may take. */
  ping?: Partial<PingOptions>;
  limits?: Partial<McpLimits>;
  /** Opens an authorization URL for the user; the default tries the system browser and never throws. */
  openUrl?: (url: string) => Promise<void>;
  /**
   * Asks the user whether to open a (checked) sign-in URL now, showing it in full. Without it no
   * browser opens by itself: the TUI opens one when the user presses `o` on the server
   * (`openSignIn`); `aish-tui mcp login` asks on its terminal.
   */
  confirmOpen?: (url: string, host: string) => Promise<boolean>;
  /**
   * Whether someone is there to sign in through a browser (the TUI). When false (`-p`, `aish-tui
   * mcp list|tools|tool|call`) a server that needs an OAuth sign-in is reported at once instead of
   * opening a browser and waiting for the callback; `aish-tui mcp login <alias>` signs in.
   */
  interactive?: boolean;
  /** fetch for HTTP servers (tests may count requests); defaults to the global fetch. */
  fetch?: FetchLike;
  /** The directories offered as roots (absolute); default: none, and no roots capability. */
  roots?: string[];
  /**
   * Puts a server's elicitation (a form, a URL to open) in front of the user, or answers it for a
   * script. Default: every request is declined with a status line saying so.
   */
  elicit?: ElicitationHandler;
  /**
   * Answers servers' sampling requests. Only with it does the client declare `sampling`;
   * without it (`aish-tui mcp …`) servers see a client that does not sample.
   */
  sampling?: SamplingHandler;
}

export interface ResolvedMcpOptions {
  stateDir: string;
  clientName: string;
  clientVersion: string;
  env: NodeJS.ProcessEnv;
  builtin: boolean;
  toolTimeoutMs: number;
  connectTimeoutMs: number;
  ping: PingOptions;
  limits: McpLimits;
  openUrl: (url: string) => Promise<void>;
  confirmOpen: ((url: string, host: string) => Promise<boolean>) | undefined;
  interactive: boolean;
  fetch: FetchLike | undefined;
  features: ClientFeatures;
  roots: string[];
  elicit: ElicitationHandler | undefined;
  sampling: SamplingHandler | undefined;
}

export const DEFAULT_LIMITS: McpLimits = {
  stdioMaxLineBytes: 8 * 1024 * 1024,
  httpMaxMessageBytes: 64 * 1024 * 1024,
  inputSchemaBytes: 64 * 1024,
  inputSchemaDepth: 32,
  ...DEFAULT_DEFINITION_BOUNDS,
  toolListBytes: 8 * 1024 * 1024,
};

/** Tries the system browser; a machine without one (ssh, CI, containers) is not an error. */
export async function openInBrowser(url: string): Promise<void> {
  try {
    const { default: open } = await import('open');
    const child = await open(url, { wait: false });
    child.on('error', () => {});
    child.unref();
  } catch {
    // The URL was shown to the user as well; opening it is only a convenience.
  }
}

export function resolveOptions(options: McpManagerOptions): ResolvedMcpOptions {
  return {
    stateDir: options.stateDir,
    clientName: options.clientName ?? 'aish-tui',
    clientVersion: options.clientVersion,
    env: options.env ?? process.env,
    builtin: options.builtin ?? false,
    toolTimeoutMs: options.toolTimeoutMs ?? 120_000,
    connectTimeoutMs: options.connectTimeoutMs ?? 30_000,
    ping: { ...DEFAULT_PING, ...options.ping },
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    openUrl: options.openUrl ?? openInBrowser,
    confirmOpen: options.confirmOpen,
    interactive: options.interactive ?? true,
    fetch: options.fetch,
    // Roots are declared even when empty so that `:roots add` can tell the servers later.
    features: { roots: options.roots !== undefined, elicitation: true, sampling: options.sampling !== undefined },
    roots: options.roots ?? [],
    elicit: options.elicit,
    sampling: options.sampling,
  };
}

/** The manager's options as the app's configuration sets them. */
export function mcpOptionsFromConfig(config: AppConfig, clientVersion: string, env: NodeJS.ProcessEnv = process.env): McpManagerOptions {
  return {
    stateDir: config.paths.stateDir,
    clientVersion,
    env,
    builtin: config.builtin,
    toolTimeoutMs: config.mcp.toolTimeoutMs,
    connectTimeoutMs: config.mcp.connectTimeoutMs,
    ping: { intervalMs: config.mcp.pingIntervalMs },
    limits: {
      stdioMaxLineBytes: config.limits.stdioMaxLineBytes,
      httpMaxMessageBytes: config.limits.httpMaxMessageBytes,
      inputSchemaBytes: config.limits.inputSchemaBytes,
      inputSchemaDepth: config.limits.inputSchemaDepth,
      toolDefinitionBytes: config.limits.toolDefinitionBytes,
      toolDefinitionDepth: config.limits.toolDefinitionDepth,
      toolListBytes: config.limits.toolListBytes,
      resultHeadBytes: config.limits.maxResultBytes,
    },
  };
}
