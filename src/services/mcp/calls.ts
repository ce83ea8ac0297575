import { ProtocolError } from '@modelcontextprotocol/client';
import { lostAnswerReason } from './awaited-answers';
import { describeError, isNetworkFailure, isTimeout, isUnauthorized } from './errors';
import { CallClock } from './call-timeout';
import { flattenResult, toolTurnText } from './flatten';
import { redactRestsWith } from '../shared/spilled-text';
import type { ServerSession } from './session';
import { callsAsTask, taskSupportProblem } from './task-support';
import { followTaskCall, type TaskRegistry } from './task-calls';
import { ToolTask, type TaskEnd } from './tasks';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { CallToolOptions, ElicitationHandler, McpEvent, ToolCallOutcome } from './types';
import { askToRetry, offerRequiredUrls, urlElicitationsOf } from './url-required';
import type { ArgumentValidator } from './validate';

// Every call ends in text for the model, whatever went wrong (docs/ARCHITECTURE.md, Conversation rules). Nothing here throws.

import { ARGUMENTS_INVALID, CANCELLED, DISPATCH_FAILED, TRANSPORT_ERROR } from './texts';

/** The longest a timer can be (about 24.8 days): the SDK's own timeout never fires; ours does (call-timeout.ts). */
const NO_SDK_TIMEOUT_MS = 2_147_483_647;

export { ARGUMENTS_INVALID, CANCELLED, DISPATCH_FAILED, TRANSPORT_ERROR };

export interface CallContext {
  validator: ArgumentValidator;
  /** Media types already announced for a server, so the notice appears once. */
  announced: Set<string>;
  /** Offers the URLs of a URL-required error (-32042) to the user. */
  elicit?: ElicitationHandler;
  /** Task calls in flight (tasks.ts, task-calls.ts). */
  tasks: TaskRegistry;
  emit: (event: McpEvent) => void;
}

/** What the model reads of a result: its text (redacted), with notes for the user about binary content. */
function resultOutcome(session: ServerSession, tool: string, result: CallToolResult, context: CallContext): ToolCallOutcome {
  const alias = session.alias;
  const flat = flattenResult(result as never);
  const notices: string[] = [];
  for (const mime of new Set(flat.binary)) {
    const key = `${alias}\u0000${mime}`;
    if (context.announced.has(key)) continue;
    context.announced.add(key);
    notices.push(`${alias}__${tool} returned ${mime} content; the model sees a placeholder`);
  }
  const isError = result.isError === true;
  // A server echoing its own token (an Authorization header in a debug dump) must not show it.
  const text = toolTurnText(session.redact(flat.text), isError);
  // The rest of a huge text, read into a file (shared/spilled-text.ts), passes the same redactor when it is read.
  redactRestsWith(text, (rest) => session.redact(rest));
  return outcome(isError ? 'tool-error' : 'ok', text, isError, notices);
}

function taskEndOutcome(session: ServerSession, tool: string, end: TaskEnd, context: CallContext): ToolCallOutcome {
  if ('result' in end) return resultOutcome(session, tool, end.result, context);
  if (end.status === 'cancelled') return outcome('cancelled', `${CANCELLED} (task: ${session.redact(end.reason)})`);
  return outcome('rpc-error', session.redact(`${DISPATCH_FAILED}the task failed: ${end.reason}`));
}

/** The model's answer to a call whose task went on in the background. */
export function backgroundNote(alias: string, tool: string, taskId: string): string {
  return `[aish] ${alias}__${tool} runs in the background as task ${taskId}; its result will be given to you in a later message when it completes. Go on with other work meanwhile.`;
}

function outcome(kind: ToolCallOutcome['kind'], content: string, isError = true, notices?: string[]): ToolCallOutcome {
  return notices && notices.length > 0 ? { kind, content, isError, notices } : { kind, content, isError };
}

