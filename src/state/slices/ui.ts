import type { StateCreator } from 'zustand/vanilla';
import type { EditorState, Focus, FormUi, FrameUi, PickerState, SidebarUi, UiSlice } from '../types';
import type { AppState } from '../store';

export interface UiActions {
  setFocus: (focus: Focus) => void;
  /** Moves focus input -> sidebar -> chat; `sidebarShown` false skips the sidebar (hidden or auto-hidden). */
  cycleFocus: (direction: 1 | -1, sidebarShown?: boolean) => void;
  /** Flips what the user sees now (auto-hidden counts as hidden). */
  toggleSidebar: (currentlyShown: boolean) => void;
  /** Replaces the input text (cursor at the end, no paste chips). */
  setDraft: (draft: string) => void;
  /** Replaces the input with its cursor and paste chips. */
  setEditor: (editor: EditorState) => void;
  /** Scrolls the transcript; `max` (when known) keeps the offset inside the transcript. */
  scrollBy: (lines: number, max?: number) => void;
  setScrollOffset: (offset: number) => void;
  scrollToBottom: () => void;
  armQuit: (at: number | undefined) => void;
  setHint: (hint: string | undefined) => void;
  setFrameUi: (frameUi: FrameUi | undefined) => void;
  setFormUi: (formUi: FormUi | undefined) => void;
  updateSidebarUi: (update: Partial<SidebarUi>) => void;
  toggleReasoning: () => void;
  /** Expands a transcript item (tool result) or folds it again. */
  toggleExpanded: (id: string) => void;
  setExpandedIds: (ids: string[]) => void;
  /** Opens a picker (replacing one that is open) or closes it (undefined). */
  setPicker: (picker: PickerState | undefined) => void;
  /** Changes the open picker (items arriving, filter, selection); nothing when none is open. */
  updatePicker: (update: Partial<PickerState>) => void;
  setBackground: (background: 'dark' | 'light') => void;
}

export const EMPTY_EDITOR: EditorState = { text: '', cursor: 0, pastes: {}, literal: false, killed: '' };

/** An input holding `text` with the cursor at its end (a taken-back message, a recalled entry). */
export function editorFromText(text: string): EditorState {
  return { ...EMPTY_EDITOR, text, cursor: text.length };
}

const FOCUS_ORDER: Focus[] = ['input', 'sidebar', 'chat'];

export const createUiSlice: StateCreator<AppState, [], [], UiSlice & UiActions> = (set) => ({
  focus: 'input',
  sidebarVisible: true,
  sidebarPinned: false,
  draft: '',
  scrollOffset: 0,
  editor: EMPTY_EDITOR,
  frameUi: undefined,
  sidebarUi: { expanded: [] },
  reasoningCollapsed: false,
  expandedIds: [],
  background: 'dark',

  setFocus: (focus) => set({ focus }),
  cycleFocus: (direction, sidebarShown) =>
    set((state) => {
      const withSidebar = sidebarShown ?? state.sidebarVisible;
      const order = withSidebar ? FOCUS_ORDER : FOCUS_ORDER.filter((focus) => focus !== 'sidebar');
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
  setDraft: (draft) => set((state) => ({ draft, editor: { ...EMPTY_EDITOR, text: draft, cursor: draft.length, killed: state.editor.killed } })),
  setEditor: (editor) => set({ editor, draft: editor.text }),
  scrollBy: (lines, max) =>
    set((state) => {
      const next = Math.max(0, state.scrollOffset + lines);
      return { scrollOffset: max === undefined ? next : Math.min(next, Math.max(0, max)) };
    }),
  setScrollOffset: (offset) => set({ scrollOffset: Math.max(0, offset) }),
  scrollToBottom: () => set({ scrollOffset: 0 }),
  armQuit: (quitArmedAt) => set({ quitArmedAt }),
  setHint: (hint) => set({ hint }),
  setFrameUi: (frameUi) => set({ frameUi }),
  setFormUi: (formUi) => set({ formUi }),
  updateSidebarUi: (update) => set((state) => ({ sidebarUi: { ...state.sidebarUi, ...update } })),
  toggleReasoning: () => set((state) => ({ reasoningCollapsed: !state.reasoningCollapsed })),
  toggleExpanded: (id) =>
    set((state) => ({ expandedIds: state.expandedIds.includes(id) ? state.expandedIds.filter((entry) => entry !== id) : [...state.expandedIds, id] })),
  setExpandedIds: (expandedIds) => set({ expandedIds }),
  setPicker: (picker) => set({ picker }),
  updatePicker: (update) => set((state) => (state.picker ? { picker: { ...state.picker, ...update } } : {})),
  setBackground: (background) => set({ background }),
});
