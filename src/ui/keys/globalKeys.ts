import { isExpandable } from '../../transcript';
import type { AppStore } from '../../state/store';
import { EMPTY_EDITOR } from '../../state/slices/ui';
import { sidebarShown } from '../../state/selectors';
import type { AppController } from '../../runtime/controller';
import { completesWithTab } from '../input/completes';
import { actionFor, runAction, type ActionHandlers, type KeyAction, type KeyContext } from './keymap';
import type { KeyEvent } from '../../terminal/keyboard/keys';

/** A second Ctrl+C within this window quits. */
export const QUIT_WINDOW_MS = 1000;

interface CoreArgs {
  store: AppStore;
  controller: AppController;
  redraw: () => void;
  now: number;
}

function interrupt({ store, controller, now }: CoreArgs): boolean {
  const state = store.getState();
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

/** Ctrl+C, Ctrl+D, Ctrl+L: reachable whatever has the focus, frames included. */
export const CORE_ACTIONS = {
  'app.quit': ({ controller }) => {
    controller.quit();
    return true;
  },
  'app.redraw': ({ redraw }) => {
    redraw();
    return true;
  },
  'app.interrupt': interrupt,
} satisfies ActionHandlers<KeyAction, [CoreArgs]>;

export function handleCoreKey(store: AppStore, controller: AppController, redraw: () => void, key: KeyEvent, now = Date.now()): boolean {
  return runAction<KeyAction, [CoreArgs]>(CORE_ACTIONS, actionFor('everywhere', key), { store, controller, redraw, now });
}

export interface TranscriptGeometry {
  columns: number;
  /** Rows the transcript has on screen. */
  height: number;
  /** Rows the whole transcript takes at the current width. */
  totalRows: () => number;
}

interface NavigationArgs {
  store: AppStore;
  geometry: TranscriptGeometry;
  key: KeyEvent;
  /** Where the table gave the key its action: everywhere, or in the focused panel's context. */
  from: KeyContext;
}

const maxScroll = (geometry: TranscriptGeometry) => Math.max(0, geometry.totalRows() - geometry.height);
const page = (geometry: TranscriptGeometry) => Math.max(1, geometry.height - 2);

/** Home / End go to the transcript from the chat, from an empty input, or with Ctrl (not in the sidebar). */
function transcriptEnds({ store, from }: NavigationArgs): boolean {
  const state = store.getState();
  if (state.focus === 'sidebar') return false;
  return from === 'everywhere' || state.focus === 'chat' || (state.focus === 'input' && state.editor.text.length === 0);
}

function moveFocus({ store, geometry }: NavigationArgs, direction: 1 | -1): boolean {
  const state = store.getState();
  // `:` and `/` commands and `@file` paths complete with Tab in the input.
  if (direction === 1 && state.focus === 'input' && completesWithTab(state.editor)) return false;
  state.cycleFocus(direction, sidebarShown(state, geometry.columns));
  return true;
}

/** Focus movement, the sidebar toggle, transcript scrolling, and typing that is meant for the input. */
export const NAVIGATION_ACTIONS = {
  'focus.next': (args) => moveFocus(args, 1),
  'focus.previous': (args) => moveFocus(args, -1),
  'focus.pasteIntoInput': ({ store }) => {
    const state = store.getState();
    // A paste is meant for the input, wherever the focus was (the connect prompt takes its own):
    // move there and let the input take it.
    if (state.focus === 'input' || state.sidebarUi.connect) return false;
    state.updateSidebarUi({ detail: undefined });
    state.setFocus('input');
    return false;
  },
  'focus.typeIntoInput': ({ store, key }) => {
    const state = store.getState();
    if (state.focus === 'input' || key.paste) return false;
    // Typing while the transcript or the sidebar has the focus is meant for the input: move there
    // and let the input take this very key. Frames and overlays (higher priority) never get here.
    state.setFocus('input');
    return false;
  },
  'focus.input': ({ store }) => {
    const state = store.getState();
    if (state.focus === 'input') return false;
    state.setFocus('input');
    return true;
  },
  'sidebar.toggle': ({ store, geometry }) => {
    const state = store.getState();
    state.toggleSidebar(sidebarShown(state, geometry.columns));
    return true;
  },
  'transcript.pageUp': ({ store, geometry }) => {
    store.getState().scrollBy(page(geometry), maxScroll(geometry));
    return true;
  },
  'transcript.pageDown': ({ store, geometry }) => {
    store.getState().scrollBy(-page(geometry));
    return true;
  },
  'transcript.top': (args) => {
    if (!transcriptEnds(args)) return false;
    args.store.getState().setScrollOffset(maxScroll(args.geometry));
    return true;
  },
  'transcript.bottom': (args) => {
    if (!transcriptEnds(args)) return false;
    args.store.getState().scrollToBottom();
    return true;
  },
} satisfies ActionHandlers<KeyAction, [NavigationArgs]>;

export function handleNavigationKey(store: AppStore, geometry: TranscriptGeometry, key: KeyEvent): boolean {
  const focus = store.getState().focus;
  const everywhere = actionFor('everywhere', key);
  if (everywhere !== undefined) return runAction<KeyAction, [NavigationArgs]>(NAVIGATION_ACTIONS, everywhere, { store, geometry, key, from: 'everywhere' });
  return runAction<KeyAction, [NavigationArgs]>(NAVIGATION_ACTIONS, actionFor(focus, key), { store, geometry, key, from: focus });
}

interface ChatArgs {
  store: AppStore;
  geometry: TranscriptGeometry;
}

/** The focused transcript: line scrolling, reasoning fold, tool results and long messages expanded. */
export const CHAT_ACTIONS = {
  'chat.lineUp': ({ store, geometry }) => {
    store.getState().scrollBy(1, maxScroll(geometry));
    return true;
  },
  'chat.lineDown': ({ store }) => {
    store.getState().scrollBy(-1);
    return true;
  },
  'chat.toggleReasoning': ({ store }) => {
    store.getState().toggleReasoning();
    return true;
  },
  'chat.toggleExpanded': ({ store }) => {
    const state = store.getState();
    const ids = state.items.filter(isExpandable).map((item) => item.id);
    state.setExpandedIds(state.expandedIds.length > 0 ? [] : ids);
    return true;
  },
} satisfies ActionHandlers<KeyAction, [ChatArgs]>;

export function handleChatKey(store: AppStore, geometry: TranscriptGeometry, key: KeyEvent): boolean {
  if (store.getState().focus !== 'chat') return false;
  // Pasted letters are never commands (a paste goes to the input).
  if (key.paste) return false;
  return runAction<KeyAction, [ChatArgs]>(CHAT_ACTIONS, actionFor('chat', key), { store, geometry });
}
