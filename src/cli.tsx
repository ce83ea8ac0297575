// The app's entry, imported by boot.ts after the start-up paint. Only argument parsing is loaded eagerly so `--help` and `--version` answer at once;
// the UI, the MCP client and the headless runner are imported when they are needed.
// First, so that it holds before anything else allocates.
import './cli/young-generation';
import './cli/optimize-later';
import { parseCliArgs, USAGE, type CliArgs } from './cli/args';
import { requireWebAssembly } from './cli/engine-check';
import { ConfigError } from './services/config/errors';
import type { ImportNotice } from './services/config/mcp-import';
import { sanitize, sanitizeLabel } from './services/terminal/sanitize';
import { VERSION } from './version';

// These lines quote config files, command lines and servers' words: escaped like everything else
// that reaches the terminal.
function fail(error: unknown): number {
  if (error instanceof ConfigError) {
    for (const line of error.lines) process.stderr.write(`aish-tui: ${sanitizeLabel(line)}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`aish-tui: ${sanitize(message)}\n`);
  return 1;
}

async function run(args: CliArgs): Promise<number> {
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (args.version) {
    process.stdout.write(`aish-tui ${VERSION}\n`);
    return 0;
  }
  const [command] = args.command;
  if (command !== undefined && command !== 'mcp') {
    throw new ConfigError([`unknown command ${JSON.stringify(command)}`, "Run 'aish-tui --help' for usage."]);
  }
  requireWebAssembly();
  const { loadConfig } = await import('./services/config/load');
  const interactive = command === undefined && args.print === undefined && process.stdout.isTTY && process.stdin.isTTY;
  // The project's config is read only from a directory the user trusts (cli/project.ts).
  const { chooseProjectConfig, applyProjectDocs } = await import('./cli/project');
  const { aishPaths } = await import('./services/config/paths');
  const project = await chooseProjectConfig({ cwd: process.cwd(), stateDir: aishPaths(process.env).stateDir, env: process.env, interactive, trustFlag: args.trustProject, stderr: (text) => process.stderr.write(text) });
  const config = await loadConfig({
    cli: { configPath: args.config, model: args.model, baseUrl: args.baseUrl, apiKeyEnv: args.apiKeyEnv },
    ...(project.projectFile ? { projectFile: project.projectFile } : {}),
  });
  if (command === undefined) applyProjectDocs(config, process.cwd());
  let notices: ImportNotice[] = [...project.notices];
  if (args.mcpConfig.length > 0) {
    const { importMcpConfigs } = await import('./services/config/mcp-import');
    const imported = await importMcpConfigs(args.mcpConfig, config.mcp.servers, { configLabel: config.sourcePath });
    config.mcp.servers = imported.servers;
    notices = imported.notices;
  }
  // `--add-dir` adds to the config's roots (resolved against the working directory like them).
  if (args.addDir.length > 0) config.mcp.roots = [...config.mcp.roots, ...args.addDir];
  // Renamed or skipped imported servers: the full-screen UI shows these in its transcript.
  if (!interactive) for (const notice of notices) process.stderr.write(`aish-tui: ${sanitizeLabel(notice.text)}\n`);
  if (command === 'mcp') {
    const { runMcpCommand } = await import('./cli/mcp-command');
    return runMcpCommand(config, args, { stdout: (text) => process.stdout.write(text), stderr: (text) => process.stderr.write(text) });
  }
  if (args.print !== undefined) {
    const { runHeadless } = await import('./cli/headless');
    return runHeadless(config, args, { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() });
  }
  if (!process.stdout.isTTY || !process.stdin.isTTY) {
    throw new ConfigError(['the full-screen UI needs a terminal; use -p "<prompt>" for scripts']);
  }
  let tuiArgs = args;
  if (args.continueLast || args.resume !== undefined) {
    // Checked before the screen switches, so a wrong id is a plain one-line error (exit 2).
    const { resolveResume } = await import('./runtime/session-log');
    const resume = resolveResume(config, { continueLast: args.continueLast, ...(args.resume !== undefined ? { resume: args.resume } : {}) });
    tuiArgs = { ...args, continueLast: false, resume };
  }
  // Before the screen switches: a server that cannot say its model id is a plain one-line error.
  const { resolveAdHocModel } = await import('./cli/ad-hoc-model');
  await resolveAdHocModel(config, process.env, (text) => notices.push({ level: 'info', text }));
  const { runTui } = await import('./cli/tui');
  return runTui(config, tuiArgs, notices);
}

let args: CliArgs;
try {
  args = parseCliArgs(process.argv.slice(2));
} catch (error) {
  process.exit(fail(error));
}
run(args).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.exitCode = fail(error);
  },
);
