import type { ContextWindow } from '../services/context/index';
// What `:model`, `:resume` and `:rewind` without an argument open: a picker (state.picker, drawn
// by ui/panels/Picker.tsx). The model picker lists the configured models at once and adds what
// each configured server offers (GET <baseUrl>/models) as the answers arrive: asked in the
// background with a timeout, never blocking, each server with its own model's key only (the key
// of one model never goes to another host).
import { describeModels, listServerModels } from '../services/broker/models';
import type { AppConfig, ResolvedModel } from '../services/config/load';
import { listSessions } from '../services/history/index';
import type { Message } from '../services/conversation/types';
import type { PickerItem } from '../state/types';
import type { AppStore } from '../state/store';
import { editorFromText } from '../state/slices/ui';

/** A model list is small: a server that takes longer is left out of the picker, not waited for. */
export const SERVER_MODELS_TIMEOUT_MS = 5000;
/** At most this many ids are taken from one server (some list hundreds). */
const MAX_SERVER_MODELS = 200;
/** An id the picker can offer: printable, one line, not absurdly long (it is sent back as `model`). */
const USABLE_ID = /^[^\p{C}\s][^\p{C}]{0,199}$/u;

export interface ModelPickerHost {
  store: AppStore;
  config: AppConfig;
  env: NodeJS.ProcessEnv;
  modelName(): string;
  /** Switches to a configured model by name. */
  switchModel(name: string): void;
  status(level: 'info' | 'warn' | 'error', text: string): void;
  /** What is known of a model's context window (runtime.contextWindow), shown beside it. */
  contextWindow?(name: string): ContextWindow | undefined;
}

/** The model's context window for a picker row: known ones only (`:context` says more). */
function windowNote(window: ContextWindow | undefined): string {
  return window?.tokens !== undefined ? ` · context ${window.tokens} tokens (${window.source})` : '';
}

const hostOf = (baseUrl: string) => {
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
};

/** One configured model per server (base URL): the one whose key and headers ask it for its list. */
function serversOf(config: AppConfig): ResolvedModel[] {
  const byUrl = new Map<string, ResolvedModel>();
  for (const model of Object.values(config.models)) if (!byUrl.has(model.baseUrl)) byUrl.set(model.baseUrl, model);
  return [...byUrl.values()];
}

/**
 * The registry name for a model a server offers that is not configured: its id when that is a
 * plain word not taken, else the id with a number.
 */
export function nameForServerModel(models: Readonly<Record<string, unknown>>, id: string): string {
  const base = /^[\w.:@/-]{1,64}$/.test(id) && !['__proto__', 'constructor', 'prototype'].includes(id) ? id : 'server-model';
  if (!Object.hasOwn(models, base)) return base;
  for (let n = 2; ; n++) if (!Object.hasOwn(models, `${base}-${n}`)) return `${base}-${n}`;
}

/** Adds a server-offered model to the registry (a copy of `template`, the server's configured model, with `id`). */
export function addServerModel(config: AppConfig, template: ResolvedModel, id: string): string {
  const same = Object.values(config.models).find((model) => model.baseUrl === template.baseUrl && model.model === id);
  if (same) return same.name;
  const name = nameForServerModel(config.models, id);
  config.models[name] = { ...template, name, model: id };
  return name;
}

