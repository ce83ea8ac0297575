import { memo, useMemo } from 'react';
import { ConnectPrompt } from '../panels/ConnectPrompt';
import { innerWidth } from '../panels/BoxFrame';
import { Sidebar } from '../panels/Sidebar';
import { effectiveSelection, serverRowId, sidebarRows } from '../panels/sidebarRows';
import type { Theme } from '../../terminal/theme';
import { serverDetailLines, ToolDetails, toolDetailLines, toolDetailRows } from '../panels/ToolDetails';
import { aliasProblem } from '../../runtime/aliases';
import { selectFocus, selectServerList, selectSidebarUi, selectToolBudget } from '../../state/selectors';
import type { AppStore } from '../../state/store';
import { EMPTY_EDITOR } from '../../state/slices/ui';
import type { SidebarUi } from '../../state/types';
import type { AppController } from '../../runtime/controller';
import { flashHint } from '../../runtime/hints';
import { applyEditorKey } from '../input/editor';
import { KeyPriority } from '../../terminal/keyboard/keyInput';
import { isDeliberate, type KeyEvent } from '../../terminal/keyboard/keys';
import { actionFor, runAction, type ActionHandlers, type KeyAction } from '../keys/keymap';
import { useKeys } from '../keys/useKeys';
import { useAppState, useAppStoreApi, useController } from '../StoreContext';

function serverAction(store: AppStore, controller: AppController, alias: string, action: 'reconnect' | 'disconnect'): void {
  const method = action === 'reconnect' ? controller.reconnectServer : controller.disconnectServer;
  if (!method) {
    flashHint(store, `${action} is not available`);
    return;
  }
  method.call(controller, alias);
  flashHint(store, action === 'reconnect' ? `reconnecting ${alias}…` : `disconnecting ${alias}…`);
}

interface SidebarArgs {
  store: AppStore;
  controller: AppController;
  /** Where the key was read: Enter on a server that is not ready shows why; → always expands. */
  opens: boolean;
}

/** What the sidebar's keys act on: the rows as drawn and the selected one. */
function sidebarView(store: AppStore) {
  const state = store.getState();
  const ui = state.sidebarUi;
  // The list the sidebar draws (the same array), so the rows it built are reused here.
  const rows = sidebarRows(selectServerList(state), ui.expanded, state.resources);
  // Focusing the sidebar puts the cursor on the first server; keys act on what is drawn.
  const selected = effectiveSelection(rows, ui.selected);
  const index = Math.max(0, rows.findIndex((row) => row.id === selected));
  const select = (next: number) => {
    const target = rows[Math.max(0, Math.min(rows.length - 1, next))];
    if (target) state.updateSidebarUi({ selected: target.id });
    return true;
  };
  const expand = (alias: string, open: boolean) =>
    state.updateSidebarUi({ expanded: open ? [...ui.expanded.filter((entry) => entry !== alias), alias] : ui.expanded.filter((entry) => entry !== alias) });
  const openServer = (alias: string) => state.updateSidebarUi({ detail: { alias, scrollTop: 0 }, selected: serverRowId(alias) });
  return { state, ui, rows, index, row: rows[index], select, expand, openServer };
}

/** Enter opens (a server that is not ready shows why; a tool shows its details); → expands. */
function openRow({ store, controller, opens }: SidebarArgs): boolean {
  const { state, ui, row, expand, openServer } = sidebarView(store);
  if (!row) return true;
  if (row.kind === 'server') {
    // A server that is not ready has no tools to list: Enter shows why (its error and stderr).
    if (opens && state.servers[row.alias]?.state !== 'ready') openServer(row.alias);
    else expand(row.alias, opens ? !ui.expanded.includes(row.alias) : true);
  } else if (row.uri !== undefined) {
    // A resource: Enter shows it in the transcript (`:resource`, read from the server now); a
    // template goes into the input as `@alias:<template>`, its parameters to fill in there.
    const template = state.resources?.[row.alias]?.find((resource) => resource.uri === row.uri)?.parameters !== undefined;
    if (opens && template) {
      state.setDraft(`${state.editor.text.length > 0 ? `${state.editor.text.replace(/\s*$/, '')} ` : ''}@${row.alias}:${row.uri}`);
      state.setFocus('input');
    } else if (opens) controller.submit(`:resource ${row.alias}:${row.uri}`);
  } else if (row.tool !== undefined) state.updateSidebarUi({ detail: { alias: row.alias, tool: row.tool, scrollTop: 0 }, selected: row.id });
  if (ui.selected !== row.id) state.updateSidebarUi({ selected: row.id });
  return true;
}

