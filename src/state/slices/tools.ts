import type { StateCreator } from 'zustand/vanilla';
import type { ApprovalAnswer, ApprovalRequest, CommandAnswer, ProposedCommand } from '../../services/conversation/types';
import type { ElicitationAnswer } from '../../services/mcp/index';
import type { PendingElicitation, ToolsSlice } from '../types';
import type { AppState } from '../store';

export interface ToolsActions {
  /** Queues an approval frame; resolves when the user answers it. */
  requestApproval: (request: ApprovalRequest) => Promise<ApprovalAnswer>;
  /**
   * Answers the frame at the head of the queue. With `id`, only if the head is still that call:
   * an answer is bound to the call the frame showed.
   */
  answerApproval: (answer: ApprovalAnswer, id?: string) => void;
  requestCommand: (command: ProposedCommand) => Promise<CommandAnswer>;
  /** Answers the command at the head of the queue (with `id`: only if it is still that command). */
  answerCommand: (answer: CommandAnswer, id?: string) => void;
  /** Queues a server's elicitation frame; resolves when the user answers it (or it is withdrawn). */
  requestElicitation: (pending: Omit<PendingElicitation, 'shownAt' | 'resolve'>) => Promise<ElicitationAnswer>;
  /** Answers the elicitation at the head of the queue, only if it is still `id`. */
  answerElicitation: (answer: ElicitationAnswer, id: string) => void;
  /** Takes an elicitation out of the queue wherever it is (the server cancelled it or finished it), answering `answer`. */
  withdrawElicitation: (id: string, answer: ElicitationAnswer) => boolean;
  addSessionRule: (rule: string) => void;
  /** Denies everything still waiting (cancel, quit). */
  cancelPending: () => void;
}

export const createToolsSlice: StateCreator<AppState, [], [], ToolsSlice & ToolsActions> = (set, get) => ({
  approvals: [],
  commands: [],
  elicitations: [],
  sessionRules: [],

  requestApproval: (request) =>
    new Promise<ApprovalAnswer>((resolve) => {
      set((state) => ({ approvals: [...state.approvals, { request, shownAt: Date.now(), resolve }] }));
    }),
  answerApproval: (answer, id) => {
    const [head, ...rest] = get().approvals;
    if (!head || (id !== undefined && head.request.call.id !== id)) return;
    set({ approvals: rest.length > 0 && rest[0] ? [{ ...rest[0], shownAt: Date.now() }, ...rest.slice(1)] : [] });
    head.resolve(answer);
  },
  requestCommand: (command) =>
    new Promise<CommandAnswer>((resolve) => {
      set((state) => ({ commands: [...state.commands, { command, shownAt: Date.now(), resolve }] }));
    }),
  answerCommand: (answer, id) => {
    const [head, ...rest] = get().commands;
    if (!head || (id !== undefined && head.command.id !== id)) return;
    set({ commands: rest.length > 0 && rest[0] ? [{ ...rest[0], shownAt: Date.now() }, ...rest.slice(1)] : [] });
    head.resolve(answer);
  },
  requestElicitation: (pending) =>
    new Promise<ElicitationAnswer>((resolve) => {
      set((state) => ({ elicitations: [...state.elicitations, { ...pending, shownAt: Date.now(), resolve }] }));
    }),
  answerElicitation: (answer, id) => {
    const [head, ...rest] = get().elicitations;
    if (!head || head.id !== id) return;
    set({ elicitations: rest.length > 0 && rest[0] ? [{ ...rest[0], shownAt: Date.now() }, ...rest.slice(1)] : [], formUi: undefined });
    head.resolve(answer);
  },
  withdrawElicitation: (id, answer) => {
    const list = get().elicitations;
    const index = list.findIndex((pending) => pending.id === id);
    if (index < 0) return false;
    const pending = list[index]!;
    const rest = list.filter((_, at) => at !== index);
    // The next one (if the head went) counts its key delay from now.
    if (index === 0 && rest[0]) rest[0] = { ...rest[0], shownAt: Date.now() };
    set({ elicitations: rest, ...(index === 0 ? { formUi: undefined } : {}) });
    pending.resolve(answer);
    return true;
  },
  addSessionRule: (rule) => set((state) => (state.sessionRules.includes(rule) ? {} : { sessionRules: [...state.sessionRules, rule] })),
  cancelPending: () => {
    const { approvals, commands, elicitations } = get();
    set({ approvals: [], commands: [], elicitations: [], formUi: undefined });
    for (const pending of approvals) pending.resolve({ action: 'deny', reason: 'cancelled' });
    for (const pending of commands) pending.resolve({ action: 'skip' });
    for (const pending of elicitations) pending.resolve({ action: 'cancel' });
  },
});
