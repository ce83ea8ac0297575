import { z } from 'zod';
import { aliasProblem } from './checks';

export { aliasProblem, isStdioServer } from './checks';

// The user's config is validated whole before anything starts, so every message can name the key
// path. Objects are strict: a misspelt key is reported instead of silently ignored.

const httpUrl = z.string().refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), {
  error: (issue) => `expected a URL, got ${JSON.stringify(issue.input)}`,
});

const headers = z.record(z.string(), z.string());
const positiveInt = z.number().int().positive();

/** Alias rules keep `alias__tool` unambiguous: the leftmost `__` is always the split point. */
export const ALIAS_PATTERN = /^[A-Za-z0-9-]([A-Za-z0-9_-]*[A-Za-z0-9-])?$/;

const aliasKey = z.string().superRefine((alias, ctx) => {
  const problem = aliasProblem(alias);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/**
 * Request keys aish-tui writes itself: a model's `params` may not set them (each says where it
 * comes from instead), so a pass-through parameter never silently changes what a request is.
 */
export const RESERVED_PARAMS: Readonly<Record<string, string>> = {
  model: "the model's `model` key names it",
  messages: 'the conversation is sent as messages',
  stream: 'aish-tui always streams',
  stream_options: 'set streamUsage instead',
  tools: 'the MCP servers supply the tools',
};

/** Request parameters passed through to the server as given (`temperature`, `top_p`, `seed`, `options`, …). */
const paramsSchema = z.record(z.string(), z.unknown()).superRefine((params, ctx) => {
  for (const key of Object.keys(params)) {
    const why = RESERVED_PARAMS[key];
    if (why) ctx.addIssue({ code: 'custom', path: [key], message: `cannot be set in params: ${why}` });
  }
  if (params.max_tokens !== undefined && !(Number.isInteger(params.max_tokens) && (params.max_tokens as number) > 0)) {
    ctx.addIssue({ code: 'custom', path: ['max_tokens'], message: 'expected a positive whole number (it is also the reserve for the answer)' });
  }
});

export const modelSchema = z.strictObject({
  baseUrl: httpUrl,
  model: z.string().min(1),
  keyEnv: z.string().min(1).optional(),
  apiKey: z.string().min(1).optional(),
  headers: headers.optional(),
  temperature: z.number().min(0).max(2).optional(),
  maxTokens: positiveInt.optional(),
  /**
   * The context window in tokens; overrides what the server reports (services/context/window.ts).
   * Budgets that depend on it (tool search in `auto` mode) use `mcp.toolSearchFallbackTokens`
   * while it is unknown.
   */
  contextWindow: positiveInt.optional(),
  /**
   * Passed through into every chat request as given, after aish-tui's own keys (`temperature` and
   * `maxTokens` above are shorthands for two of them; `params` wins when both are set). aish-tui
   * itself reads only `max_tokens`: the answer's reserve in the context budget.
   */
  params: paramsSchema.optional(),
  /**
   * Ask for token usage in the stream (`stream_options.include_usage`). Default: asked, and dropped
   * for the session if the server rejects the field; false never sends it.
   */
  streamUsage: z.boolean().optional(),
  /**
   * A `<think>…</think>` (or `<thinking>`) block that opens the answer text is the model's
   * reasoning, sent inline by servers without a reasoning parser: shown and folded as reasoning,
   * never sent back as the answer. Default true; false keeps such text as part of the answer.
   */
  inlineReasoning: z.boolean().optional(),
  /** The model takes images: `@shot.png` and pasted image paths are sent as image parts. Default false. */
  vision: z.boolean().optional(),
});

/** MCP log levels, least severe first (`logging/setLevel`). */
export const LOG_LEVEL_NAMES = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const;

/** How one server may use the model (sampling); unset keys take `mcp.sampling`'s. */
const serverSamplingSchema = z.strictObject({
  /** false: this server's sampling requests are refused without asking. */
  enabled: z.boolean().optional(),
  /** Requests are answered without a frame (still within the limits). Only for servers you trust. */
  autoApprove: z.boolean().optional(),
  maxTokens: positiveInt.optional(),
  perMinute: positiveInt.optional(),
});
/** Tool-name globs (`*` any run of characters, `?` one), matched against the tool's own name. */
const toolGlobs = z.array(z.string().min(1)).optional();

const serverCommon = {
  timeoutMs: positiveInt.optional(),
  connectTimeoutMs: positiveInt.optional(),
  disabled: z.boolean().optional(),
  /** false: the server's `instructions` are not added to the system prompt (shown in its details all the same). */
  instructions: z.boolean().optional(),
  /** The least severe log messages the server is asked to send (if it declares logging). */
  logLevel: z.enum(LOG_LEVEL_NAMES).optional(),
  /** `auto` (default): 2026-07-28 when `server/discover` finds it, else `initialize`; `legacy`: `initialize` only; `modern`: 2026-07-28 only. */
  protocol: z.enum(['auto', 'legacy', 'modern']).optional(),
  sampling: serverSamplingSchema.optional(),
  /** Only tools matching one of these reach the model (the others are listed, switched off). */
  enabledTools: toolGlobs,
  /** Tools matching one of these do not reach the model; wins over enabledTools. */
  disabledTools: toolGlobs,
  /** Always send this server's tools in full, even when tool search is on. */
  alwaysLoad: z.boolean().optional(),
};

export const httpServerSchema = z.strictObject({
  url: httpUrl,
  transport: z.enum(['http', 'sse']).optional(),
  authToken: z.string().min(1).optional(),
  authEnv: z.string().min(1).optional(),
  headers: headers.optional(),
  oauth: z
    .strictObject({
      clientId: z.string().optional(),
      clientSecret: z.string().optional(),
      scopes: z.array(z.string()).optional(),
      callbackPort: z.number().int().min(0).max(65535).optional(),
      /** An https URL where this client's metadata document is published (OAuth Client ID Metadata Documents). */
      clientMetadataUrl: httpUrl.optional(),
    })
    .optional(),
  ...serverCommon,
});

/**
 * `true`, or what to allow besides the workspace: more writable paths, the network, more hidden
 * paths, paths under /tmp to see read-only (README.md, "Sandbox"). Linux with bubblewrap only; elsewhere the command is refused.
 */
export const sandboxSchema = z.union([
  z.boolean(),
  z.strictObject({
    writable: z.array(z.string().min(1)).optional(),
    network: z.boolean().optional(),
    hide: z.array(z.string().min(1)).optional(),
    readable: z.array(z.string().min(1)).optional(),
  }),
]);

export const stdioServerSchema = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
  sandbox: sandboxSchema.optional(),
  ...serverCommon,
});

