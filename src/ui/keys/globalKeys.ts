import { isExpandable } from '../../transcript';
import type { AppStore } from '../../state/store';
import { EMPTY_EDITOR } from '../../state/slices/ui';
import { sidebarShown } from '../../state/selectors';
import type { Focus } from '../../state/types';
import type { AppController } from '../../runtime/controller';
import { commandLetters } from './keymap';
import { isCtrl, type KeyEvent } from '../../terminal/keyboard/keys';

/** A second Ctrl+C within this window quits. */
export const QUIT_WINDOW_MS = 1000;

/** Ctrl+C, Ctrl+D, Ctrl+L: reachable whatever has the focus, frames included. */
export function handleCoreKey(store: AppStore, controller: AppController, redraw: () => void, key: KeyEvent, now = Date.now()): boolean {
  const state = store.getState();
  if (isCtrl(key, 'd')) {
    controller.quit();
    return true;
  }
  if (isCtrl(key, 'l')) {
    redraw();
    return true;
  }
  if (!isCtrl(key, 'c')) return false;
  if (controller.cancel()) {
    state.armQuit(undefined);
    return true;
  }
  if (state.sidebarUi.connect) {
    state.updateSidebarUi({ connect: undefined });
    return true;
  }
  if (state.editor.text.length > 0) {
    state.setEditor({ ...EMPTY_EDITOR, killed: state.editor.killed });
    return true;
  }
  if (state.quitArmedAt !== undefined && now - state.quitArmedAt <= QUIT_WINDOW_MS) {
    controller.quit();
    return true;
  }
  state.armQuit(now);
  state.setHint('press Ctrl+C again to quit');
  setTimeout(() => {
    if (store.getState().quitArmedAt === now) {
      store.getState().armQuit(undefined);
      if (store.getState().hint === 'press Ctrl+C again to quit') store.getState().setHint(undefined);
    }
  }, QUIT_WINDOW_MS);
  return true;
}

export interface TranscriptGeometry {
  columns: number;
  /** Rows the transcript has on screen. */
  height: number;
  /** Rows the whole transcript takes at the current width. */
  totalRows: () => number;
}

/** A printable key (or a run of them) that the focused transcript or sidebar does not use as a command. */
function typedForInput(focus: Focus, key: KeyEvent): boolean {
  if (focus === 'input' || key.ctrl || key.meta) return false;
  if (key.name !== 'text' || key.paste) return false;
  return !commandLetters(focus).has(key.text);
}

/** Focus movement, the sidebar toggle and transcript scrolling. */
export function handleNavigationKey(store: AppStore, geometry: TranscriptGeometry, key: KeyEvent): boolean {
  const state = store.getState();
  const maxScroll = () => Math.max(0, geometry.totalRows() - geometry.height);
  const page = Math.max(1, geometry.height - 2);
  if (key.name === 'tab' && !key.ctrl && !key.meta) {
    // `:` commands complete with Tab in the input.
    if (!key.shift && state.focus === 'input' && state.editor.text.startsWith(':') && !state.editor.literal) return false;
    state.cycleFocus(key.shift ? -1 : 1, sidebarShown(state, geometry.columns));
    return true;
  }
  if (key.name === 'paste' && state.focus !== 'input' && !state.sidebarUi.connect) {
    // A paste is meant for the input, wherever the focus was: move there and let the input take it.
    state.updateSidebarUi({ detail: undefined });
    state.setFocus('input');
    return false;
  }
  if (typedForInput(state.focus, key)) {
    // Typing while the transcript or the sidebar has the focus is meant for the input: move there
    // and let the input take this very key. Frames and overlays (higher priority) never get here.
    state.setFocus('input');
    return false;
  }
  if (isCtrl(key, 's')) {
    state.toggleSidebar(sidebarShown(state, geometry.columns));
    return true;
  }
  if (key.name === 'pageup') {
    state.scrollBy(page, maxScroll());
    return true;
  }
  if (key.name === 'pagedown') {
    state.scrollBy(-page);
    return true;
  }
  const transcriptHomeEnd = state.focus === 'chat' || (state.focus === 'input' && state.editor.text.length === 0) || key.ctrl;
  if ((key.name === 'home' || key.name === 'end') && transcriptHomeEnd && state.focus !== 'sidebar') {
    if (key.name === 'home') state.setScrollOffset(maxScroll());
    else state.scrollToBottom();
    return true;
  }
  if (key.name === 'escape' && state.focus !== 'input') {
    state.setFocus('input');
    return true;
  }
  return false;
}

/** The focused transcript: line scrolling, reasoning fold, tool results and long messages expanded. */
export function handleChatKey(store: AppStore, geometry: TranscriptGeometry, key: KeyEvent): boolean {
  const state = store.getState();
  if (state.focus !== 'chat') return false;
  const maxScroll = Math.max(0, geometry.totalRows() - geometry.height);
  if (key.name === 'up') state.scrollBy(1, maxScroll);
  else if (key.name === 'down') state.scrollBy(-1);
  else if (key.name === 'text' && key.text === 'r' && !key.paste) state.toggleReasoning();
  else if (key.name === 'text' && key.text === 'x' && !key.paste) {
    const ids = state.items.filter(isExpandable).map((item) => item.id);
    state.setExpandedIds(state.expandedIds.length > 0 ? [] : ids);
  } else return false;
  return true;
}
