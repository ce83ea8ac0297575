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
      maxTokens: 4096, // max_tokens sent with each request (default: the server decides); also the answer's reserve in the context budget
      // contextWindow: 8192, // the context window in tokens (default: asked of the server; see README "Context")
      // Request parameters passed to the server as given (model, messages, stream, stream_options
      // and tools cannot be set here). params.max_tokens / temperature win over the keys above.
      params: { top_p: 0.95, options: { num_ctx: 8192 } },
      // streamUsage: false, // never ask for usage in the stream (default: ask, stop if refused)
      // inlineReasoning: false, // keep a leading <think>…</think> in the answer (default: shown and folded as reasoning)
      contextWindow: 8192, // the model's context window in tokens; sizes the tool budget (mcp.toolSearch)
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
        // logLevel: 'warning',         // logging/setLevel: debug info notice warning error critical alert emergency
        // protocol: 'auto',            // 2026-07-28 when server/discover finds it, else initialize ('legacy', 'modern')
        // The server's sampling requests (it asks your model for an answer); unset keys come from
        // mcp.sampling. autoApprove answers without the frame: only for servers you trust.
        // sampling: { enabled: true, autoApprove: false, maxTokens: 1024, perMinute: 5 },
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
        // sandbox: { network: true, writable: ['~/.npm'] }, // confine it like shell.sandbox (Linux)
        // instructions: false,         // keep this server's instructions out of the system prompt
        // Which of its tools reach the model (globs on the tool's own name; disabledTools wins).
        // The others stay listed, switched off; the sidebar and :mcp enable can switch them on.
        // enabledTools: ['get-*', 'echo'],
        disabledTools: ['trigger-long-running-operation'],
        // alwaysLoad: true, // always send its tools in full, even when tool search is on
      },
    },
    // Tool calls run only after you approve them, unless a rule here allows them.
    // `true` allows without asking, `false` always denies (deny wins). Rules saved with `r` in a
    // tool frame (.aish/rules.json per project, rules.json here for all projects) apply beside
    // these; `:permissions` lists them and `:permissions delete N` removes one.
    autoApprove: {
      builtin__calculator: true, // one tool
      'builtin__*': true, // every tool of one server
    },
    // A rule allows a tool, not any arguments: a call whose arguments name a credential or key
    // path, aish-tui's own config or state files, hold a private key or a token, hold control or
    // invisible characters or a download-and-run command asks again (headless: denied) whatever
    // autoApprove says. A rule here names the argument and what it may be: a call whose arguments
    // all match runs without asking, even when the guard flagged those arguments (`allow: false`
    // denies instead). Globs starting with `/`, `~` or `$HOME` match the value read as a path
    // (`..`, `//`, `%2e` resolved, case kept); other globs match the value as it is.
    argumentRules: [
      // { tool: 'fs__read_file', args: { path: '~/.ssh/*.pub' } },
      // { tool: 'fs__*', args: { path: '~/prod/**' }, allow: false },
    ],
    argumentGuard: {
      // More credential paths (globs over the absolute path, case-insensitive), added to the
      // built-in list: **/.ssh/**, **/.gnupg/**, **/.aws/**, **/.azure/**, **/.config/gcloud/**,
      // **/.kube/**, **/.docker/config.json, **/.netrc, **/.npmrc, **/.pypirc, **/.git-credentials,
      // **/.config/gh/hosts.yml, **/.password-store/**, **/.local/share/keyrings/**, **/.vault-token,
      // **/.env, **/.env.*, **/*.env, **/*_rsa, **/*_dsa, **/*_ecdsa, **/*_ed25519, **/*.pem,
      // **/*.key, **/*.p12, **/*.pfx, **/*.keystore, **/*.kdbx, /etc/shadow, /etc/gshadow,
      // /etc/sudoers, /etc/sudoers.d/**.
      paths: [], // e.g. ['~/work/secrets/**']
      defaults: true, // false: only `paths` (aish-tui's own files, tokens, hidden characters are always checked)
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
    // Directories offered to servers as roots, after the working directory (and before --add-dir).
    // Relative ones are taken from the working directory; `~/` is your home. :roots add|remove changes them.
    roots: ['~/projects/shared-notes'],
    // Servers' instructions go into the system prompt under a heading each, cut at this many characters.
    maxInstructionsChars: 4_000,
    // Servers' sampling requests (README "Sampling"): each is shown for approval, answered by
    // `model` (a name from `models`; default: the model in use), and its answer shown again before
    // it goes back. A larger maxTokens is lowered to this; more requests per server per minute are
    // refused. `-p` refuses them unless --allow-sampling.
    sampling: { /* model: 'local', */ maxTokens: 4096, perMinute: 10 },
    // A tool description longer than this reaches the model cut, ending with a note that says so
    // (the sidebar and the tool details still show all of it).
    maxDescriptionChars: 2_000,
    // Tool budget (README, "Tool budget"): once the enabled tools' definitions cost more than
    // toolSearchThreshold of the model's contextWindow (toolSearchFallbackTokens while the window
    // is unknown), the model gets a built-in `tool_search` function and the tools it found instead
    // of every definition. 'always' searches whatever the cost, 'off' always sends every tool.
    toolSearch: 'auto',
    toolSearchThreshold: 0.1,
    toolSearchFallbackTokens: 4_000,
    toolSearchResults: 5, // tools one search returns
  },

  // The built-in MCP server (calculator, get_time, roll_dice), alias `builtin`.
  builtin: true,

  // `CMD:` lines proposed by the model and `!command` typed by you.
  shell: {
    enabled: true,
    // shell: '/bin/bash',  // default: $SHELL, else /bin/sh
    timeoutMs: 120_000,
    maxOutputBytes: 65_536,
    // Linux, with bubblewrap: read-only system, writable workspace and a private /tmp, home
    // secrets hidden, no network (README.md, "Sandbox"). Where it cannot be had, nothing runs.
    sandbox: false, // or true, or { writable: ['~/.cache'], network: true, hide: ['~/notes'], readable: ['/tmp/tools'] }
  },

  // One JSONL file per session under $XDG_STATE_HOME/aish/sessions (mode 0600).
  history: { enabled: true /* , dir: '/somewhere/else' */ },

  context: {
    useToolRole: true, // false: tool results go into the next user turn as `[tool: name]` blocks
    maxToolResultChars: 100_000, // larger results reach the model truncated, with a marker
    // Compact before a request would pass this share of the window left after the answer's
    // reserve (old tool results are left out first); false: only :compact compacts.
    autoCompactAt: 0.85,
    keepTurns: 2, // turns kept word for word after a compaction
    windowTimeoutMs: 4000, // how long the model's server is asked about its window
    // Windows are remembered in $XDG_STATE_HOME/aish/context-windows.json; one older than this
    // is asked again (0: every run). A server that contradicts it is asked again at once.
    windowMaxAgeHours: 24,
    // AGENTS.md files from the repository root down to the working directory join the system
    // prompt (all together cut at maxProjectDocChars). A project's own `.aish/config.*` merges over
    // this file once you trust its directory (asked at start; see README "Project context").
    projectDocs: true,
    maxProjectDocChars: 32_000,
  },

  broker: {
    firstByteTimeoutMs: 300_000, // a local model may take minutes to load
    idleTimeoutMs: 120_000,
    maxRetries: 2, // on 429 and 5xx, before the first byte only
  },

  // Bounds on what servers can make aish-tui hold or draw (tool-call timeouts, calls per answer and
  // loop depth are under mcp, the size of a result sent to the model under context).
  limits: {
    displayResultChars: 20_000, // of a tool result kept for the transcript
    maxResultBytes: 262_144, // of a tool result kept in memory and the session log; the whole result goes to a 0600 file in <sessions>/results/
    stdioMaxLineBytes: 8 * 1024 * 1024, // one message from a stdio server; longer: the server is dropped
    httpMaxMessageBytes: 64 * 1024 * 1024, // one JSON body or event from an HTTP server
    inputSchemaBytes: 65_536, // a tool with a larger input schema is withheld from the model
    inputSchemaDepth: 32,
    // A tool whose whole definition is larger or deeper than this is dropped from its server's
    // list before anything parses it, with a note; the server's other tools stay.
    toolDefinitionBytes: 262_144,
    toolDefinitionDepth: 64,
    toolListBytes: 8 * 1024 * 1024, // one server's tool list; the rest of a longer one is dropped
  },

  ui: {
    sidebar: true,
    maxFps: 30, // bounds how often the screen is redrawn
    // An answer that ends or a frame that waits while the terminal is in the background:
    // 'auto' (desktop notification where the terminal shows one, else the bell), 'bell', 'osc9', 'osc777', 'off'.
    notify: 'auto',
    // 'auto' asks the terminal for its background colour (OSC 11); 'dark' or 'light' choose. NO_COLOR wins.
    theme: 'auto',
  },
};

export default config;
