// aish-tui configuration: copy to ~/.config/aish/config.ts (or pass --config FILE).
// Every key is optional; what is shown here are the defaults or typical values.
// config.js (same shape, `export default {...}`) and config.json work as well.
import type { AishConfigInput } from './src/services/config/schema';

const config: AishConfigInput = {
  // The models registry: `:model <name>` switches, `--model <name>` picks one at start.
  // When `models` is given it replaces the built-in registry (local, ollama, and cloud/openai
  // when OPENROUTER_API_KEY / OPENAI_API_KEY are set).
  models: {
    local: { baseUrl: 'http://127.0.0.1:8080/v1', model: 'local' }, // llama-server
    ollama: {
      baseUrl: 'http://127.0.0.1:11434/v1',
      model: 'llama3.2',
      temperature: 0.2,
      maxTokens: 4096, // max_tokens sent with each request (default: the server decides)
      // streamUsage: false, // never ask for usage in the stream (default: ask, stop if refused)
      // inlineReasoning: false, // keep a leading <think>…</think> in the answer (default: shown and folded as reasoning)
      // vision: true,          // the model takes images: @shot.png and pasted image paths go as image parts (default false: refused)
    },
    cloud: {
      baseUrl: 'https://openrouter.ai/api/v1',
      model: 'anthropic/claude-sonnet-4',
      keyEnv: 'OPENROUTER_API_KEY', // the API key is read from this variable (never logged)
      headers: { 'X-Title': 'aish-tui' },
    },
    // apiKey: '...' also works, but keyEnv keeps the secret out of the file.
  },
  defaultModel: 'local',

  // Replaces the built-in system prompt (which tells the model about tools and `CMD:` lines).
  // systemPrompt: 'You are a terse assistant.',

  mcp: {
    // Each server is either HTTP ({ url }) or stdio ({ command }). The key is its alias: tools
    // reach the model as `<alias>__<tool>`. Aliases use letters, digits, "-" and "_", no "__".
    servers: {
      boltzmann: {
        url: 'http://boltzmann.example:8080/mcp',
        authEnv: 'BOLTZMANN_MCP_TOKEN', // Bearer token from this variable
        // authToken: '...',            // a literal token wins over authEnv (keep secrets out of files)
        // transport: 'sse',            // force legacy HTTP+SSE ('http' forces streamable HTTP)
        // headers: { 'X-Tenant': 'lab' },
        // timeoutMs: 120000,           // per tool call
        // connectTimeoutMs: 30000,     // handshake and tool list
        // disabled: true,              // keep it in the file, do not connect
      },
      // A server that answers 401 with OAuth metadata gets OAuth with PKCE; all of this is optional.
      notes: {
        url: 'https://notes.example/mcp',
        oauth: {
          // clientId: 'aish-tui',        // a pre-registered client (default: dynamic registration)
          // clientSecret: '...',
          scopes: ['notes.read'],
          callbackPort: 0, // the loopback port for the browser's redirect (0: any free port)
          // clientMetadataUrl: 'https://aish.example/client.json', // Client ID Metadata Document
        },
      },
      everything: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-everything'],
        env: { LOG_LEVEL: 'warn' }, // added to a minimal environment (PATH, HOME, ...)
        // cwd: '/tmp',
      },
    },
    // Tool calls run only after you approve them, unless a rule here allows them.
    // `true` allows without asking, `false` always denies (deny wins).
    autoApprove: {
      builtin__calculator: true, // one tool
      'builtin__*': true, // every tool of one server
    },
    maxToolDepth: 8, // model -> tools -> model rounds per message
    // A tool call times out after this long without an answer. Each progress notification the
    // server sends starts the wait again, up to 10x this in all (20 minutes here); such a timeout
    // says how long the call really ran. A server's own `timeoutMs` overrides this for its tools.
    toolTimeoutMs: 120_000,
    connectTimeoutMs: 30_000,
    maxToolCallsPerAnswer: 32,
    // An idle HTTP server is pinged this often, so one that went away shows as failed instead of
    // ready (an unanswered ping fails after 10 s). 0 never pings.
    pingIntervalMs: 30_000,
  },

  // The built-in MCP server (calculator, get_time, roll_dice), alias `builtin`.
  builtin: true,

  // `CMD:` lines proposed by the model and `!command` typed by you.
  shell: {
    enabled: true,
    // shell: '/bin/bash',  // default: $SHELL, else /bin/sh
    timeoutMs: 120_000,
    maxOutputBytes: 65_536,
  },

  // One JSONL file per session under $XDG_STATE_HOME/aish/sessions (mode 0600).
  history: { enabled: true /* , dir: '/somewhere/else' */ },

  context: {
    useToolRole: true, // false: tool results go into the next user turn as `[tool: name]` blocks
    maxToolResultChars: 100_000, // larger results reach the model truncated, with a marker
  },

  broker: {
    firstByteTimeoutMs: 300_000, // a local model may take minutes to load
    idleTimeoutMs: 120_000,
    maxRetries: 2, // on 429 and 5xx, before the first byte only
  },

  // Bounds on what servers can make aish-tui hold or draw (tool-call timeouts, calls per answer and
  // loop depth are under mcp, the size of a result sent to the model under context).
  limits: {
    displayResultChars: 20_000, // of a tool result kept for the transcript (the session log keeps all)
    stdioMaxLineBytes: 8 * 1024 * 1024, // one message from a stdio server; longer: the server is dropped
    httpMaxMessageBytes: 64 * 1024 * 1024, // one JSON body or event from an HTTP server
    inputSchemaBytes: 65_536, // a tool with a larger input schema is withheld from the model
    inputSchemaDepth: 32,
  },

  ui: { sidebar: true, maxFps: 30 }, // maxFps bounds how often the screen is redrawn
};

export default config;
