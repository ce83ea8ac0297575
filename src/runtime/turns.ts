// The turn runner (TUI): one job of the queue, either a message through the runtime's
// conversation loop or a `!command` run directly. Events go to the store through the per-frame
// batcher; what the turn appends to the conversation is recorded (store and session file) by the
// session; a message that got no answer at all is handed to the take-back.
import { randomUUID } from 'node:crypto';
import type { createEventBatcher } from '../services/conversation/batcher';
import { execCommand } from '../services/conversation/index';
import type { Attachment, ConversationEvent, Message } from '../services/conversation/types';
import type { AppStore } from '../state/store';
import { cutForScreen } from '../services/terminal/screen-cut';
import type { Runtime } from './runtime';
import { sandboxLabel, sandboxSettings } from '../services/sandbox/index';

/** What the user sent: a message for the model, or a `!command` for the shell. */
export type Job = { kind: 'chat'; text: string; attachments?: Attachment[] } | { kind: 'shell'; command: string } | { kind: 'compact'; focus?: string };

export interface TurnContext {
  runtime: Pick<Runtime, 'config' | 'cwd' | 'env' | 'converse' | 'compact'>;
  store: AppStore;
  batcher: ReturnType<typeof createEventBatcher>;
  /** Keeps a message the turn appends (store and session file). */
  record(message: Message): void;
  modelName(): string;
  status(level: 'info' | 'warn' | 'error', text: string): void;
  /**
   * The user's message got no answer at all (cancelled, or failed before anything arrived): it is
   * taken out of the conversation so it is not sent again behind the next message.
   */
  withdraw(id: string, text: string, reason: 'cancelled' | 'error'): void;
}

export function runJob(context: TurnContext, job: Job, signal: AbortSignal): Promise<void> {
  if (job.kind === 'compact') return runCompactTurn(context, job.focus, signal);
  return job.kind === 'chat' ? runChatTurn(context, job.text, signal, job.attachments) : runShellTurn(context, job.command, signal);
}

/** `:compact [focus]`: the model summarises the conversation; the record is kept like any message. */
export async function runCompactTurn(context: TurnContext, focus: string | undefined, signal: AbortSignal): Promise<void> {
  const { runtime, store, batcher } = context;
  const events = runtime.compact({ modelName: context.modelName(), history: store.getState().messages, ...(focus ? { focus } : {}), signal });
  for await (const event of events) {
    if (event.type === 'message') context.record(event.message);
    batcher.push(event);
  }
}

/**
 * What the transcript keeps of a tool result (limits.displayResultChars): the history and the
 * session log keep it whole, the model gets context.maxToolResultChars of it.
 */
export function forDisplay(event: ConversationEvent, maxChars: number): ConversationEvent {
  if (event.type !== 'tool-result' || event.content.length <= maxChars) return event;
  return { ...event, content: cutForScreen(event.content, maxChars) };
}

export async function runChatTurn(context: TurnContext, text: string, signal: AbortSignal, attachments?: Attachment[]): Promise<void> {
  const { runtime, store, batcher } = context;
  const { config } = runtime;
  const model = config.models[context.modelName()]!;
  const callNames = new Map<string, { alias?: string; tool?: string }>();
  const events = runtime.converse({
    signal,
    history: store.getState().messages,
    text,
    ...(attachments?.length ? { attachments } : {}),
    model,
    // A frame is drawn from the store, so everything the turn showed before it must be there first.
    approve: (request) => {
      batcher.flush();
      return store.getState().requestApproval(request);
    },
    confirmCommand: (command) => {
      batcher.flush();
      return store.getState().requestCommand(command);
    },
  });
  let asked: string | undefined;
  let answered = false;
  let finishReason: string | undefined;
  for await (const event of events) {
    if (event.type === 'message') {
      context.record(event.message);
      if (event.message.role === 'user') asked ??= event.message.id;
      else answered = true;
    }
    if (event.type === 'done') finishReason = event.finishReason;
    if (event.type === 'tool-call') callNames.set(event.call.id, { alias: event.call.alias, tool: event.call.tool });
    // "Always this tool / server" from the frame becomes a session rule the sidebar can show.
    if (event.type === 'tool-decision' && event.decision.action === 'allow' && event.decision.by === 'user' && event.decision.scope !== 'once') {
      const call = callNames.get(event.id);
      if (call?.alias) store.getState().addSessionRule(`${call.alias}__${event.decision.scope === 'server' ? '*' : call.tool}`);
    }
    batcher.push(forDisplay(event, config.limits.displayResultChars));
  }
  if (asked !== undefined && !answered && (finishReason === 'cancelled' || finishReason === 'error')) context.withdraw(asked, text, finishReason);
}

/** A `!command` the user typed: it needs no confirmation (the user wrote it) and is recorded as an exec turn. */
export async function runShellTurn(context: TurnContext, command: string, signal: AbortSignal): Promise<void> {
  const { runtime, batcher } = context;
  const { config } = runtime;
  if (!config.shell.enabled) {
    context.status('warn', 'shell commands are disabled (shell.enabled: false)');
    return;
  }
  const id = randomUUID();
  const sandbox = sandboxSettings(config.shell.sandbox);
  const label = sandbox ? await sandboxLabel(sandbox, runtime.cwd, runtime.env) : undefined;
  batcher.push({ type: 'command-proposed', command: { id, command, ...(label ? { sandbox: label } : {}) } });
  const settings = {
    ...(sandbox ? { sandbox } : {}),
    ...(config.shell.shell ? { shell: config.shell.shell } : {}),
    timeoutMs: config.shell.timeoutMs,
    maxOutputBytes: config.shell.maxOutputBytes,
    cwd: runtime.cwd,
    env: runtime.env,
  };
  const runner = execCommand(id, command, settings, signal, () => new Date().toISOString());
  for (;;) {
    const step = await runner.next();
    if (step.done) {
      context.record(step.value);
      batcher.push({ type: 'message', message: step.value });
      break;
    }
    batcher.push(step.value);
  }
}