function actOnServer(store: AppStore, controller: AppController, action: 'reconnect' | 'disconnect'): boolean {
  const { row } = sidebarView(store);
  if (row) serverAction(store, controller, row.alias, action);
  return true;
}

/** ↑/↓ select, Enter (or →) opens a server's tools or a tool's details, ← folds, i / r / d / c act. */
export const SIDEBAR_ACTIONS = {
  'sidebar.up': ({ store }) => sidebarView(store).select(sidebarView(store).index - 1),
  'sidebar.down': ({ store }) => sidebarView(store).select(sidebarView(store).index + 1),
  'sidebar.first': ({ store }) => sidebarView(store).select(0),
  'sidebar.last': ({ store }) => sidebarView(store).select(sidebarView(store).rows.length - 1),
  'sidebar.open': (args) => openRow({ ...args, opens: true }),
  'sidebar.expand': (args) => openRow({ ...args, opens: false }),
  'sidebar.fold': ({ store }) => {
    const { state, row, expand } = sidebarView(store);
    if (!row) return true;
    expand(row.alias, false);
    state.updateSidebarUi({ selected: serverRowId(row.alias) });
    return true;
  },
  'sidebar.connect': ({ store }) => {
    store.getState().updateSidebarUi({ connect: { step: 'url', url: EMPTY_EDITOR, alias: EMPTY_EDITOR } });
    return true;
  },
  'sidebar.info': ({ store }) => {
    const { row, openServer } = sidebarView(store);
    if (row) openServer(row.alias);
    return true;
  },
  'sidebar.permissions': ({ controller }) => {
    controller.submit(':permissions');
    return true;
  },
  'sidebar.toggleTool': ({ store, controller }) => {
    const { row } = sidebarView(store);
    if (!row) return true;
    if (row.kind === 'resource') flashHint(store, 'a resource is not a tool: nothing to switch');
    else if (!controller.toggleTool) flashHint(store, 'switching tools is not available');
    else controller.toggleTool(row.alias, row.kind === 'tool' ? row.tool : undefined);
    return true;
  },
  'sidebar.reconnect': ({ store, controller }) => actOnServer(store, controller, 'reconnect'),
  'sidebar.disconnect': ({ store, controller }) => actOnServer(store, controller, 'disconnect'),
  'sidebar.openSignIn': ({ store, controller }) => {
    const { state, row } = sidebarView(store);
    if (!row) return true;
    // Only an address the user can see in the sidebar: a server waiting for a sign-in shows it.
    if (!state.servers[row.alias]?.authUrl) flashHint(store, `${row.alias} is not waiting for a sign-in`);
    else if (!controller.openSignIn) flashHint(store, 'opening a browser is not available');
    else controller.openSignIn(row.alias);
    return true;
  },
} satisfies ActionHandlers<KeyAction, [SidebarArgs]>;

/** The sidebar's letters act only when typed on their own (a paste or a typed-ahead run never does). */
const SIDEBAR_LETTERS: ReadonlySet<KeyAction> = new Set(['sidebar.connect', 'sidebar.info', 'sidebar.reconnect', 'sidebar.disconnect', 'sidebar.openSignIn', 'sidebar.permissions', 'sidebar.toggleTool']);