export function openModelPicker(host: ModelPickerHost): void {
  const { store, config } = host;
  const current = host.modelName();
  // Where each model's key comes from (never the key itself), as `:model` always said.
  const keys = new Map(describeModels(config.models, current, host.env).map((row) => [row.name, row.keyEnv ? (row.keySet ? `key from $${row.keyEnv}` : `$${row.keyEnv} is not set`) : row.keySet ? 'key set' : 'no key']));
  const configured: PickerItem[] = Object.values(config.models).map((model) => ({
    id: `c:${model.name}`,
    label: `${model.name === current ? '* ' : ''}${model.name}`,
    detail: `${model.model} at ${hostOf(model.baseUrl)} (${keys.get(model.name)})${windowNote(host.contextWindow?.(model.name))}`,
    group: 'configured',
  }));
  const servers = serversOf(config);
  const offered = new Map<string, { template: ResolvedModel; id: string }>();
  let waiting = servers.length;
  const note = () => (waiting > 0 ? `asking ${waiting} server${waiting === 1 ? '' : 's'} for their models… (Enter, Esc work now)` : undefined);
  const picker = {
    title: 'Choose a model',
    items: configured,
    filter: editorFromText(''),
    selected: Math.max(0, configured.findIndex((item) => item.id === `c:${current}`)),
    ...(note() ? { note: note()! } : {}),
    choose(item: PickerItem) {
      if (item.id.startsWith('c:')) return switchTo(item.id.slice(2));
      const entry = offered.get(item.id);
      if (entry) switchTo(addServerModel(config, entry.template, entry.id));
    },
    cancel: () => abort.abort(),
  };
  const abort = new AbortController();
  const switchTo = (name: string) => {
    abort.abort();
    host.switchModel(name);
    const model = config.models[name];
    if (model && host.modelName() === name) host.status('info', `model: ${name} (${model.model} at ${hostOf(model.baseUrl)}) from the next request on`);
  };
  store.getState().setPicker(picker);
  const stillOpen = () => store.getState().picker?.choose === picker.choose;
  for (const server of servers) {
    listServerModels(server, { env: host.env, timeoutMs: SERVER_MODELS_TIMEOUT_MS, signal: abort.signal })
      .then((ids) => {
        if (!stillOpen()) return;
        const known = new Set(Object.values(config.models).filter((model) => model.baseUrl === server.baseUrl).map((model) => model.model));
        const added: PickerItem[] = [];
        for (const id of ids.slice(0, MAX_SERVER_MODELS)) {
          if (known.has(id) || !USABLE_ID.test(id)) continue;
          const key = `s:${server.baseUrl}\u0000${id}`;
          offered.set(key, { template: server, id });
          added.push({ id: key, label: id, detail: `offered by ${hostOf(server.baseUrl)}`, group: 'server' });
        }
        const items = store.getState().picker?.items ?? [];
        store.getState().updatePicker({ items: [...items, ...added] });
      })
      .catch(() => {
        // A server that cannot say is simply not in the list; its configured models still are.
      })
      .finally(() => {
        waiting--;
        if (stillOpen()) store.getState().updatePicker({ note: note() });
      });
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A local date and time, minutes precision (what a person recognises a session by). */
export function formatWhen(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function openSessionPicker(store: AppStore, sessionsDir: string, currentId: string | undefined, resume: (id: string) => void): boolean {
  const sessions = listSessions(sessionsDir);
  if (sessions.length === 0) return false;
  store.getState().setPicker({
    title: 'Resume a session',
    items: sessions.map((session) => ({
      id: session.id,
      label: `${session.id === currentId ? '* ' : ''}${session.preview || '(no message)'}`,
      detail: [formatWhen(session.modifiedAt), session.model, formatBytes(session.bytes)].filter(Boolean).join('  '),
    })),
    filter: editorFromText(''),
    selected: 0,
    choose: (item) => resume(item.id),
  });
  return true;
}

/** Your messages, newest first, to go back to one of them. */
export function openRewindPicker(store: AppStore, rewindTo: (id: string) => void): boolean {
  const users = store
    .getState()
    .messages.filter((message): message is Extract<Message, { role: 'user' }> => message.role === 'user')
    .reverse();
  if (users.length === 0) return false;
  store.getState().setPicker({
    title: 'Go back to a message of yours',
    note: 'Enter: it returns to the input, later turns leave the context · Esc close',
    items: users.map((message, index) => ({
      id: message.id,
      label: message.content.replace(/\s+/g, ' ').trim().slice(0, 120) || '(empty)',
      detail: index === 0 ? 'last' : `${index + 1} back`,
    })),
    filter: editorFromText(''),
    selected: 0,
    choose: (item) => rewindTo(item.id),
  });
  return true;
}
