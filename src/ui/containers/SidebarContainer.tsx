import { memo, useMemo } from 'react';
import { ConnectPrompt } from '../panels/ConnectPrompt';
import { innerWidth } from '../panels/BoxFrame';
import { effectiveSelection, serverRowId, Sidebar, sidebarRows } from '../panels/Sidebar';
import type { Theme } from '../../terminal/theme';
import { serverDetailLines, ToolDetails, toolDetailLines, toolDetailRows } from '../panels/ToolDetails';
import { aliasProblem } from '../../runtime/aliases';
import { selectFocus, selectServerList, selectSidebarUi } from '../../state/selectors';
import type { AppStore } from '../../state/store';
import { EMPTY_EDITOR } from '../../state/slices/ui';
import type { SidebarUi } from '../../state/types';
import type { AppController } from '../../runtime/controller';
import { flashHint } from '../../runtime/hints';
import { applyEditorKey } from '../input/editor';
import { KeyPriority } from '../../terminal/keyboard/keyInput';
import type { KeyEvent } from '../../terminal/keyboard/keys';
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

/** ↑/↓ select, Enter (or →) opens a server's tools or a tool's details, ← folds, r / d / c act. */
export function handleSidebarKey(store: AppStore, controller: AppController, key: KeyEvent): boolean {
  const state = store.getState();
  if (state.focus !== 'sidebar') return false;
  const ui = state.sidebarUi;
  const servers = state.order.map((alias) => state.servers[alias]).filter((server) => server !== undefined);
  const rows = sidebarRows(servers, ui.expanded);
  // Focusing the sidebar puts the cursor on the first server; keys act on what is drawn.
  const selected = effectiveSelection(rows, ui.selected);
  const index = Math.max(0, rows.findIndex((row) => row.id === selected));
  const row = rows[index];
  const openServer = (alias: string) => state.updateSidebarUi({ detail: { alias, scrollTop: 0 }, selected: serverRowId(alias) });
  const select = (next: number) => {
    const target = rows[Math.max(0, Math.min(rows.length - 1, next))];
    if (target) state.updateSidebarUi({ selected: target.id });
  };
  const expand = (alias: string, open: boolean) =>
    state.updateSidebarUi({ expanded: open ? [...ui.expanded.filter((entry) => entry !== alias), alias] : ui.expanded.filter((entry) => entry !== alias) });

  switch (key.name) {
    case 'up':
      select(index - 1);
      return true;
    case 'down':
      select(index + 1);
      return true;
    case 'home':
      select(0);
      return true;
    case 'end':
      select(rows.length - 1);
      return true;
    case 'return':
    case 'right':
      if (!row) return true;
      if (row.kind === 'server') {
        // A server that is not ready has no tools to list: Enter shows why (its error and stderr).
        if (key.name === 'return' && state.servers[row.alias]?.state !== 'ready') openServer(row.alias);
        else expand(row.alias, key.name === 'right' ? true : !ui.expanded.includes(row.alias));
      } else if (row.tool !== undefined) state.updateSidebarUi({ detail: { alias: row.alias, tool: row.tool, scrollTop: 0 }, selected: row.id });
      if (ui.selected !== row.id) state.updateSidebarUi({ selected: row.id });
      return true;
    case 'left':
      if (!row) return true;
      expand(row.alias, false);
      state.updateSidebarUi({ selected: `s:${row.alias}` });
      return true;
    case 'text': {
      if (key.paste || key.burst) return true;
      if (key.text === 'c') {
        state.updateSidebarUi({ connect: { step: 'url', url: EMPTY_EDITOR, alias: EMPTY_EDITOR } });
        return true;
      }
      if (key.text === 'i' && row) {
        openServer(row.alias);
        return true;
      }
      if ((key.text === 'r' || key.text === 'd') && row) serverAction(store, controller, row.alias, key.text === 'r' ? 'reconnect' : 'disconnect');
      return true;
    }
    default:
      return false;
  }
}

export function urlProblem(url: string): string | undefined {
  if (!/^https?:\/\//i.test(url) || !URL.canParse(url)) return `expected an http:// or https:// URL, got ${JSON.stringify(url)}`;
  return undefined;
}

export function handleConnectKey(store: AppStore, controller: AppController, key: KeyEvent): boolean {
  const state = store.getState();
  const prompt = state.sidebarUi.connect;
  if (!prompt) return false;
  const close = () => state.updateSidebarUi({ connect: undefined });
  const update = (next: Partial<NonNullable<SidebarUi['connect']>>) => state.updateSidebarUi({ connect: { ...prompt, ...next } });
  if (key.name === 'escape') {
    close();
    return true;
  }
  if (key.name === 'tab') {
    update({ step: prompt.step === 'url' ? 'alias' : 'url', error: undefined });
    return true;
  }
  const field = prompt.step === 'url' ? prompt.url : prompt.alias;
  const result = applyEditorKey(field, key, { multiline: false });
  if (result.kind === 'edit') {
    update(prompt.step === 'url' ? { url: result.state, error: undefined } : { alias: result.state, error: undefined });
    return true;
  }
  if (result.kind === 'submit') {
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
    close();
    flashHint(store, `connecting ${url}…`);
    return true;
  }
  return !(key.ctrl || key.meta);
}

export function handleDetailKey(store: AppStore, key: KeyEvent, total: number, rows: number): boolean {
  const state = store.getState();
  const detail = state.sidebarUi.detail;
  if (!detail || state.focus !== 'sidebar') return false;
  const scroll = (top: number) => state.updateSidebarUi({ detail: { ...detail, scrollTop: Math.max(0, Math.min(top, Math.max(0, total - rows))) } });
  switch (key.name) {
    case 'up':
      scroll(detail.scrollTop - 1);
      return true;
    case 'down':
      scroll(detail.scrollTop + 1);
      return true;
    case 'pageup':
      scroll(detail.scrollTop - Math.max(1, rows - 1));
      return true;
    case 'pagedown':
      scroll(detail.scrollTop + Math.max(1, rows - 1));
      return true;
    case 'home':
      scroll(0);
      return true;
    case 'end':
      scroll(total);
      return true;
    case 'escape':
    case 'return':
      state.updateSidebarUi({ detail: undefined });
      return true;
    case 'tab':
      // Leaving the sidebar closes the details; focus moves on.
      state.updateSidebarUi({ detail: undefined });
      return false;
    case 'text':
      if (key.text === 'q') state.updateSidebarUi({ detail: undefined });
      return true;
    case 'paste':
      // Goes to the input (the navigation keys move the focus there).
      return false;
    default:
      return !(key.ctrl || key.meta);
  }
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
  useKeys((key) => handleSidebarKey(store, controller, key), KeyPriority.panel);
  return <Sidebar servers={servers} width={width} height={height} focused={focus === 'sidebar'} theme={theme} ui={ui} />;
});

/** A tool's details in place of the transcript, while the sidebar has the focus. */
export const DetailsContainer = memo(function DetailsContainer({ width, height, theme }: SidebarContainerProps) {
  const store = useAppStoreApi();
  const detail = useAppState((state) => state.sidebarUi.detail);
  const server = useAppState((state) => (detail ? state.servers[detail.alias] : undefined));
  const toolName = detail?.tool;
  const tool = toolName === undefined ? undefined : server?.tools.find((entry) => entry.name === toolName);
  const columns = innerWidth(width);
  const lines = useMemo(() => {
    if (!detail) return [];
    return toolName === undefined ? serverDetailLines(detail.alias, server, columns) : toolDetailLines(detail.alias, tool, columns);
  }, [detail?.alias, toolName, tool, server, columns]);
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