export function handleSidebarKey(store: AppStore, controller: AppController, key: KeyEvent): boolean {
  if (store.getState().focus !== 'sidebar') return false;
  const action = actionFor('sidebar', key);
  if (action !== undefined && SIDEBAR_LETTERS.has(action) && !isDeliberate(key)) return true;
  return runAction<KeyAction, [SidebarArgs]>(SIDEBAR_ACTIONS, action, { store, controller, opens: false });
}

export function urlProblem(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) return `expected an http:// or https:// URL, got ${JSON.stringify(url)}`;
  return undefined;
}

function submitConnect(store: AppStore, controller: AppController): boolean {
  const state = store.getState();
  const prompt = state.sidebarUi.connect!;
  const update = (next: Partial<NonNullable<SidebarUi['connect']>>) => state.updateSidebarUi({ connect: { ...prompt, ...next } });
  const url = prompt.url.text.trim();
  const alias = prompt.alias.text.trim();
  const badUrl = urlProblem(url);
  if (badUrl) {
    update({ error: badUrl, step: 'url' });
    return true;
  }
  if (prompt.step === 'url') {
    update({ step: 'alias', error: undefined });
    return true;
  }
  const badAlias = alias === '' ? undefined : aliasProblem(alias);
  if (badAlias) {
    update({ error: badAlias });
    return true;
  }
  if (!controller.connectServer) {
    update({ error: 'connecting at run time is not available' });
    return true;
  }
  controller.connectServer(url, alias === '' ? undefined : alias);
  state.updateSidebarUi({ connect: undefined });
  flashHint(store, `connecting ${url}…`);
  return true;
}

/** The connect prompt's own keys; the rest edit its fields (see the line fields in frameKeys.ts). */
export const CONNECT_ACTIONS = {
  'prompt.cancel': ({ store }) => {
    store.getState().updateSidebarUi({ connect: undefined });
    return true;
  },
  'prompt.switchField': ({ store }) => {
    const state = store.getState();
    const prompt = state.sidebarUi.connect!;
    state.updateSidebarUi({ connect: { ...prompt, step: prompt.step === 'url' ? 'alias' : 'url', error: undefined } });
    return true;
  },
  'prompt.submit': ({ store, controller }) => submitConnect(store, controller),
} satisfies ActionHandlers<KeyAction, [{ store: AppStore; controller: AppController }]>;

export function handleConnectKey(store: AppStore, controller: AppController, key: KeyEvent): boolean {
  const state = store.getState();
  const prompt = state.sidebarUi.connect;
  if (!prompt) return false;
  const action = actionFor('prompt', key);
  if (action !== undefined) return runAction<KeyAction, [{ store: AppStore; controller: AppController }]>(CONNECT_ACTIONS, action, { store, controller });
  const field = prompt.step === 'url' ? prompt.url : prompt.alias;
  const result = applyEditorKey(field, key, { multiline: false });
  if (result.kind === 'edit') {
    state.updateSidebarUi({ connect: { ...prompt, ...(prompt.step === 'url' ? { url: result.state } : { alias: result.state }), error: undefined } });
    return true;
  }
  // Ctrl/Alt keys the prompt does not use go on to the global keys.
  return !(key.ctrl || key.meta);
}

interface DetailArgs {
  store: AppStore;
  total: number;
  rows: number;
}

function scrollDetail({ store, total, rows }: DetailArgs, top: (current: number) => number): boolean {
  const state = store.getState();
  const detail = state.sidebarUi.detail!;
  state.updateSidebarUi({ detail: { ...detail, scrollTop: Math.max(0, Math.min(top(detail.scrollTop), Math.max(0, total - rows))) } });
  return true;
}

