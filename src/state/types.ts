import type { Usage } from '../services/broker/types';
import type {
  ApprovalAnswer,
  ApprovalRequest,
  CommandAnswer,
  Message,
  ProposedCommand,
  ToolCallView,
  ToolDecision,
} from '../services/conversation/types';
import type { ServerSnapshot, ToolProgress } from '../services/mcp/index';

/**
 * What the transcript shows. Each item carries a `version` that changes whenever its content
 * changes, so the chat view can cache wrapped lines by (id, version, width).
 */
export type ChatItem =
  /** `attachments`: one label per attached file (`notes.txt · 2 KB`), shown as chips. */
  | { kind: 'user'; id: string; version: number; text: string; attachments?: string[] }
  | {
      kind: 'assistant';
      id: string;
      version: number;
      text: string;
      reasoning: string;
      streaming: boolean;
      /** Set when the answer did not end cleanly (`incomplete`, `cancelled`, `length`, `error`). */
      endNote?: string;
    }
  | {
      kind: 'tool';
      id: string;
      version: number;
      call: ToolCallView;
      state: 'pending' | 'running' | 'done' | 'error' | 'denied' | 'cancelled' | 'skipped';
      decision?: ToolDecision;
      progress?: ToolProgress;
      startedAt?: number;
      endedAt?: number;
      result?: string;
    }
  | {
      kind: 'command';
      id: string;
      version: number;
      command: string;
      state: 'proposed' | 'running' | 'done' | 'skipped';
      output: string;
      exitCode?: number | null;
      timedOut?: boolean;
    }
  | { kind: 'status'; id: string; version: number; level: 'info' | 'warn' | 'error'; text: string };

export type BrokerState = 'idle' | 'waiting' | 'streaming' | 'tools' | 'error';

export interface ChatSlice {
  /** The conversation as sent to the model and logged. */
  messages: Message[];
  items: ChatItem[];
  brokerState: BrokerState;
  modelName: string;
  /** The model the request running now (or the last one) went to; `:model` may have switched since. */
  requestModel?: string;
  lastUsage?: Usage;
  tokensPerSecond?: number;
  /** The model `lastUsage` and `tokensPerSecond` were measured on: they are shown only for it. */
  usageModel?: string;
}

export interface PendingApproval {
  request: ApprovalRequest;
  /** When the frame appeared (ms); approval keys are ignored for a short while after. */
  shownAt: number;
  resolve: (answer: ApprovalAnswer) => void;
}

export interface PendingCommand {
  command: ProposedCommand;
  shownAt: number;
  resolve: (answer: CommandAnswer) => void;
}

export interface ToolsSlice {
  approvals: PendingApproval[];
  commands: PendingCommand[];
  /** Session rules added from the frame, for display (`alias__tool`, `alias__*`). */
  sessionRules: string[];
}

export interface McpSlice {
  servers: Record<string, ServerSnapshot>;
  /** Display order: config order, then runtime connects. */
  order: string[];
}

export type Focus = 'input' | 'sidebar' | 'chat';

/**
 * The input being edited (see src/ui/input/editor.ts for the editing rules). Large pastes sit in
 * `text` as one private-use character each, mapped to the pasted text in `pastes`.
 */
export interface EditorState {
  text: string;
  /** UTF-16 index into `text`. */
  cursor: number;
  /** Chip character -> the full pasted text it stands for. */
  pastes: Record<string, string>;
  /** The first character came from a paste: a leading `:` or `!` is then text, not a command. */
  literal: boolean;
  /** Text removed by Ctrl+U/K/W, for Ctrl+Y. */
  killed: string;
}

/** What the approval or command frame at the head of its queue is doing. */
export interface FrameUi {
  /** The call or command id this belongs to; a new head starts fresh. */
  id: string;
  /** Index of the focused button. */
  button: number;
  /** First body line shown. */
  scrollTop: number;
  /** Body lines from the top that have all been on screen (exclusive), at `seenWidth`. */
  seen: number;
  /** Runs of body lines [from, to) on screen below a gap in `seen` (after a jump such as End). */
  seenRuns?: ReadonlyArray<readonly [number, number]>;
  seenWidth: number;
  /**
   * Header rows that scrolled above the body (the frame's `leadRows`) when `seen` and `scrollTop`
   * were counted; they shift when that changes. Absent: none.
   */
  seenLead?: number;
  /** `reason`: typing a deny reason; `edit`: editing a command before running it. */
  mode: 'buttons' | 'reason' | 'edit';
  field: EditorState;
}

/** The sidebar's browsing state. Row ids: `s:<alias>` for a server, `t:<alias>:<tool>` for a tool. */
export interface SidebarUi {
  selected?: string;
  expanded: string[];
  /**
   * The tool whose description and schema are open, and how far it is scrolled; without `tool`,
   * the server's own details (state, error, stderr tail).
   */
  detail?: { alias: string; tool?: string; scrollTop: number };
  /** The connect prompt (`c`): URL, then an optional alias. */
  connect?: { step: 'url' | 'alias'; url: EditorState; alias: EditorState; error?: string };
}

/** One row of a picker (`:model`, `:resume`, `:rewind` without an argument). Text is raw: sanitized when drawn. */
export interface PickerItem {
  id: string;
  label: string;
  /** Shown after the label, muted (a model's server, a session's date and size). */
  detail?: string;
  /** Rows with the same group are listed together under it. */
  group?: string;
}

/**
 * A list to choose from, over the input: ↑↓ select, typing filters, Enter chooses, Esc closes.
 * `choose` is called with the chosen item once, after the picker closed.
 */
export interface PickerState {
  title: string;
  items: PickerItem[];
  filter: EditorState;
  /** Index into the filtered rows. */
  selected: number;
  /** A line under the list (e.g. `asking 2 servers for their models…`). */
  note?: string;
  choose: (item: PickerItem) => void;
  /** Called when the picker closes without a choice (Esc). */
  cancel?: () => void;
}

export interface UiSlice {
  focus: Focus;
  /** The user's wish; on narrow terminals the sidebar hides itself unless the user asked for it. */
  sidebarVisible: boolean;
  /** Set when the user toggled the sidebar on explicitly: it then stays even on a narrow terminal. */
  sidebarPinned: boolean;
  /** The input being typed. Kept apart from chat state so typing never re-renders the transcript. */
  draft: string;
  /** Lines scrolled up from the bottom; 0 = following new output. */
  scrollOffset: number;
  /** Set after a first Ctrl+C on an empty, idle input: a second press within a second quits. */
  quitArmedAt?: number;
  /** A transient one-line hint shown in the status bar. */
  hint?: string;
  /** The input with its cursor; `draft` mirrors `editor.text`. */
  editor: EditorState;
  frameUi?: FrameUi;
  sidebarUi: SidebarUi;
  /** The transcript shows reasoning folded to one line. */
  reasoningCollapsed: boolean;
  /** Transcript items shown expanded (tool results in full). */
  expandedIds: string[];
  /** The open picker, if any (it takes the keys until it closes). */
  picker?: PickerState;
}
