import type { StateCreator } from 'zustand/vanilla';
import type { Attachment, ContextSnapshot, ConversationEvent, Message } from '../../services/conversation/types';
import type { ContextWindow } from '../../services/context/window';
import type { ChatItem, ChatSlice } from '../types';
import type { AppState } from '../store';

export interface ChatActions {
  /** Folds one conversation event into the transcript and the history. */
  applyConversationEvent: (event: ConversationEvent) => void;
  /** Folds several events (one frame's worth) in a single store update. */
  applyConversationEvents: (events: readonly ConversationEvent[]) => void;
  /** Shows a resumed or imported history (never re-runs anything). */
  loadHistory: (messages: Message[]) => void;
  addStatus: (level: 'info' | 'warn' | 'error', text: string) => void;
  addUserItem: (id: string, text: string, attachments?: string[]) => void;
  /** Takes an unanswered user message out of the conversation and the transcript. */
  withdrawUserMessage: (id: string) => void;
  clearChat: () => void;
  setModelName: (name: string) => void;
  /** A model's window became known (or changed): see `selectContextWindow`. */
  setContextWindow: (modelName: string, window: ContextWindow) => void;
  setContext: (context: ContextSnapshot | undefined) => void;
}

/** The transcript item of a compaction record. */
export function compactionItem(message: Extract<Message, { role: 'compaction' }>): ChatItem {
  return {
    kind: 'compaction',
    id: message.id,
    version: 0,
    summary: message.summary,
    replaced: message.replaced,
    trigger: message.trigger,
    ...(message.focus ? { focus: message.focus } : {}),
    ...(message.tokensBefore !== undefined ? { tokensBefore: message.tokensBefore } : {}),
    ...(message.tokensAfter !== undefined ? { tokensAfter: message.tokensAfter } : {}),
  };
}

/** How an attached file shows in the transcript (raw: sanitized when drawn). */
export function attachmentLabel(attachment: Pick<Attachment, 'path' | 'kind' | 'bytes' | 'origin'>): string {
  const size = attachment.bytes < 1024 ? `${attachment.bytes} B` : `${Math.ceil(attachment.bytes / 1024)} KB`;
  return `${attachment.kind === 'image' ? 'image ' : attachment.origin === 'resource' ? 'resource ' : ''}${attachment.path} · ${size}`;
}

let nextItemId = 0;
export const newItemId = (prefix: string) => `${prefix}-${++nextItemId}`;

/** Replaces the item with `id` (if present) by `update(item)`, bumping its version. */
function updateItem(items: ChatItem[], id: string, update: (item: ChatItem) => ChatItem): ChatItem[] {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index];
    if (item && item.id === id) {
      const next = items.slice();
      next[index] = { ...update(item), version: item.version + 1 } as ChatItem;
      return next;
    }
  }
  return items;
}

/**
 * The answer still streaming, if nothing but status lines came after it: a notice shown while it
 * streams (a message queued, a server's state) goes below it and does not cut it in two.
 */
function lastStreamingAssistant(items: ChatItem[]): Extract<ChatItem, { kind: 'assistant' }> | undefined {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index]!;
    if (item.kind === 'assistant') return item.streaming ? item : undefined;
    if (item.kind !== 'status') return undefined;
  }
  return undefined;
}

function itemsFromMessages(messages: Message[]): ChatItem[] {
  const items: ChatItem[] = [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        items.push({ kind: 'user', id: message.id, version: 0, text: message.content, ...(message.attachments?.length ? { attachments: message.attachments.map(attachmentLabel) } : {}) });
        break;
      case 'assistant':
        items.push({
          kind: 'assistant',
          id: message.id,
          version: 0,
          text: message.content,
          reasoning: message.reasoning ?? '',
          streaming: false,
          // A resumed answer that was cancelled or cut keeps its note.
          ...(message.finishReason && message.finishReason !== 'stop' && message.finishReason !== 'tool_calls' ? { endNote: message.finishReason } : {}),
        });
        for (const call of message.toolCalls ?? []) {
          items.push({ kind: 'tool', id: call.id, version: 0, state: 'pending', call: { id: call.id, wireName: call.name, rawArguments: call.arguments } });
        }
        break;
      case 'tool': {
        const index = items.findIndex((item) => item.kind === 'tool' && item.id === message.toolCallId);
        const item = items[index];
        // The outcome comes from a file: only the values we write are believed.
        const notRun = message.outcome === 'denied' || message.outcome === 'skipped' || message.outcome === 'cancelled' ? message.outcome : undefined;
        if (item && item.kind === 'tool') {
          // The user edited the arguments before allowing: the item shows the ones that ran, as it
          // did live (the result keeps the note saying so). Only a JSON object is taken from the file.
          const ran = editedArgumentsOf(message);
          const call = ran ? { ...item.call, arguments: ran, rawArguments: JSON.stringify(ran) } : item.call;
          items[index] = { ...item, call, state: notRun ?? (message.isError ? 'error' : 'done'), result: message.content };
        }
        break;
      }
      case 'exec':
        items.push({ kind: 'command', id: message.id, version: 0, command: message.command, state: 'done', output: message.output, exitCode: message.exitCode });
        break;
      case 'compaction':
        items.push(compactionItem(message));
        break;
    }
  }
  return items;
}

