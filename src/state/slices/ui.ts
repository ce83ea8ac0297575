import type { StateCreator } from 'zustand/vanilla';
import type { Focus, UiSlice } from '../types';
import type { AppState } from '../store';

export interface UiActions {
  setFocus: (focus: Focus) => void;
  cycleFocus: (direction: 1 | -1) => void;
  /** Flips what the user sees now (auto-hidden counts as hidden). */
  toggleSidebar: (currentlyShown: boolean) => void;
  setDraft: (draft: string) => void;
  scrollBy: (lines: number) => void;
  scrollToBottom: () => void;
  armQuit: (at: number | undefined) => void;
  setHint: (hint: string | undefined) => void;
}

const FOCUS_ORDER: Focus[] = ['input', 'sidebar', 'chat'];

export const createUiSlice: StateCreator<AppState, [], [], UiSlice & UiActions> = (set) => ({
  focus: 'input',
  sidebarVisible: true,
  sidebarPinned: false,
  draft: '',
  scrollOffset: 0,

  setFocus: (focus) => set({ focus }),
  cycleFocus: (direction) =>
    set((state) => {
      const order = state.sidebarVisible ? FOCUS_ORDER : FOCUS_ORDER.filter((focus) => focus !== 'sidebar');
      const index = order.indexOf(state.focus);
      const next = order[(index + direction + order.length) % order.length] ?? 'input';
      return { focus: next };
    }),
  toggleSidebar: (currentlyShown) =>
    set((state) => ({
      sidebarVisible: !currentlyShown,
      sidebarPinned: !currentlyShown,
      focus: currentlyShown && state.focus === 'sidebar' ? 'input' : state.focus,
    })),
  setDraft: (draft) => set({ draft }),
  scrollBy: (lines) => set((state) => ({ scrollOffset: Math.max(0, state.scrollOffset + lines) })),
  scrollToBottom: () => set({ scrollOffset: 0 }),
  armQuit: (quitArmedAt) => set({ quitArmedAt }),
  setHint: (hint) => set({ hint }),
});