export const serverSchema = z.union([httpServerSchema, stdioServerSchema]);

const approveKey = z.string().superRefine((key, ctx) => {
  const split = key.indexOf('__');
  const alias = split > 0 ? key.slice(0, split) : '';
  const tool = split > 0 ? key.slice(split + 2) : '';
  if (split <= 0 || tool.length === 0) {
    ctx.addIssue({ code: 'custom', message: `expected "alias__tool" or "alias__*", got ${JSON.stringify(key)}` });
    return;
  }
  const problem = aliasProblem(alias);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
  if (tool.includes('*') && tool !== '*') {
    ctx.addIssue({ code: 'custom', message: `only "alias__*" globs are allowed, got ${JSON.stringify(key)}` });
  }
});

/**
 * An allow (or deny) rule narrowed by its arguments: the tool (`alias__tool` or `alias__*`) and,
 * per top-level argument, a glob its string value must match. A glob that starts with `/`, `~` or
 * `$HOME` is matched against the value read as a path (normalised like the argument guard does);
 * any other glob against the value as it is. Such a rule is the one way a call the argument guard
 * flags runs without asking (and in headless mode at all): it names the argument.
 */
export const argumentRuleSchema = z.strictObject({
  tool: approveKey,
  args: z.record(z.string().min(1), z.string().min(1)).refine((args) => Object.keys(args).length > 0, { error: 'name at least one argument' }),
  allow: z.boolean().default(true),
});

