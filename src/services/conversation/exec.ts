// Running a shell command for the conversation: a confirmed `CMD:` proposal or a `!command` the
// user typed. The output is streamed as events and kept as an `exec` record, which reaches the
// model with the next user turn (docs/ARCHITECTURE.md, Conversation rules).
import { formatDuration } from '../shared/duration';
import type { SandboxSettings } from '../sandbox/index';
import { runCommand, type RunEvent, type RunOptions } from '../shell/run';
import type { ConversationEvent, Message } from './types';

export interface ExecSettings {
  shell?: string;
  timeoutMs: number;
  maxOutputBytes: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** config shell.sandbox, filled in. */
  sandbox?: SandboxSettings;
}

export type ExecMessage = Extract<Message, { role: 'exec' }>;

/** Runs `command` (id = the proposal's id, or a fresh one for `!command`) and returns its exec record. */
export async function* execCommand(
  id: string,
  command: string,
  settings: ExecSettings,
  signal: AbortSignal,
  now: () => string,
  run: (options: RunOptions) => AsyncGenerator<RunEvent, void, undefined> = runCommand,
): AsyncGenerator<ConversationEvent, ExecMessage, undefined> {
  yield { type: 'command-started', id, command };
  let output = '';
  let exitCode: number | null = null;
  let notes: string[] = [];
  for await (const event of run({
    command,
    ...(settings.shell ? { shell: settings.shell } : {}),
    ...(settings.cwd ? { cwd: settings.cwd } : {}),
    ...(settings.env ? { env: settings.env } : {}),
    ...(settings.sandbox ? { sandbox: settings.sandbox } : {}),
    timeoutMs: settings.timeoutMs,
    maxOutputBytes: settings.maxOutputBytes,
    signal,
  })) {
    if (event.type === 'output') {
      output += event.chunk;
      yield { type: 'command-output', id, chunk: event.chunk };
      continue;
    }
    exitCode = event.exitCode;
    notes = [
      ...(event.refused ? [`[not run: ${event.refused}]`] : []),
      ...(event.error ? [`[could not start: ${event.error}]`] : []),
      ...(event.truncated ? [`[output truncated: ${event.droppedBytes} more bytes not kept]`] : []),
      ...(event.timedOut ? [`[timed out after ${formatDuration(settings.timeoutMs)}; stopped]`] : []),
      ...(event.cancelled ? ['[cancelled by the user]'] : []),
      ...(event.signal && !event.timedOut && !event.cancelled ? [`[killed by ${event.signal}]`] : []),
    ];
    if (notes.length > 0) {
      const chunk = `${output.length > 0 && !output.endsWith('\n') ? '\n' : ''}${notes.join('\n')}\n`;
      output += chunk;
      yield { type: 'command-output', id, chunk };
    }
    yield { type: 'command-exit', id, exitCode: event.exitCode, timedOut: event.timedOut, truncated: event.truncated, ...(event.refused ? { refused: true } : {}) };
  }
  return { id, role: 'exec', command, output, exitCode, at: now() };
}