/** A tool's or server's details over the transcript: scrolling and closing. */
export const DETAIL_ACTIONS = {
  'details.scrollUp': (args) => scrollDetail(args, (top) => top - 1),
  'details.scrollDown': (args) => scrollDetail(args, (top) => top + 1),
  'details.pageUp': (args) => scrollDetail(args, (top) => top - Math.max(1, args.rows - 1)),
  'details.pageDown': (args) => scrollDetail(args, (top) => top + Math.max(1, args.rows - 1)),
  'details.top': (args) => scrollDetail(args, () => 0),
  'details.bottom': (args) => scrollDetail(args, () => args.total),
  'details.close': ({ store }) => {
    store.getState().updateSidebarUi({ detail: undefined });
    return true;
  },
  'details.leave': ({ store }) => {
    // Leaving the sidebar closes the details; the focus moves on (the navigation keys).
    store.getState().updateSidebarUi({ detail: undefined });
    return false;
  },
} satisfies ActionHandlers<KeyAction, [DetailArgs]>;

export function handleDetailKey(store: AppStore, key: KeyEvent, total: number, rows: number): boolean {
  const state = store.getState();
  if (!state.sidebarUi.detail || state.focus !== 'sidebar') return false;
  const action = actionFor('details', key);
  if (action !== undefined) return runAction<KeyAction, [DetailArgs]>(DETAIL_ACTIONS, action, { store, total, rows });
  // A paste goes to the input (the navigation keys move the focus there).
  if (actionFor('everywhere', key) === 'focus.pasteIntoInput') return false;
  // Other keys stop here, so a letter never acts on the sidebar hidden behind the details.
  return !(key.ctrl || key.meta);
}

export interface SidebarContainerProps {
  width: number;
  height: number;
  theme: Theme;
}

export const SidebarContainer = memo(function SidebarContainer({ width, height, theme }: SidebarContainerProps) {
  const store = useAppStoreApi();
  const controller = useController();
  const servers = useAppState(selectServerList);
  const focus = useAppState(selectFocus);
  const ui = useAppState(selectSidebarUi);
  const budget = useAppState(selectToolBudget);
  const resources = useAppState((state) => state.resources);
  useKeys((key) => handleSidebarKey(store, controller, key), KeyPriority.panel);
  return <Sidebar servers={servers} width={width} height={height} focused={focus === 'sidebar'} theme={theme} ui={ui} {...(budget ? { budget } : {})} {...(resources ? { resources } : {})} />;
});

/** A tool's details in place of the transcript, while the sidebar has the focus. */
export const DetailsContainer = memo(function DetailsContainer({ width, height, theme }: SidebarContainerProps) {
  const store = useAppStoreApi();
  const detail = useAppState((state) => state.sidebarUi.detail);
  const server = useAppState((state) => (detail ? state.servers[detail.alias] : undefined));
  const instructions = useAppState((state) => (detail ? state.instructionStates[detail.alias] : undefined));
  const toolName = detail?.tool;
  const tool = toolName === undefined ? undefined : server?.tools.find((entry) => entry.name === toolName);
  const columns = innerWidth(width);
  const lines = useMemo(() => {
    if (!detail) return [];
    return toolName === undefined ? serverDetailLines(detail.alias, server, columns, instructions) : toolDetailLines(detail.alias, tool, columns, server?.taskCalls === true);
  }, [detail?.alias, toolName, tool, server, columns, instructions]);
  const rows = toolDetailRows(height);
  useKeys((key) => handleDetailKey(store, key, lines.length, rows), KeyPriority.overlay);
  if (!detail) return null;
  return <ToolDetails title={toolName === undefined ? 'Server' : 'Tool'} lines={lines} width={width} height={height} scrollTop={detail.scrollTop} theme={theme} />;
});

export const ConnectContainer = memo(function ConnectContainer({ width, theme }: { width: number; theme: Theme }) {
  const store = useAppStoreApi();
  const controller = useController();
  const prompt = useAppState((state) => state.sidebarUi.connect);
  useKeys((key) => handleConnectKey(store, controller, key), KeyPriority.overlay);
  if (!prompt) return null;
  return <ConnectPrompt prompt={prompt} width={width} theme={theme} />;
});
