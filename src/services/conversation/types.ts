import type { FinishReason, Usage } from '../broker/types';
import type { ContextParts } from '../context/budget';
import type { ContextWindow } from '../context/window';
import type { ToolOutcomeKind, ToolProgress } from '../mcp/index';
import type { GuardKind } from '../tools/argument-guard';
import type { CommandCheck } from '../shell/danger';

/** The context meter's numbers: usage against the window, part by part (see services/context/budget.ts). */
export interface ContextSnapshot {
  model: string;
  /** Prompt tokens: counted by the server (`reported`) or estimated. */
  used: number;
  reported: boolean;
  /** How `used` was counted when it is not the server's count of the last request (for `:context`). */
  counting?: string;
  window: ContextWindow;
  parts: ContextParts;
  /** The prompt size at which the next request is compacted first; undefined: never (window unknown, or context.autoCompactAt false). */
  compactAt?: number;
}

/** A tool call as the model sent it; `name` is the wire name, `arguments` the raw string. */
export interface ToolCallRecord {
  id: string;
  name: string;
  arguments: string;
}

/**
 * The conversation history. This is what the session log stores and what is turned into wire
 * messages (context.ts). Every message has an id so the UI can cache its rendering.
 */
/**
 * A file sent with a message (`@path`, or an image path pasted into the input): its text, or an
 * image as a `data:` URL. Kept in the history and the session log, so a resumed or retried turn
 * sends the same bytes without reading the file again.
 */
export interface Attachment {
  /** As the user named it (relative to the working directory, or the pasted path). */
  path: string;
  kind: 'text' | 'image';
  bytes: number;
  /** The text of a text file; a `data:<mime>;base64,…` URL for an image. */
  data: string;
  /** An MCP resource (`@alias:uri`, `path` is `alias:uri`) rather than a file. */
  origin?: 'resource';
}

export type Message =
  | { id: string; role: 'user'; content: string; at: string; attachments?: Attachment[] }
  | {
      id: string;
      role: 'assistant';
      content: string;
      reasoning?: string;
      toolCalls?: ToolCallRecord[];
      finishReason?: FinishReason;
      at: string;
    }
  | {
      id: string;
      role: 'tool';
      toolCallId: string;
      name: string;
      content: string;
      isError: boolean;
      at: string;
      /** Why the call did not run, kept so a resumed transcript shows it as it was (never sent to the model). */
      outcome?: 'denied' | 'skipped' | 'cancelled';
      /** The arguments the call ran with when the user edited the model's before approving. */
      editedArguments?: Record<string, unknown>;
    }
  /** Output of a confirmed CMD: or `!command`; folded into the next user turn for the model (docs/ARCHITECTURE.md, Conversation rules). */
  /** `proposed`: the model's CMD: line, when the user edited it before it ran (`command` is what ran). */
  | { id: string; role: 'exec'; command: string; output: string; exitCode: number | null; at: string; proposed?: string }
  /**
   * The conversation before `keptFrom` condensed into `summary` (services/context/compact.ts): from
   * here on the model gets the summary and the messages from `keptFrom` on; the messages it
   * replaces stay in the history and the session log.
   */
  | {
      id: string;
      role: 'compaction';
      summary: string;
      /** The first message kept verbatim; absent when none was. */
      keptFrom?: string;
      /** How many messages the summary replaces. */
      replaced: number;
      /** `user`: `:compact`; `auto`: the next request would have passed context.autoCompactAt; `overflow`: the server rejected a request for length. */
      trigger: 'user' | 'auto' | 'overflow';
      focus?: string;
      tokensBefore?: number;
      tokensAfter?: number;
      at: string;
    };

/** Why a tool call ran or did not. `rule` names the config or session rule for automatic decisions. */
export type ToolDecision =
  /** `edited`: the user changed the model's arguments before allowing; how, briefly. */
  | { action: 'allow'; by: 'user'; scope: 'once' | 'tool' | 'server'; edited?: string; arguments?: Record<string, unknown> }
  | { action: 'allow'; by: 'rule'; rule: string; edited?: string; arguments?: Record<string, unknown> }
  | { action: 'deny'; by: 'user'; reason?: string }
  | { action: 'deny'; by: 'rule'; rule: string }
  /** Headless mode: no rule allows the call, or (`reason`) its definition changed since it was pinned. */
  | { action: 'deny'; by: 'headless'; reason?: string }
  /** Not asked: arguments unparseable or invalid, unknown tool, limit reached, cancelled. */
  | { action: 'skip'; reason: string };

