import { parseArgs } from 'node:util';
import { ConfigError } from '../services/config/errors';

/** Everything the command line can say. Parsing is strict: an unknown flag is a usage error (exit 2). */
export interface CliArgs {
  help: boolean;
  version: boolean;
  config?: string;
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  mcpConfig: string[];
  /** Headless prompt (`-p`); `-` reads it from stdin. */
  print?: string;
  outputFormat: 'text' | 'json' | 'stream-json';
  autoApprove: string[];
  allowCmd: boolean;
  /** Headless: answer servers' sampling requests with the model without asking (within the limits). */
  allowSampling: boolean;
  /** Headless: a tool whose definition changed since it was pinned is accepted (re-pinned) instead of denied. */
  acceptChangedTools: boolean;
  /** Headless: a tool never approved before may run under a server-wide rule (`alias__*`). */
  acceptNewTools: boolean;
  maxToolDepth?: number;
  continueLast: boolean;
  resume?: string;
  json: boolean;
  noSidebar: boolean;
  /** `--add-dir`: more directories offered to MCP servers as roots. */
  addDir: string[];
  /** `--elicitation`: answers for servers that ask for input in -p and `mcp call` (JSON, or @file). */
  elicitation?: string;
  /** `--trust-project`: use the working directory's `.aish/config.*` without asking (this run). */
  trustProject: boolean;
  /** Positional words: a subcommand such as `mcp tools`. */
  command: string[];
}

export const USAGE = `Usage: aish-tui [options]
       aish-tui -p "<prompt>" [options]
       aish-tui mcp list|tools|tool <alias__tool>|call <alias__tool> [json-args] [--json]
       aish-tui mcp resources <alias>|read <alias> <uri>|prompts <alias> [--json]
       aish-tui mcp login <alias>

A full-screen terminal AI chat for OpenAI-compatible endpoints and MCP servers.

Options:
  -h, --help                  show this help and exit
  -v, --version               print the version and exit
      --config <file>         config file (.ts, .js or .json); else $AISH_CONFIG,
                              else $XDG_CONFIG_HOME/aish/config.{ts,js,json}
  -m, --model <name>          model from the registry to start with
                              (with --base-url: the model id to send; without
                              it, the server's only or first model)
      --base-url <url>        use this OpenAI-compatible endpoint (e.g.
                              http://127.0.0.1:8080/v1) instead of the registry
      --api-key-env <var>     read the API key from this environment variable
      --mcp-config <file>     import MCP servers from a {"mcpServers": {...}} file
                              (Claude Desktop / VS Code / Cursor shape); repeatable
  -c, --continue              resume the most recent session
  -r, --resume <id>           resume the session with this id
      --no-sidebar            start with the MCP sidebar hidden
      --add-dir <dir>         offer this directory to MCP servers as a root too
                              (besides the working directory); repeatable
      --trust-project         use the project config (.aish/config.*) of this
                              directory without asking (otherwise only once trusted)

Headless (no UI, for scripts):
  -p, --print <prompt>        answer one prompt and exit; "-" reads it from stdin
      --output-format <fmt>   text (final answer, default), json (one object),
                              stream-json (one JSON object per line)
      --auto-approve <rule>   allow tool calls matching alias__tool or alias__*
                              (repeatable); everything else is denied
      --allow-cmd             run proposed CMD: lines (otherwise only reported)
      --allow-sampling        answer MCP servers' sampling requests with the model,
                              within the limits, saying on stderr what was sampled
                              (otherwise they are refused)
      --accept-changed-tools  run allowed tools whose definition changed since it was
                              first seen (otherwise such calls are denied)
      --accept-new-tools      let alias__* rules run tools never approved before
                              (otherwise such calls are denied)
      --max-tool-depth <n>    tool rounds per prompt (0 = report calls, run none)
      --elicitation <json|@file>
                              answers for servers that ask for input (also for
                              mcp call): {"field": value, "<alias>": {"field": value}};
                              without it such requests are declined

Subcommands:
  mcp list                    connect to the configured servers and list them
  mcp tools                   list every tool as alias__tool
  mcp tool <alias__tool>      show one tool's description and input schema
  mcp call <alias__tool> [json-args]
                              call a tool (asks nothing: you typed the call)
  mcp login <alias>           sign in to an OAuth server through the browser; the other
                              subcommands and -p never wait for a sign-in
      --json                  machine-readable output for the mcp subcommands

Exit codes: 0 ok, 1 model or stream error, 2 usage or config error,
            3 (-p) no complete answer: token limit, content filter or tool-depth limit,
            130 interrupted.`;