export async function callSessionTool(
  session: ServerSession,
  tool: string,
  args: Record<string, unknown>,
  options: CallToolOptions,
  context: CallContext,
  retried = false,
): Promise<ToolCallOutcome> {
  const alias = session.alias;
  const connection = session.connection;
  if (!connection || session.snapshot.state !== 'ready') {
    const why = session.snapshot.error ? `${session.snapshot.state}: ${session.snapshot.error}` : session.snapshot.state;
    return outcome('transport-error', `${TRANSPORT_ERROR}server ${JSON.stringify(alias)} is not connected (${why})`);
  }
  const info = session.snapshot.tools.find((candidate) => candidate.name === tool);
  if (info) {
    const problem = context.validator.problem(info.inputSchema, args);
    if (problem) return outcome('invalid-arguments', `${ARGUMENTS_INVALID}${problem}`);
    const unsupported = taskSupportProblem(info, session.snapshot);
    if (unsupported) return outcome('rpc-error', `${DISPATCH_FAILED}${alias}__${tool} was not called: ${unsupported}`);
  }
  if (options.signal?.aborted) return outcome('cancelled', CANCELLED);

  const timeoutMs = options.timeoutMs ?? session.toolTimeoutMs;
  const clock = new CallClock(timeoutMs);
  // Both limits are ours, not the SDK's: its maxTotalTimeout fails the call without telling the
  // server, which keeps working, and its timeout cannot stand still while the server waits for
  // the user (a form asked in the middle of the call). Aborting sends notifications/cancelled.
  const guard = clock.guard(options.signal, session.userWaits);
  try {
    if (callsAsTask(info, session.snapshot)) {
      const ended = await followTaskCall(
        (onStatus) => ToolTask.start(connection.client, { name: tool, arguments: args }, { signal: guard.signal, timeoutMs, onStatus, onAlive: () => guard.progress() }),
        { ...options, signal: guard.signal },
        { alias, tool, registry: context.tasks, clock: guard, emit: context.emit, redact: (text) => session.redact(text), outcomeOf: (end) => taskEndOutcome(session, tool, end, context) },
      );
      if (ended.kind === 'background') return outcome('ok', backgroundNote(alias, tool, ended.taskId), false);
      if (ended.kind === 'cancelled') {
        const expired = guard.expired();
        if (expired) return outcome('timeout', `${TRANSPORT_ERROR}${clock.timeoutMessage(undefined, expired === 'overall')}`);
        return outcome('cancelled', CANCELLED);
      }
      return taskEndOutcome(session, tool, ended.end, context);
    }
    const result = await connection.client.callTool(
      { name: tool, arguments: args },
      {
        signal: guard.signal,
        timeout: NO_SDK_TIMEOUT_MS,
        // Always asked for: progress is what extends the timeout, whether or not it is shown.
        onprogress: (progress: { progress: number; total?: number; message?: string }) => {
          guard.progress();
          options.onProgress?.({
            progress: progress.progress,
            ...(progress.total !== undefined ? { total: progress.total } : {}),
            ...(progress.message !== undefined ? { message: session.redact(progress.message) } : {}),
          });
        },
      },
    );
    return resultOutcome(session, tool, result, context);
  } catch (error) {
    if (options.signal?.aborted) return outcome('cancelled', CANCELLED);
    const expired = guard.expired();
    if (expired) return outcome('timeout', `${TRANSPORT_ERROR}${clock.timeoutMessage(error, expired === 'overall')}`);
    // A server asking for a wider scope mid-session: the user authorizes, the call runs once more.
    if (isUnauthorized(error) && !retried && (await session.completePendingAuthorization(options.signal))) {
      return callSessionTool(session, tool, args, options, context, true);
    }
    if (options.signal?.aborted) return outcome('cancelled', CANCELLED);
    if (isTimeout(error)) return outcome('timeout', `${TRANSPORT_ERROR}${clock.timeoutMessage(error)}`);
    // A server that cannot be reached now is shown as such, not as ready until the next connect.
    if (isNetworkFailure(error)) session.connectionLost(describeError(error, timeoutMs));
    if (session.stoppedBecause) return outcome('transport-error', session.redact(`${TRANSPORT_ERROR}${session.stoppedBecause}`));
    // The stream that was to carry the answer ended without it: a transport failure of this call.
    const lost = lostAnswerReason(error);
    if (lost) return outcome('transport-error', session.redact(`${TRANSPORT_ERROR}${lost}`));
    const urls = urlElicitationsOf(error, alias);
    if (urls && urls.length > 0 && context.elicit) {
      const offered = await offerRequiredUrls(urls, context.elicit, options.signal);
      // Once only: a server that asks again after the retry gets its URLs offered, not another retry.
      if (offered.opened.length > 0 && !retried && !options.signal?.aborted && (await askToRetry(tool, offered.opened, context.elicit, options.signal))) {
        return callSessionTool(session, tool, args, options, context, true);
      }
      if (options.signal?.aborted) return outcome('cancelled', CANCELLED);
      return outcome('rpc-error', session.redact(offered.text));
    }
    if (ProtocolError.isInstance(error)) return outcome('rpc-error', session.redact(`${DISPATCH_FAILED}${error.message}`));
    return outcome('transport-error', session.redact(`${TRANSPORT_ERROR}${describeError(error, timeoutMs)}`));
  } finally {
    guard.stop();
  }
}
