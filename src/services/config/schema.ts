import { z } from 'zod';

// The user's config is validated whole before anything starts, so every message can name the key
// path. Objects are strict: a misspelt key is reported instead of silently ignored.

const httpUrl = z.string().refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), {
  error: (issue) => `expected a URL, got ${JSON.stringify(issue.input)}`,
});

const headers = z.record(z.string(), z.string());
const positiveInt = z.number().int().positive();

/** Alias rules keep `alias__tool` unambiguous: the leftmost `__` is always the split point. */
export const ALIAS_PATTERN = /^[A-Za-z0-9-]([A-Za-z0-9_-]*[A-Za-z0-9-])?$/;

export function aliasProblem(alias: string): string | undefined {
  if (alias.length === 0) return 'an alias must not be empty';
  if (!/^[A-Za-z0-9_-]+$/.test(alias)) return `alias ${JSON.stringify(alias)} may only use letters, digits, "_" and "-"`;
  if (alias.includes('__')) return `alias ${JSON.stringify(alias)} must not contain "__" (it separates alias and tool)`;
  if (alias.startsWith('_') || alias.endsWith('_')) return `alias ${JSON.stringify(alias)} must not start or end with "_"`;
  if (alias.length > 32) return `alias ${JSON.stringify(alias)} is longer than 32 characters`;
  return undefined;
}

const aliasKey = z.string().superRefine((alias, ctx) => {
  const problem = aliasProblem(alias);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
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

const serverCommon = {
  timeoutMs: positiveInt.optional(),
  connectTimeoutMs: positiveInt.optional(),
  disabled: z.boolean().optional(),
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

export const stdioServerSchema = z.strictObject({
  command: z.string().min(1),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  cwd: z.string().optional(),
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

export const configSchema = z.strictObject({
  models: z.record(z.string().min(1), modelSchema).optional(),
  defaultModel: z.string().min(1).optional(),
  systemPrompt: z.string().optional(),
  mcp: z
    .strictObject({
      servers: z.record(aliasKey, serverSchema).default({}),
      autoApprove: z.record(approveKey, z.boolean()).default({}),
      maxToolDepth: z.number().int().min(0).default(8),
      toolTimeoutMs: positiveInt.default(120_000),
      connectTimeoutMs: positiveInt.default(30_000),
      maxToolCallsPerAnswer: positiveInt.default(32),
      /** How often an idle HTTP server is pinged to notice that it went away; 0 never pings. */
      pingIntervalMs: z.number().int().min(0).default(30_000),
    })
    .prefault({}),
  builtin: z.boolean().default(true),
  shell: z
    .strictObject({
      enabled: z.boolean().default(true),
      shell: z.string().optional(),
      timeoutMs: positiveInt.default(120_000),
      maxOutputBytes: positiveInt.default(64 * 1024),
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
      stdioMaxLineBytes: positiveInt.default(8 * 1024 * 1024),
      httpMaxMessageBytes: positiveInt.default(64 * 1024 * 1024),
      inputSchemaBytes: positiveInt.default(64 * 1024),
      inputSchemaDepth: positiveInt.default(32),
    })
    .prefault({}),
  ui: z
    .strictObject({
      sidebar: z.boolean().default(true),
      maxFps: z.number().int().min(1).max(120).default(30),
    })
    .prefault({}),
});

/** What a config file may contain (every key optional). */
export type AishConfigInput = z.input<typeof configSchema>;
/** The parsed config file, defaults filled in. */
export type ParsedConfig = z.output<typeof configSchema>;
export type ModelEntry = z.output<typeof modelSchema>;
export type HttpServerConfig = z.output<typeof httpServerSchema>;
export type StdioServerConfig = z.output<typeof stdioServerSchema>;
export type ServerConfig = HttpServerConfig | StdioServerConfig;

export function isStdioServer(server: ServerConfig): server is StdioServerConfig {
  return 'command' in server;
}
