// `aish-tui -p "<prompt>"`: the conversation loop with no UI, for scripts and tests. It never
// asks: tool calls run only when a config rule or `--auto-approve` allows them, proposed commands
// are reported and run only with `--allow-cmd`.
import { ConfigError } from '../services/config/errors';
import type { AppConfig } from '../services/config/load';
import { DEPTH_LIMIT_STATUS } from '../services/conversation/index';
import type { ConversationEvent } from '../services/conversation/types';
import { sanitize, sanitizeLabel, terminalSafeJson } from '../services/terminal/sanitize';
import { createRuntime, type Runtime } from '../runtime/runtime';
import { resolveAdHocModel } from './ad-hoc-model';
import type { CliArgs } from './args';
import { HeadlessReport } from './headless-output';
import { elicitationFromOption } from './elicitation-option';
import { attachFromPrompt } from './headless-attachments';

export interface HeadlessIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

const MAX_STDIN_PROMPT_BYTES = 16 * 1024 * 1024;

async function readPrompt(args: CliArgs, stdin: NodeJS.ReadableStream): Promise<string> {
  if (args.print !== '-') return args.print ?? '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_STDIN_PROMPT_BYTES) throw new ConfigError([`-p -: the prompt on stdin is larger than ${MAX_STDIN_PROMPT_BYTES / 1024 / 1024} MB`]);
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** Writes and waits for the pipe to take it, so a fast exit never cuts the output short. */
function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    if ((stream as { destroyed?: boolean }).destroyed) return resolve();
    if (stream.write(text)) return resolve();
    stream.once('drain', () => resolve());
    stream.once('error', () => resolve());
  });
}

export async function runHeadless(config: AppConfig, args: CliArgs, io: HeadlessIo): Promise<number> {
  const prompt = await readPrompt(args, io.stdin);
  if (prompt.trim().length === 0) throw new ConfigError([args.print === '-' ? '-p -: no prompt on stdin' : '-p: the prompt is empty']);

  // Notes carry server and model text (errors, server names): never raw escapes on a terminal.
  const note = (line: string): void => void io.stderr.write(`aish-tui: ${sanitizeLabel(line)}\n`);
  // Nobody is there to ask: what no rule allows is denied, a changed tool too unless
  // --accept-changed-tools makes the current definition the pin; nobody signs in through a
  // browser either (a server that needs it is reported, not awaited).
  // A server that asks for input gets the --elicitation answers, or a decline; stderr says which.
  const elicit = elicitationFromOption(args.elicitation, note);
  let runtime: Runtime;
  try {
    runtime = createRuntime(config, {
      env: io.env,
      cwd: io.cwd,
      headless: { allow: args.autoApprove, acceptChangedTools: args.acceptChangedTools, acceptNewTools: args.acceptNewTools },
      interactive: false,
      elicit,
      report: (_level, text) => note(text),
      sampling: { unattended: args.allowSampling },
    });
  } catch (error) {
    throw new ConfigError([(error as Error).message]);
  }
  // Closing servers is best effort: the answer is complete and must still be printed.
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= runtime.close().catch((error: unknown) => note(`closing MCP servers: ${(error as Error).message}`)));
  try {
    return await answer(runtime, prompt, args, io, note, close);
  } finally {
    await close();
  }
}