export const configSchema = z.strictObject({
  models: z.record(z.string().min(1), modelSchema).optional(),
  defaultModel: z.string().min(1).optional(),
  systemPrompt: z.string().optional(),
  mcp: z
    .strictObject({
      servers: z.record(aliasKey, serverSchema).default({}),
      autoApprove: z.record(approveKey, z.boolean()).default({}),
      argumentRules: z.array(argumentRuleSchema).default([]),
      /** Credential and key paths that send an allowed call back to "ask" (see tools/argument-guard.ts). */
      argumentGuard: z
        .strictObject({
          /** More globs, added to the built-in list. */
          paths: z.array(z.string().min(1)).default([]),
          /** false: only `paths` (aish-tui's own files, tokens and hidden characters are always checked). */
          defaults: z.boolean().default(true),
        })
        .prefault({}),
      maxToolDepth: z.number().int().min(0).default(8),
      toolTimeoutMs: positiveInt.default(120_000),
      connectTimeoutMs: positiveInt.default(30_000),
      maxToolCallsPerAnswer: positiveInt.default(32),
      /** Longest server `instructions` added to the system prompt, per server (characters; longer ones are cut). */
      maxInstructionsChars: positiveInt.default(4_000),
      /** How often an idle HTTP server is pinged to notice that it went away; 0 never pings. */
      pingIntervalMs: z.number().int().min(0).default(30_000),
      /** Directories offered to servers as roots besides the working directory (and `--add-dir`); `~/` is the home directory. */
      roots: z.array(z.string().min(1)).default([]),
      /** Servers' sampling requests: which model answers them, and the limits every server gets. */
      sampling: z
        .strictObject({
          /** A name from `models`; default: the model in use. */
          model: z.string().min(1).optional(),
          /** The most tokens one request may ask for; a larger `maxTokens` is lowered to this. */
          maxTokens: positiveInt.default(4096),
          /** Requests per server per minute; more are refused. */
          perMinute: positiveInt.default(10),
        })
        .prefault({}),
      /** Longest tool description sent to the model; a longer one is cut, with a note saying so. */
      maxDescriptionChars: positiveInt.default(2_000),
      /**
       * Tool search: `auto` offers the model a `tool_search` function instead of the tools' full
       * definitions once these pass `toolSearchThreshold` of the context window; `always` does so
       * whatever they cost; `off` always sends every enabled tool.
       */
      toolSearch: z.enum(['auto', 'always', 'off']).default('auto'),
      /** Share of the context window the tool definitions may take before `auto` searches. */
      toolSearchThreshold: z.number().gt(0).max(1).default(0.1),
      /** The tool budget in tokens while the model's context window is unknown. */
      toolSearchFallbackTokens: positiveInt.default(4_000),
      /** How many tools one search returns. */
      toolSearchResults: z.number().int().min(1).max(20).default(5),
    })
    .prefault({}),
  builtin: z.boolean().default(true),
  shell: z
    .strictObject({
      enabled: z.boolean().default(true),
      shell: z.string().optional(),
      timeoutMs: positiveInt.default(120_000),
      maxOutputBytes: positiveInt.default(64 * 1024),
      sandbox: sandboxSchema.default(false),
    })
    .prefault({}),
  history: z
    .strictObject({
      enabled: z.boolean().default(true),
      dir: z.string().optional(),
    })
    .prefault({}),
  context: z
    .strictObject({
      useToolRole: z.boolean().default(true),
      maxToolResultChars: positiveInt.default(100_000),
      /**
       * Compact before a request whose prompt would pass this share of the window left after the
       * answer's reserve (old tool results are shortened first); false never compacts on its own.
       */
      autoCompactAt: z.union([z.number().gt(0).max(1), z.literal(false)]).default(0.85),
      /** Turns kept verbatim after a compaction (the rest becomes the summary); old tool results beyond them are shortened first. */
      keepTurns: positiveInt.max(50).default(2),
      /** How long the model's server is asked about its window before it counts as unknown. */
      windowTimeoutMs: positiveInt.default(4000),
      /** A window remembered from an earlier run (`<stateDir>/context-windows.json`) is asked again when older than this; 0: every run. */
      windowMaxAgeHours: z.number().min(0).max(24 * 365).default(24),
      /** AGENTS.md files from the repository root down to the working directory join the system prompt. */
      projectDocs: z.boolean().default(true),
      /** Most characters of them all together (the rest is cut, with a note). */
      maxProjectDocChars: positiveInt.default(32_000),
    })
    .prefault({}),
  broker: z
    .strictObject({
      firstByteTimeoutMs: positiveInt.default(300_000),
      idleTimeoutMs: positiveInt.default(120_000),
      maxRetries: z.number().int().min(0).max(5).default(2),
    })
    .prefault({}),
  limits: z
    .strictObject({
      displayResultChars: positiveInt.default(20_000),
      // Past this, a tool result's whole text goes to a side file; memory and the session log keep its head.
      maxResultBytes: positiveInt.default(256 * 1024),
      stdioMaxLineBytes: positiveInt.default(8 * 1024 * 1024),
      httpMaxMessageBytes: positiveInt.default(64 * 1024 * 1024),
      inputSchemaBytes: positiveInt.default(64 * 1024),
      inputSchemaDepth: positiveInt.default(32),
      toolDefinitionBytes: positiveInt.default(256 * 1024),
      toolDefinitionDepth: positiveInt.default(64),
      toolListBytes: positiveInt.default(8 * 1024 * 1024),
    })
    .prefault({}),
  ui: z
    .strictObject({
      sidebar: z.boolean().default(true),
      maxFps: z.number().int().min(1).max(120).default(30),
      /**
       * Told when an answer ends or a frame waits while the terminal is not focused: `auto` (a
       * desktop notification where the terminal is known to show one, else the bell), `bell`,
       * `osc9`, `osc777`, or `off`.
       */
      notify: z.enum(['auto', 'bell', 'osc9', 'osc777', 'off']).default('auto'),
      /** Colours for a dark or light background; `auto` asks the terminal (OSC 11). NO_COLOR wins. */
      theme: z.enum(['auto', 'dark', 'light']).default('auto'),
    })
    .prefault({}),
});

/** What a config file may contain (every key optional). */
export type AishConfigInput = z.input<typeof configSchema>;
/** The parsed config file, defaults filled in. */
export type ParsedConfig = z.output<typeof configSchema>;
export type ArgumentRuleConfig = z.output<typeof argumentRuleSchema>;
export type ModelEntry = z.output<typeof modelSchema>;
export type HttpServerConfig = z.output<typeof httpServerSchema>;
export type StdioServerConfig = z.output<typeof stdioServerSchema>;
export type ServerConfig = HttpServerConfig | StdioServerConfig;
