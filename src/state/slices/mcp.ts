import type { StateCreator } from 'zustand/vanilla';
import type { McpEvent } from '../../services/mcp/index';
import type { McpSlice, SidebarResource, ToolBudgetView } from '../types';
import type { AppState } from '../store';

export interface McpActions {
  applyMcpEvent: (event: McpEvent) => void;
  setInstructionState: (alias: string, state: 'sent' | 'off' | 'changed' | undefined) => void;
  setToolBudget: (view: ToolBudgetView) => void;
  setResources: (alias: string, resources: SidebarResource[] | undefined) => void;
}

export const createMcpSlice: StateCreator<AppState, [], [], McpSlice & McpActions> = (set) => ({
  servers: {},
  order: [],
  instructionStates: {},
  setInstructionState: (alias, state) =>
    set((current) => {
      const { [alias]: _old, ...rest } = current.instructionStates;
      return { instructionStates: state ? { ...rest, [alias]: state } : rest };
    }),
  setToolBudget: (toolBudget) => set({ toolBudget }),
  setResources: (alias, list) =>
    set((current) => {
      // A server without resources, as before, changes nothing: no update for every subscriber (twenty
      // servers starting each report their empty list, and each update redrew the whole sidebar).
      if (current.resources?.[alias] === undefined && (list === undefined || list.length === 0)) return current;
      const { [alias]: _old, ...rest } = current.resources ?? {};
      return { resources: list && list.length > 0 ? { ...rest, [alias]: list } : rest };
    }),
  applyMcpEvent: (event) =>
    set((state) => {
      switch (event.type) {
        case 'server': {
          const alias = event.snapshot.alias;
          const order = state.order.includes(alias) ? state.order : [...state.order, alias];
          return { servers: { ...state.servers, [alias]: event.snapshot }, order };
        }
        case 'removed': {
          const { [event.alias]: _removed, ...servers } = state.servers;
          return { servers, order: state.order.filter((alias) => alias !== event.alias) };
        }
        default:
          // Status lines, finished elicitations and tasks, late progress: shown by the session.
          return {};
      }
    }),
});