function editedArgumentsOf(message: Message): Record<string, unknown> | undefined {
  const value = message.role === 'tool' ? message.editedArguments : undefined;
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

/** How one conversation event changes the chat state (pure: used for single events and batches). */
export function foldConversationEvent(state: AppState, event: ConversationEvent): Partial<AppState> {
  switch (event.type) {
    case 'request-start':
      return { brokerState: 'waiting', modelName: event.model, requestModel: event.model };
    case 'text-delta':
    case 'reasoning-delta': {
      const open = lastStreamingAssistant(state.items);
      const field = event.type === 'text-delta' ? 'text' : 'reasoning';
      if (open) {
        return { brokerState: 'streaming', items: updateItem(state.items, open.id, (item) => ({ ...item, [field]: (item as typeof open)[field] + event.text }) as ChatItem) };
      }
      const item: ChatItem = { kind: 'assistant', id: newItemId('a'), version: 0, text: '', reasoning: '', streaming: true, [field]: event.text };
      return { brokerState: 'streaming', items: [...state.items, item] };
    }
    case 'tool-call': {
      const items = closeStreaming(state.items);
      return { brokerState: 'tools', items: [...items, { kind: 'tool', id: event.call.id, version: 0, call: event.call, state: 'pending' }] };
    }
    case 'tool-decision':
      return {
        items: updateItem(state.items, event.id, (item) => {
          if (item.kind !== 'tool') return item;
          const decided = event.decision.action === 'deny' ? 'denied' : event.decision.action === 'skip' ? 'skipped' : item.state;
          // The user edited the arguments: the item shows the ones that run.
          const edited = event.decision.action === 'allow' && event.decision.arguments ? event.decision : undefined;
          const call = edited?.arguments ? { ...item.call, arguments: edited.arguments, rawArguments: JSON.stringify(edited.arguments), ...(edited.edited ? { edited: edited.edited } : {}) } : item.call;
          return { ...item, call, decision: event.decision, state: decided };
        }),
      };
    case 'tool-started':
      return { items: updateItem(state.items, event.id, (item) => ({ ...item, state: 'running', startedAt: Date.now() }) as ChatItem) };
    case 'tool-progress':
      return { items: updateItem(state.items, event.id, (item) => ({ ...item, progress: event.progress }) as ChatItem) };
    case 'tool-result':
      return {
        items: updateItem(state.items, event.id, (item) => {
          if (item.kind !== 'tool') return item;
          const finalState = item.state === 'denied' || item.state === 'skipped' ? item.state : event.outcome === 'cancelled' ? 'cancelled' : event.isError ? 'error' : 'done';
          return { ...item, state: finalState, result: event.content, endedAt: Date.now() };
        }),
      };
    case 'command-proposed':
      return { items: [...closeStreaming(state.items), { kind: 'command', id: event.command.id, version: 0, command: event.command.command, state: 'proposed', output: '', ...(event.command.sandbox?.startsWith('sandboxed:') ? { sandboxed: true } : {}) }] };
    case 'command-started':
      return { items: updateItem(state.items, event.id, (item) => ({ ...item, command: event.command, state: 'running' }) as ChatItem) };
    case 'command-output':
      return { items: updateItem(state.items, event.id, (item) => (item.kind === 'command' ? { ...item, output: item.output + event.chunk } : item)) };
    case 'command-exit':
      return { items: updateItem(state.items, event.id, (item) => ({ ...item, state: 'done', exitCode: event.exitCode, timedOut: event.timedOut, ...(event.refused ? { refused: true } : {}) }) as ChatItem) };
    case 'command-skipped':
      return { items: updateItem(state.items, event.id, (item) => ({ ...item, state: 'skipped' }) as ChatItem) };
    case 'usage': {
      // Counts belong to the model that answered, which `:model` may have replaced since the request went out.
      const model = state.requestModel ?? state.modelName;
      const keptSpeed = state.usageModel === model ? state.tokensPerSecond : undefined;
      return { lastUsage: event.usage, tokensPerSecond: event.tokensPerSecond ?? keptSpeed, usageModel: model };
    }
    case 'status':
      return { items: [...state.items, { kind: 'status', id: newItemId('s'), version: 0, level: event.level, text: event.message }] };
    case 'error':
      return { brokerState: 'error', items: [...closeStreaming(state.items), { kind: 'status', id: newItemId('e'), version: 0, level: 'error', text: event.message }] };
    case 'message':
      if (event.message.role === 'compaction') return { messages: [...state.messages, event.message], items: [...closeStreaming(state.items), compactionItem(event.message)] };
      return { messages: [...state.messages, event.message] };
    case 'context':
      return { context: event.context };
    case 'done': {
      // A turn cancelled after its answer was complete (while a tool or a proposed command ran)
      // leaves the answer as it was: the tool or command says it was cancelled.
      const finished = lastAnswerMessageOfTurn(state.messages)?.finishReason;
      const complete = finished === 'stop' || finished === 'tool_calls';
      const note = event.finishReason === 'stop' || event.finishReason === 'tool_calls' || complete ? undefined : event.finishReason;
      // An error line may already have closed the answer; the note still belongs on it, so the
      // partial text reads as unfinished right away, not only after a resume.
      const answer = lastAnswerOfTurn(state.items);
      let items = answer
        ? updateItem(state.items, answer.id, (item) => ({ ...item, streaming: false, ...(note && item.kind === 'assistant' && !item.endNote ? { endNote: note } : {}) }) as ChatItem)
        : state.items;
      // Cancelled after the tools finished, while the model was to answer their results: no item
      // shows it, so say it.
      const last = items.at(-1);
      if (event.finishReason === 'cancelled' && last?.kind === 'tool' && (last.state === 'done' || last.state === 'error' || last.state === 'denied' || last.state === 'skipped')) {
        items = [...items, { kind: 'status', id: newItemId('s'), version: 0, level: 'info', text: 'cancelled before the model answered the tool results' }];
      }
      return { items, brokerState: state.brokerState === 'error' ? 'error' : 'idle', turnsEnded: state.turnsEnded + 1 };
    }
  }
}

export const createChatSlice: StateCreator<AppState, [], [], ChatSlice & ChatActions> = (set) => ({
  messages: [],
  items: [],
  brokerState: 'idle',
  turnsEnded: 0,
  modelName: '',
  windows: {},

  applyConversationEvent: (event) => set((state) => foldConversationEvent(state, event)),
  applyConversationEvents: (events) =>
    set((state) => {
      // One store update for a whole frame's worth of events: subscribers render once.
      let current = state;
      let patch: Partial<AppState> = {};
      for (const event of events) {
        const next = foldConversationEvent(current, event);
        current = { ...current, ...next };
        patch = { ...patch, ...next };
      }
      return patch;
    }),

  // Status lines already shown (start-up notices, a damaged log's warnings) stay, after the history.
  loadHistory: (messages) => set((state) => ({ messages: [...messages], items: [...itemsFromMessages(messages), ...state.items.filter((item) => item.kind === 'status')] })),
  addStatus: (level, text) => set((state) => ({ items: [...state.items, { kind: 'status', id: newItemId('s'), version: 0, level, text }] })),
  addUserItem: (id, text, attachments) => set((state) => ({ items: [...state.items, { kind: 'user', id, version: 0, text, ...(attachments?.length ? { attachments } : {}) }] })),
  withdrawUserMessage: (id) =>
    set((state) => ({
      messages: state.messages.filter((message) => !(message.id === id && message.role === 'user')),
      items: state.items.filter((item) => !(item.id === id && item.kind === 'user')),
    })),
  clearChat: () => set({ messages: [], items: [], brokerState: 'idle', lastUsage: undefined, tokensPerSecond: undefined, usageModel: undefined, context: undefined }),
  setModelName: (modelName) => set({ modelName }),
  setContextWindow: (modelName, window) => set((state) => ({ windows: { ...state.windows, [modelName]: window } })),
  setContext: (context) => set({ context }),
});

/** The newest assistant message after the last user message. */
function lastAnswerMessageOfTurn(messages: Message[]): Extract<Message, { role: 'assistant' }> | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (!message || message.role === 'user') return undefined;
    if (message.role === 'assistant') return message;
  }
  return undefined;
}

/** The newest assistant item after the last user message: the answer the `done` event ends. */
function lastAnswerOfTurn(items: ChatItem[]): Extract<ChatItem, { kind: 'assistant' }> | undefined {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index];
    if (!item || item.kind === 'user') return undefined;
    if (item.kind === 'assistant') return item;
  }
  return undefined;
}

function closeStreaming(items: ChatItem[]): ChatItem[] {
  const open = lastStreamingAssistant(items);
  return open ? updateItem(items, open.id, (item) => ({ ...item, streaming: false }) as ChatItem) : items;
}