/** What the approval frame shows; bound to exactly what will run. */
export interface ToolCallView {
  id: string;
  wireName: string;
  alias?: string;
  tool?: string;
  description?: string;
  rawArguments: string;
  /** Parsed arguments, when `rawArguments` is valid JSON of an object. */
  arguments?: Record<string, unknown>;
  /** Set when the tool's pinned definition changed since it was approved: what changed. */
  definitionChanged?: string;
  /**
   * Set when the tool was never approved before and a server-wide rule would have run it: that
   * rule (`config mcp.autoApprove fs__*`). The frame says the tool is new.
   */
  newTool?: string;
  /** What the argument guard found (services/tools/argument-guard.ts): why this call asks. */
  warnings?: ArgumentWarning[];
  /** The user edited the model's arguments (these are the edited ones): how, briefly. */
  edited?: string;
  /** The last argument edit or rule line could not be used: the frame opens that field again with `text`. */
  retry?: { field: 'args' | 'rule'; text: string; problem: string };
  /** What happened to the last rule line (saved, but it does not cover this call). */
  notice?: string;
}

/** One finding of the argument guard, as the frame shows it. */
export interface ArgumentWarning {
  kind: GuardKind;
  /** Where in the arguments: `path`, `files[2].name`. */
  where: string;
  reason: string;
}

export interface ApprovalRequest {
  call: ToolCallView;
  /** 1-based position among the calls of this answer that need a decision, and their count. */
  position: number;
  count: number;
}

export type ApprovalAnswer =
  | { action: 'allow'; scope: 'once' | 'tool' | 'server' }
  | { action: 'deny'; reason?: string }
  /** New arguments typed as JSON: checked, then the edited call is shown again. */
  | { action: 'edit'; text: string }
  /** A rule line (`allow project fs__read_file path=~/src/**`): saved, then the call is decided again. */
  | { action: 'rule'; text: string };

/** A `CMD:` line waiting for the user, with what services/shell/danger.ts found in it. */
export interface ProposedCommand extends CommandCheck {
  id: string;
  command: string;
  /** With shell.sandbox: `sandboxed: …`, or why it will be refused. */
  sandbox?: string;
}

export type CommandAnswer = { action: 'run'; command: string } | { action: 'skip' };

export type ConversationEvent =
  /** A request to the model starts; depth 0 is the answer to the user, 1.. follow tool results. */
  | { type: 'request-start'; depth: number; model: string }
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  | { type: 'tool-call'; call: ToolCallView }
  | { type: 'tool-decision'; id: string; decision: ToolDecision }
  | { type: 'tool-started'; id: string }
  | { type: 'tool-progress'; id: string; progress: ToolProgress }
  | {
      type: 'tool-result';
      id: string;
      name: string;
      /** The full content (the model may get a capped copy; see context.ts). */
      content: string;
      isError: boolean;
      outcome: ToolOutcomeKind | 'denied' | 'skipped';
    }
  | { type: 'command-proposed'; command: ProposedCommand }
  | { type: 'command-started'; id: string; command: string }
  | { type: 'command-output'; id: string; chunk: string }
  | { type: 'command-exit'; id: string; exitCode: number | null; timedOut: boolean; truncated: boolean; refused?: boolean }
  | { type: 'command-skipped'; id: string }
  | { type: 'usage'; usage: Usage; tokensPerSecond?: number }
  /** The context of the request about to go out (estimated) or just answered (counted by the server). */
  | { type: 'context'; context: ContextSnapshot }
  | { type: 'status'; level: 'info' | 'warn' | 'error'; message: string }
  | { type: 'error'; message: string }
  /** A message appended to the history, in order; the front end logs it and keeps it. */
  | { type: 'message'; message: Message }
  | { type: 'done'; finishReason: FinishReason };
