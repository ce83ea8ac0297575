import type { StateCreator } from 'zustand/vanilla';
import type { ApprovalAnswer, ApprovalRequest, CommandAnswer, ProposedCommand } from '../../services/conversation/types';
import type { ToolsSlice } from '../types';
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
  addSessionRule: (rule: string) => void;
  /** Denies everything still waiting (cancel, quit). */
  cancelPending: () => void;
}

export const createToolsSlice: StateCreator<AppState, [], [], ToolsSlice & ToolsActions> = (set, get) => ({
  approvals: [],
  commands: [],
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
  addSessionRule: (rule) => set((state) => (state.sessionRules.includes(rule) ? {} : { sessionRules: [...state.sessionRules, rule] })),
  cancelPending: () => {
    const { approvals, commands } = get();
    set({ approvals: [], commands: [] });
    for (const pending of approvals) pending.resolve({ action: 'deny', reason: 'cancelled' });
    for (const pending of commands) pending.resolve({ action: 'skip' });
  },
});