/** The prompt through the runtime's conversation loop, printed in the chosen format; the exit code. */
async function answer(runtime: Runtime, prompt: string, args: CliArgs, io: HeadlessIo, note: (line: string) => void, close: () => Promise<void>): Promise<number> {
  const { config, mcp } = runtime;
  await resolveAdHocModel(config, io.env, note);
  const model = config.models[config.defaultModel];
  if (!model) throw new ConfigError([`no model named ${JSON.stringify(config.defaultModel)}`]);
  const log = runtime.sessionLog({ continueLast: args.continueLast, ...(args.resume !== undefined ? { resume: args.resume } : {}) }, { model: () => model.name, onError: note });
  const history = log.current();
  for (const warning of history.warnings) note(warning);

  const format = args.outputFormat;
  // A late result (an operation id first, the result later as progress: seed-style async servers)
  // that arrives before the run ends is reported: stderr, a `late_result` line in stream-json,
  // `late_results` in json. The run does not wait for one and the model does not get it (README.md).
  const late: Array<{ tool: string; progress: number; total: number | null; message: string }> = [];
  const unsubscribe = mcp.subscribe((event) => {
    if (event.type === 'status' && event.level !== 'info') note(event.message);
    if (event.type === 'late-progress') {
      const entry = { tool: `${event.alias}__${event.tool}`, progress: event.progress, total: event.total ?? null, message: event.message };
      late.push(entry);
      note(`${entry.tool} reported after its call had returned (progress ${entry.progress}${entry.total !== null ? `/${entry.total}` : ''}): ${entry.message}`);
      if (format === 'stream-json') void write(io.stdout, `${terminalSafeJson({ type: 'late_result', ...entry })}\n`);
    }
  });
  const controller = new AbortController();
  const onSignal = () => controller.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  // A reader that went away (`aish-tui -p ... | head -1`) ends the run instead of crashing it;
  // the listener stays so a late write error is ignored too.
  const onOutputError = () => controller.abort();
  io.stdout.on('error', onOutputError);

  const notes = createNotes(args, note);
  const report = new HeadlessReport(format === 'stream-json' ? (value) => void write(io.stdout, `${terminalSafeJson(value)}\n`) : undefined);
  try {
    // Tools are part of the first request, so the servers get their chance to connect first.
    mcp.connectAll(config.mcp.servers);
    // The window is asked meanwhile (bounded by context.windowTimeoutMs): the first request is
    // measured and compacted against it like every later one.
    const window = runtime.discoverWindow(model.name);
    // A server in error or needing a sign-in has said so through its own status event.
    await mcp.settled();
    await window;
    // `@path` and `@alias:uri` are attached as in the TUI; what cannot be attached stops the run
    // before anything is sent (a script must not get an answer to half its prompt).
    const attached = await attachFromPrompt(runtime, prompt, { modelName: config.defaultModel, vision: model.vision === true }, controller.signal);
    if (attached.problems.length > 0) {
      for (const problem of attached.problems) note(`not sent: ${problem}`);
      return 1;
    }
    for (const attachment of attached.attachments) note(`attached ${attachment.path} (${attachment.bytes} bytes)`);

    for await (const event of runtime.converse({
      signal: controller.signal,
      history: history.messages,
      text: prompt,
      ...(attached.attachments.length > 0 ? { attachments: attached.attachments } : {}),
      model,
      // The headless policy never answers "ask"; this only guards against a prompt that would hang.
      approve: async () => ({ action: 'deny', reason: 'headless mode does not ask' }),
      // A command that hides characters is never run unseen, --allow-cmd or not (README.md, "Safety").
      confirmCommand: async (command) => {
        if (args.allowCmd && command.mustEdit) note(`proposed command not run: ${command.mustEdit}`);
        return args.allowCmd && !command.mustEdit ? { action: 'run', command: command.command } : { action: 'skip' };
      },
      ...(args.maxToolDepth !== undefined ? { maxToolDepth: args.maxToolDepth } : {}),
    })) {
      if (event.type === 'message') log.append(event.message);
      report.apply(event);
      notes(event);
    }
  } finally {
    log.flush();
    log.close();
    unsubscribe();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  await close();

  if (format === 'json') await write(io.stdout, `${terminalSafeJson(late.length > 0 ? { ...report.result, late_results: late } : report.result)}\n`);
  if (format === 'text') {
    // A script gets the answer as sent; a person at a terminal gets it without live escapes.
    const text = (io.stdout as { isTTY?: boolean }).isTTY ? sanitize(report.result.text) : report.result.text;
    if (text.length > 0) await write(io.stdout, text.endsWith('\n') ? text : `${text}\n`);
  }
  // In every format: stdout may be a file nobody reads at once, a person reads stderr now.
  const outcome = report.outcomeNote(args.maxToolDepth !== undefined ? `--max-tool-depth ${args.maxToolDepth}` : `mcp.maxToolDepth ${config.mcp.maxToolDepth}`);
  if (outcome) note(outcome);
  return report.exitCode();
}

/** One line on stderr for what a script's author would want to know and stdout does not say. */
function createNotes(args: CliArgs, note: (line: string) => void): (event: ConversationEvent) => void {
  const names = new Map<string, string>();
  return (event) => {
    if (event.type === 'tool-call') names.set(event.call.id, event.call.wireName);
    if (event.type === 'tool-decision' && event.decision.action === 'deny' && event.decision.by === 'headless') {
      const name = names.get(event.id) ?? event.id;
      note(event.decision.reason ? `tool call ${name} denied: ${event.decision.reason}` : `tool call ${name} denied: no rule allows it (use --auto-approve ${name} or alias__*)`);
    } else if (event.type === 'status' && event.level !== 'info' && event.message !== DEPTH_LIMIT_STATUS) {
      // The depth limit is said once, at the end, with what it did to the run (outcomeNote).
      note(event.message);
    } else if (event.type === 'command-skipped' && !args.allowCmd) {
      note('a proposed command was not run (use --allow-cmd to run proposed commands)');
    }
  };
}
