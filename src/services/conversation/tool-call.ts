// One tool call from the model, start to end: checked, decided (policy, then the user), run
// through the MCP service, and answered with exactly one tool turn whatever happens (docs/ARCHITECTURE.md, Conversation rules:
// an unanswered call breaks strict chat templates and leaves the model guessing).
import type { CompletedToolCall } from '../broker/types';
import { ARGUMENTS_INVALID, CANCELLED, type McpService, type ToolCallOutcome, type ToolOutcomeKind } from '../mcp/index';
import type { IndexedTool } from '../tools/names';
import { HEADLESS_NO_RULE, type ApprovalPolicy, type PolicyDecision } from '../tools/policy';
import { createAsyncQueue, drainUntil } from '../shared/async-queue';
import { resolveSpilledText, spilledTextSize } from '../shared/spilled-text';
import type { ApprovalAnswer, ApprovalRequest, ConversationEvent, Message, ToolCallView, ToolDecision } from './types';
import { describeEdit, editedToolTurn, readEditedArguments } from './argument-edit';

export const DENIED_BY_USER = '[aish] tool call denied by the user';
export const DEPTH_LIMIT_STATUS = 'tool-call depth limit reached';

export type ParsedArguments = { ok: true; value: Record<string, unknown> } | { ok: false; problem: string };

