import { createStore, type StoreApi } from 'zustand/vanilla';
import { createChatSlice, type ChatActions } from './slices/chat';
import { createMcpSlice, type McpActions } from './slices/mcp';
import { createToolsSlice, type ToolsActions } from './slices/tools';
import { createUiSlice, type UiActions } from './slices/ui';
import { createSamplingSlice, type SamplingActions, type SamplingSlice } from './slices/sampling';
import type { ChatSlice, McpSlice, ToolsSlice, UiSlice } from './types';

export type AppState = ChatSlice & ChatActions & ToolsSlice & ToolsActions & McpSlice & McpActions & UiSlice & UiActions & SamplingSlice & SamplingActions;
export type AppStore = StoreApi<AppState>;

export interface StoreOptions {
  modelName?: string;
  sidebarVisible?: boolean;
  background?: 'dark' | 'light';
}

/** One store per app (and per test): vanilla, so services, headless mode and tests can use it without React. */
export function createAppStore(options: StoreOptions = {}): AppStore {
  const store = createStore<AppState>()((...args) => ({
    ...createChatSlice(...args),
    ...createToolsSlice(...args),
    ...createMcpSlice(...args),
    ...createUiSlice(...args),
    ...createSamplingSlice(...args),
  }));
  store.setState({
    ...(options.modelName !== undefined ? { modelName: options.modelName } : {}),
    ...(options.sidebarVisible !== undefined ? { sidebarVisible: options.sidebarVisible } : {}),
    ...(options.background !== undefined ? { background: options.background } : {}),
  });
  return store;
}
