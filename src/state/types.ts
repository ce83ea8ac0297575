import type { Usage } from '../services/broker/types';
import type {
  ApprovalAnswer,
  ApprovalRequest,
  CommandAnswer,
  ContextSnapshot,
  Message,
  ProposedCommand,
  ToolCallView,
  ToolDecision,
} from '../services/conversation/types';
import type { ElicitationAnswer, ElicitationForm, ElicitationRequest, FieldInput, ServerSnapshot, ToolProgress } from '../services/mcp/index';
import type { ContextWindow } from '../services/context/window';

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
      /** Ran under shell.sandbox (bubblewrap). */
      sandboxed?: boolean;
      /** Not run: shell.sandbox is set and cannot be had here. */
      refused?: boolean;
    }
  | { kind: 'status'; id: string; version: number; level: 'info' | 'warn' | 'error'; text: string }
  /** A compaction: folded to one line, its summary shown when expanded. */
  | {
      kind: 'compaction';
      id: string;
      version: number;
      summary: string;
      replaced: number;
      trigger: 'user' | 'auto' | 'overflow';
      focus?: string;
      tokensBefore?: number;
      tokensAfter?: number;
    };

export type BrokerState = 'idle' | 'waiting' | 'streaming' | 'tools' | 'error';

export interface ChatSlice {
  /** The conversation as sent to the model and logged. */
  messages: Message[];
  items: ChatItem[];
  brokerState: BrokerState;
  /**
   * Turns that have ended since start-up (each `done` event). A fast answer can start and end
   * within one batched update, so brokerState alone never shows it was busy.
   */
  turnsEnded: number;
  modelName: string;
  /** The model the request running now (or the last one) went to; `:model` may have switched since. */
  requestModel?: string;
  lastUsage?: Usage;
  tokensPerSecond?: number;
  /** The model `lastUsage` and `tokensPerSecond` were measured on: they are shown only for it. */
  usageModel?: string;
  /** The context meter: the last request's (or the history's) usage against the window; shown only for its `model`. */
  context?: ContextSnapshot;
  /**
   * Each model's context window as discovered (services/context/window.ts), by model name. The one
   * place the current window is read from: `selectContextWindow`.
   */
  windows: Record<string, ContextWindow>;
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

/**
 * A server's elicitation waiting for the user (a form to fill, a URL to open). The form and the
 * functions that check it are prepared by the runtime (services/mcp elicitation-form.ts), so the
 * frame only draws and edits.
 */
export interface PendingElicitation {
  id: string;
  request: ElicitationRequest;
  /** Form mode: the fields read from the schema. */
  form?: ElicitationForm;
  /** Form mode: the values the fields start with (the schema's defaults). */
  initial?: FieldInput[];
  /** Form mode: one problem per field (undefined where fine). */
  problems?: (inputs: readonly FieldInput[]) => Array<string | undefined>;
  /** Form mode: the accept answer for these inputs, or undefined while a field has a problem. */
  accept?: (inputs: readonly FieldInput[]) => ElicitationAnswer | undefined;
  /** URL mode: why the URL may not be opened (not https or loopback http), if so. */
  urlProblem?: string;
  shownAt: number;
  resolve: (answer: ElicitationAnswer) => void;
}

/** The form frame's state: which row has the focus, what was entered, what the focused text field holds. */
export interface FormUi {
  /** The elicitation id this belongs to; a new head starts fresh. */
  id: string;
  /** A field's index, or the number of fields for the button row. */
  focus: number;
  inputs: FieldInput[];
  /** The focused text or number field as a line editor. */
  editor: EditorState;
  /** The option under the cursor in the focused choice field. */
  option: number;
  /** The button under the cursor on the button row. */
  button: number;
  /** Fields whose problem is shown (left once, or everything after an accept that failed). */
  checked: boolean[];
}

export interface ToolsSlice {
  approvals: PendingApproval[];
  commands: PendingCommand[];
  /** Servers' requests for input, one frame at a time, after the approvals. */
  elicitations: PendingElicitation[];
  /** Session rules added from the frame, for display (`alias__tool`, `alias__*`). */
  sessionRules: string[];
}

/** One tool's cost and switch, as the sidebar shows it. */
export interface ToolBudgetEntry {
  /** Estimated tokens of its definition as sent; undefined when it is withheld (schema too big). */
  tokens?: number;
  enabled: boolean;
  /** Switched by the user at run time (remembered for this directory), not by the config. */
  switched: boolean;
}

/** What the tools cost and which reach the model (runtime/tool-budget.ts computes it). */
export interface ToolBudgetView {
  /** alias -> tool name -> entry. */
  tools: Record<string, Record<string, ToolBudgetEntry>>;
  /**
   * alias -> tokens and count of its tools that are on (and can be sent: a withheld tool never is),
   * how many are switched off, and whether the user switched the server as a whole.
   */
  servers: Record<string, { tokens: number; on: number; off: number; switched: boolean }>;
  /** Tool search is on: the model gets `tool_search` and the tools it found. */
  searching: boolean;
  /** Tokens of the enabled tools' definitions, of the budget, and of what the next request sends. */
  enabledTokens: number;
  budgetTokens: number;
  sentTokens: number;
  /** Runtime switches in effect (for the "switched here" note). */
  switchCount: number;
}

export interface McpSlice {
  servers: Record<string, ServerSnapshot>;
  /** Display order: config order, then runtime connects. */
  order: string[];
  /** Whether each server's instructions reach the model: sent, switched off in the config, or changed and held back. */
  instructionStates: Record<string, 'sent' | 'off' | 'changed'>;
  toolBudget?: ToolBudgetView;
  /** Each server's resources as the sidebar lists them (runtime/resources/); `changed`: a subscribed one changed. */
  resources?: Record<string, SidebarResource[]>;
}

/** A resource row of the sidebar (raw server text: the panel sanitizes it). */
export interface SidebarResource {
  uri: string;
  name: string;
  changed?: boolean;
  /** A resource template (`uri` is its URI template): the names of its parameters. */
  parameters?: string[];
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
  /**
   * When the last key arrived while the frame's key guard was still running: every such key
   * restarts the guard, so someone typing when the frame appears cannot answer it mid-word.
   */
  guardKeyAt?: number;
  /** `reason`: typing a deny reason; `edit`: editing a command before running it; `args`: a tool call's arguments; `rule`: a rule to save. */
  mode: 'buttons' | 'reason' | 'edit' | 'args' | 'rule';
  field: EditorState;
  /** The allow action pressed once on a call that takes it twice (frameKeys.ts `confirmAllow`). */
  confirming?: string;
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
  formUi?: FormUi;
  sidebarUi: SidebarUi;
  /** The transcript shows reasoning folded to one line. */
  reasoningCollapsed: boolean;
  /** Transcript items shown expanded (tool results in full). */
  expandedIds: string[];
  /** The terminal's background: which theme the colours come from (terminal/background.ts). */
  background: 'dark' | 'light';
  /** The open picker, if any (it takes the keys until it closes). */
  picker?: PickerState;
}