/** Arguments as the model sent them. An empty string means "no arguments" (several local servers send that). */
export function parseArguments(raw: string): ParsedArguments {
  if (raw.trim().length === 0) return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    return { ok: false, problem: `[aish] tool arguments not parseable as JSON: ${(error as Error).message}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const kind = value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;
    return { ok: false, problem: `[aish] tool arguments must be a JSON object, got ${kind}` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

export interface CallContext {
  signal: AbortSignal;
  mcp: Pick<McpService, 'callTool' | 'argumentProblem'>;
  policy: ApprovalPolicy;
  approve: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
  /** Set when the call must not run whatever the policy says (depth or count limit). */
  notRunBecause?: string;
  /** Position among this answer's calls that need the user, and their count. */
  position: () => { position: number; count: number };
  toolTimeoutMs?: number;
  /** context.maxToolResultChars: a longer result reaches the model cut, and the user is told. */
  maxResultChars?: number;
  /** What memory and the session log keep of the result (the head of a huge one and where the rest is). */
  keepResult?: (call: { id: string; name: string }, content: string) => string;
  now: () => string;
  newId: () => string;
}

/** Resolves with the promise's value, or with `undefined` once the signal aborts. */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise<T | undefined>((resolve, reject) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error as Error);
      },
    );
  });
}

export function callView(call: CompletedToolCall, entry: IndexedTool | undefined, parsed: ParsedArguments, verdict?: PolicyDecision): ToolCallView {
  const definitionChanged = verdict?.action === 'ask' ? verdict.definitionChanged : undefined;
  const warnings = verdict?.action === 'ask' ? verdict.warnings : undefined;
  const newTool = verdict?.action === 'ask' ? verdict.newTool : undefined;
  return {
    id: call.id,
    wireName: call.name,
    ...(entry ? { alias: entry.alias, tool: entry.tool } : {}),
    ...(entry?.info.description ? { description: entry.info.description } : {}),
    rawArguments: call.arguments,
    ...(parsed.ok ? { arguments: parsed.value } : {}),
    ...(definitionChanged ? { definitionChanged } : {}),
    ...(warnings && warnings.length > 0 ? { warnings: warnings.map(({ kind, where, reason }) => ({ kind, where, reason })) } : {}),
    ...(newTool ? { newTool } : {}),
  };
}

/** Whether this call will need the user (for the `1 of 3` counter); mirrors the checks below. */
export function needsUser(call: CompletedToolCall, entry: IndexedTool | undefined, policy: ApprovalPolicy, mcp?: Pick<McpService, 'argumentProblem'>): boolean {
  const parsed = parseArguments(call.arguments);
  if (!entry || !parsed.ok) return false;
  if (mcp?.argumentProblem?.(entry.alias, entry.tool, parsed.value)) return false;
  return policy.decide(entry.alias, entry.tool, parsed.value).action === 'ask';
}

function denialText(decision: ToolDecision): string {
  switch (decision.action) {
    case 'deny':
      if (decision.by === 'user') return decision.reason ? `${DENIED_BY_USER}: ${decision.reason}` : DENIED_BY_USER;
      if (decision.by === 'headless') {
        return decision.reason ? `[aish] tool call denied: ${decision.reason}` : '[aish] tool call denied: headless mode runs only tools allowed by --auto-approve or mcp.autoApprove';
      }
      return `[aish] tool call denied by ${decision.rule}`;
    case 'skip':
      return `[aish] tool call not run: ${decision.reason}`;
    default:
      return '';
  }
}

/** What the user is told when a result reaches the model cut (context.ts cuts it and tells the model). */
export function cutNotice(name: string, content: string, max: number): string | undefined {
  // A huge result's rest may be in a file (shared/spilled-text.ts): it is measured whole.
  const { chars, lines } = spilledTextSize(content);
  if (chars <= max) return undefined;
  const count = (value: number) => value.toLocaleString('en-US');
  return `${name} returned ${count(chars)} characters (${count(lines)} lines); the model gets the first ${count(max)}, ${count(chars - max)} characters cut (context.maxToolResultChars)`;
}

/** Yields the call's events and returns its tool turn. */
export async function* runToolCall(call: CompletedToolCall, entry: IndexedTool | undefined, ctx: CallContext): AsyncGenerator<ConversationEvent, Extract<Message, { role: 'tool' }>, undefined> {
  const parsed = parseArguments(call.arguments);
  const verdict = entry && parsed.ok && !ctx.notRunBecause ? ctx.policy.decide(entry.alias, entry.tool, parsed.value) : undefined;
  yield { type: 'tool-call', call: callView(call, entry, parsed, verdict) };

  const finish = (content: string, isError: boolean, outcome: ToolOutcomeKind | 'denied' | 'skipped') => {
    const notRun = outcome === 'denied' || outcome === 'skipped' || outcome === 'cancelled' ? { outcome } : {};
    const message: Extract<Message, { role: 'tool' }> = { id: ctx.newId(), role: 'tool', toolCallId: call.id, name: call.name, content, isError, at: ctx.now(), ...notRun };
    return { event: { type: 'tool-result', id: call.id, name: call.name, content, isError, outcome } as ConversationEvent, message };
  };
  const settle = function* (decision: ToolDecision, content: string, outcome: 'denied' | 'skipped') {
    yield { type: 'tool-decision', id: call.id, decision } as ConversationEvent;
    const done = finish(content, true, outcome);
    yield done.event;
    return done.message;
  };

  let decision: ToolDecision | undefined;
  if (ctx.notRunBecause) decision = { action: 'skip', reason: ctx.notRunBecause };
  else if (ctx.signal.aborted) {
    const done = finish(CANCELLED, true, 'cancelled');
    yield done.event;
    return done.message;
  } else if (!parsed.ok) return yield* settle({ action: 'skip', reason: 'arguments are not a JSON object' }, parsed.problem, 'skipped');
  else if (!entry) return yield* settle({ action: 'skip', reason: 'unknown tool' }, `[aish] unknown tool: ${call.name} (no connected server offers it)`, 'skipped');
  if (decision) return yield* settle(decision, denialText(decision), 'skipped');
  // A call whose arguments do not fit the tool's schema cannot succeed: the model hears why at
  // once, and the user is not asked to approve it.
  const invalid = ctx.mcp.argumentProblem?.(entry!.alias, entry!.tool, (parsed as { ok: true; value: Record<string, unknown> }).value);
  if (invalid) return yield* settle({ action: 'skip', reason: 'arguments do not fit the tool\'s input schema' }, `${ARGUMENTS_INVALID}${invalid}`, 'skipped');

  // From here the call is valid and known: the policy decides, or the user.
  const known = entry!;
  let args = (parsed as { ok: true; value: Record<string, unknown> }).value;
  const fromRule = (rule: PolicyDecision): ToolDecision | undefined => {
    if (rule.action === 'allow') return { action: 'allow', by: 'rule', rule: rule.rule };
    if (rule.action === 'deny') return rule.headless ? { action: 'deny', by: 'headless', ...(rule.rule !== HEADLESS_NO_RULE ? { reason: rule.rule } : {}) } : { action: 'deny', by: 'rule', rule: rule.rule };
    return undefined;
  };
  decision = verdict ? fromRule(verdict) : undefined;
  // Set once the user edited the arguments: how, for the transcript, the log and the model.
  let edited: string | undefined;
  if (!decision) {
    const { position, count } = ctx.position();
    let view = callView(call, entry, parsed, verdict);
    // The frame is shown until the user allows or denies; an edit or a saved rule shows it again.
    for (;;) {
      const answer = await unlessAborted(ctx.approve({ call: view, position, count }), ctx.signal);
      if (!answer || ctx.signal.aborted) {
        const done = finish(CANCELLED, true, 'cancelled');
        yield done.event;
        return done.message;
      }
      if (answer.action === 'edit') {
        const read = readEditedArguments(answer.text, (value) => ctx.mcp.argumentProblem?.(known.alias, known.tool, value));
        const { retry: _retry, notice: _notice, ...shown } = view;
        if (!read.ok) {
          view = { ...shown, retry: { field: 'args', text: answer.text, problem: read.problem } };
          continue;
        }
        const original = (parsed as { ok: true; value: Record<string, unknown> }).value;
        args = read.value;
        const summary = describeEdit(original, args);
        edited = summary === 'no change' ? undefined : summary;
        // The edited call is decided afresh (a deny rule or the argument guard may see it
        // differently) but always shown again: what runs is what the user approved last.
        const again = ctx.policy.decide(known.alias, known.tool, args);
        if (again.action === 'deny') {
          decision = fromRule(again);
          break;
        }
        const editedCall = { ...call, arguments: JSON.stringify(args) };
        view = { ...callView(editedCall, entry, { ok: true, value: args }, again.action === 'ask' ? again : undefined), ...(edited ? { edited } : {}) };
        continue;
      }
      if (answer.action === 'rule') {
        const result = ctx.policy.saveRule(answer.text);
        const { retry: _retry, notice: _notice, ...shown } = view;
        if ('problem' in result) {
          view = { ...shown, retry: { field: 'rule', text: answer.text, problem: result.problem } };
          continue;
        }
        // An allow rule typed on this frame is the user allowing this call: the tool counts as
        // approved (a server-wide rule saved here does not hold back the very tool it was saved on).
        if (result.allow) ctx.policy.recordUserApproval(known.alias, known.tool, known.info);
        const again = ctx.policy.decide(known.alias, known.tool, args);
        if (again.action !== 'ask') {
          decision = fromRule(again);
          break;
        }
        view = { ...shown, notice: `saved ${result.allow ? 'allow' : 'deny'} ${result.saved} (${result.scope === 'project' ? 'this project' : 'all projects'}); it does not decide this call, so it still asks` };
        continue;
      }
      if (answer.action === 'allow') {
        decision = { action: 'allow', by: 'user', scope: answer.scope };
        if (answer.scope !== 'once') ctx.policy.addSessionRule(answer.scope, known.alias, known.tool);
        // The definition the frame described (from this round's tool index) is what was approved.
        ctx.policy.recordUserApproval(known.alias, known.tool, known.info);
      } else {
        decision = { action: 'deny', by: 'user', ...(answer.reason ? { reason: answer.reason } : {}) };
      }
      break;
    }
  }
  // Every way out of the loop decides; this keeps the call answered should one ever not.
  decision ??= { action: 'skip', reason: 'not decided' };
  if (decision.action === 'allow' && edited) decision = { ...decision, edited, arguments: args };
  if (decision.action !== 'allow') return yield* settle(decision, denialText(decision), 'denied');

  yield { type: 'tool-decision', id: call.id, decision };
  yield { type: 'tool-started', id: call.id };
  // Progress notifications arrive as callbacks while the call runs; the queue turns them into
  // events in order, and the call's own end closes it.
  const progress = createAsyncQueue<ConversationEvent>();
  const pending = ctx.mcp
    .callTool(known.alias, known.tool, args, {
      signal: ctx.signal,
      onProgress: (value) => progress.push({ type: 'tool-progress', id: call.id, progress: value }),
      ...(ctx.toolTimeoutMs !== undefined ? { timeoutMs: ctx.toolTimeoutMs } : {}),
    })
    .then(
      (outcome) => outcome,
      // The service promises never to reject; if it does anyway the call still gets its turn.
      (error: unknown): ToolCallOutcome => ({ kind: 'transport-error', content: `[aish] tool transport error: ${(error as Error)?.message ?? String(error)}`, isError: true }),
    );
  const outcome = yield* drainUntil(progress, pending);
  for (const notice of outcome.notices ?? []) yield { type: 'status', level: 'warn', message: notice };
  const cut = ctx.maxResultChars !== undefined ? cutNotice(call.name, outcome.content, ctx.maxResultChars) : undefined;
  if (cut) yield { type: 'status', level: 'warn', message: cut };
  const cancelled = ctx.signal.aborted && (outcome.kind === 'cancelled' || outcome.kind === 'transport-error');
  const kind: ToolOutcomeKind = cancelled ? 'cancelled' : outcome.kind;
  const whole = cancelled && outcome.content.trim().length === 0 ? CANCELLED : outcome.content;
  // Without a keeper (it writes a long rest out a slice at a time) the text is taken whole.
  const content = ctx.keepResult ? ctx.keepResult({ id: call.id, name: call.name }, whole) : resolveSpilledText(whole);
  // The transcript shows the head of a result: the note at the end of a kept one is said as well.
  if (content !== whole && ctx.keepResult) yield { type: 'status', level: 'warn', message: `${call.name}: ${content.slice(content.lastIndexOf('\n[aish] ') + 8)}` };
  const done = finish(edited ? editedToolTurn(edited, content) : content, outcome.isError || kind !== 'ok', kind);
  yield done.event;
  return edited ? { ...done.message, editedArguments: args } : done.message;
}