export function parseCliArgs(argv: string[]): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
        config: { type: 'string' },
        model: { type: 'string', short: 'm' },
        'base-url': { type: 'string' },
        'api-key-env': { type: 'string' },
        'mcp-config': { type: 'string', multiple: true },
        print: { type: 'string', short: 'p' },
        'output-format': { type: 'string' },
        'auto-approve': { type: 'string', multiple: true },
        'allow-cmd': { type: 'boolean' },
        'allow-sampling': { type: 'boolean' },
        'accept-changed-tools': { type: 'boolean' },
        'accept-new-tools': { type: 'boolean' },
        'max-tool-depth': { type: 'string' },
        continue: { type: 'boolean', short: 'c' },
        resume: { type: 'string', short: 'r' },
        json: { type: 'boolean' },
        'no-sidebar': { type: 'boolean' },
        'add-dir': { type: 'string', multiple: true },
        elicitation: { type: 'string' },
        'trust-project': { type: 'boolean' },
      },
    });
  } catch (error) {
    // parseArgs' messages already name the flag ("Unknown option '--frobnicate'"), except when a
    // value starts with "-": it calls that ambiguous without saying what to do.
    const full = (error as Error).message;
    const message = full.split('\n')[0]!;
    const ambiguous = /^Option '(-[^']+)' argument is ambiguous/.exec(message);
    if (ambiguous) {
      const given = ambiguous[1]!;
      const long = /use '(--[\w-]+)=-XYZ'/.exec(full)?.[1] ?? given;
      const value = argv[argv.indexOf(given) + 1] ?? '';
      throw new ConfigError([`${given}: the value ${JSON.stringify(value)} looks like an option; write ${long}=${value} if it is the value`, "Run 'aish-tui --help' for usage."]);
    }
    throw new ConfigError([message.replace(/\. To specify a positional.*$/, ''), "Run 'aish-tui --help' for usage."]);
  }
  const values = parsed.values;
  const outputFormat = values['output-format'] ?? 'text';
  if (outputFormat !== 'text' && outputFormat !== 'json' && outputFormat !== 'stream-json') {
    throw new ConfigError([`--output-format: expected text, json or stream-json, got ${JSON.stringify(outputFormat)}`]);
  }
  let maxToolDepth: number | undefined;
  if (values['max-tool-depth'] !== undefined) {
    const text = values['max-tool-depth'];
    maxToolDepth = Number(text);
    if (!/^\d+$/.test(text) || !Number.isSafeInteger(maxToolDepth)) {
      throw new ConfigError([`--max-tool-depth: expected a whole number >= 0, got ${JSON.stringify(text)}`]);
    }
  }
  if (values.continue && values.resume !== undefined) {
    throw new ConfigError(['--continue and --resume cannot be used together']);
  }
  return {
    help: values.help ?? false,
    version: values.version ?? false,
    config: values.config,
    model: values.model,
    baseUrl: values['base-url'],
    apiKeyEnv: values['api-key-env'],
    mcpConfig: values['mcp-config'] ?? [],
    print: values.print,
    outputFormat,
    autoApprove: values['auto-approve'] ?? [],
    allowCmd: values['allow-cmd'] ?? false,
    allowSampling: values['allow-sampling'] ?? false,
    acceptChangedTools: values['accept-changed-tools'] ?? false,
    acceptNewTools: values['accept-new-tools'] ?? false,
    maxToolDepth,
    continueLast: values.continue ?? false,
    resume: values.resume,
    json: values.json ?? false,
    noSidebar: values['no-sidebar'] ?? false,
    addDir: values['add-dir'] ?? [],
    ...(values.elicitation !== undefined ? { elicitation: values.elicitation } : {}),
    trustProject: values['trust-project'] ?? false,
    command: parsed.positionals,
  };
}
