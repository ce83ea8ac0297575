import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ServerConfig } from '../config/schema';
import { SEPARATOR } from './names';

// Which tools reach the model (README.md, "Tool budget"). A tool is on unless the config's globs
// (`mcp.servers.<alias>.enabledTools` / `disabledTools`) or a switch the user flipped at run time
// (sidebar, `:mcp disable|enable`) say otherwise. Runtime switches win over the config and are
// remembered per working directory in `<stateDir>/tool-switches.json`: the same project opens with
// the same tools, another project is not affected. A switched-off tool stays listed and its server
// stays connected; only the model does not get it.

/** Why a tool is on or off: the default, the config's globs, or the user's switch (remembered here). */
export type SwitchSource = 'default' | 'config' | 'switched';

export interface SwitchState {
  enabled: boolean;
  source: SwitchSource;
}

/** `*` any run of characters, `?` one; everything else literal; the whole name must match. */
export function globMatches(glob: string, name: string): boolean {
  const pattern = glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  return new RegExp(`^${pattern}$`, 's').test(name);
}

/** What the config alone says about a tool. */
export function configState(server: Pick<ServerConfig, 'enabledTools' | 'disabledTools'> | undefined, tool: string): SwitchState {
  if (server?.disabledTools?.some((glob) => globMatches(glob, tool))) return { enabled: false, source: 'config' };
  if (server?.enabledTools && !server.enabledTools.some((glob) => globMatches(glob, tool))) return { enabled: false, source: 'config' };
  return { enabled: true, source: 'default' };
}

/** The user's runtime switches for one directory: `alias` (a whole server) or `alias__tool` -> on/off. */
export type SwitchMap = Record<string, boolean>;

export interface SwitchStore {
  load(): SwitchMap;
  save(switches: SwitchMap): void;
}

interface SwitchFile {
  version: 1;
  directories: Record<string, SwitchMap>;
}

export const switchesFile = (stateDir: string) => path.join(stateDir, 'tool-switches.json');

function readSwitchFile(file: string): SwitchFile {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<SwitchFile>;
    if (parsed && parsed.version === 1 && parsed.directories && typeof parsed.directories === 'object') return parsed as SwitchFile;
  } catch {
    // Missing or unreadable: no switches yet (a broken file is replaced on the next save).
  }
  return { version: 1, directories: {} };
}

function cleanMap(value: unknown): SwitchMap {
  const map: SwitchMap = {};
  if (!value || typeof value !== 'object') return map;
  for (const [key, enabled] of Object.entries(value as Record<string, unknown>)) if (typeof enabled === 'boolean') map[key] = enabled;
  return map;
}

/** The switches of `cwd` in `<stateDir>/tool-switches.json` (0600 in a 0700 directory). */
export function createFileSwitchStore(file: string, cwd: string, onError: (message: string) => void = () => {}): SwitchStore {
  return {
    load: () => cleanMap(readSwitchFile(file).directories[cwd]),
    save(switches) {
      try {
        const current = readSwitchFile(file);
        if (Object.keys(switches).length === 0) delete current.directories[cwd];
        else current.directories[cwd] = switches;
        mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
        const temporary = `${file}.${process.pid}.tmp`;
        writeFileSync(temporary, `${JSON.stringify(current, null, 2)}\n`, { mode: 0o600 });
        chmodSync(temporary, 0o600);
        renameSync(temporary, file);
      } catch (error) {
        onError(`tool switches not saved (${(error as Error).message}); they last until you quit`);
      }
    },
  };
}

export const memorySwitchStore = (initial: SwitchMap = {}): SwitchStore => {
  let saved = { ...initial };
  return { load: () => ({ ...saved }), save: (next) => void (saved = { ...next }) };
};

export interface ToolSwitches {
  /** Bumped on every change: what depends on the switches (the request's tools array) is rebuilt only then. */
  readonly version: number;
  state(alias: string, tool: string): SwitchState;
  /** A server is on when its own switch says so, else when none of it was switched off as a whole. */
  serverSwitch(alias: string): boolean | undefined;
  /**
   * Switches a whole server: its tool-level switches are dropped, so all of it goes one way. On
   * means "as the config says" when the config leaves some of `tools` on, else every tool on.
   */
  setServer(alias: string, enabled: boolean, tools?: readonly string[]): void;
  setTool(alias: string, tool: string, enabled: boolean): void;
  /** Forgets every runtime switch of this directory; returns how many there were. */
  reset(): number;
  /** The runtime switches, for display. */
  entries(): SwitchMap;
  /** Tells `listener` after every change. */
  subscribe(listener: () => void): () => void;
}

export function createToolSwitches(servers: () => Record<string, ServerConfig>, store: SwitchStore): ToolSwitches {
  let switches = store.load();
  let version = 0;
  const listeners = new Set<() => void>();
  const changed = () => {
    version++;
    store.save(switches);
    for (const listener of listeners) listener();
  };
  return {
    get version() {
      return version;
    },
    state(alias, tool) {
      const own = switches[`${alias}${SEPARATOR}${tool}`];
      if (own !== undefined) return { enabled: own, source: 'switched' };
      const server = switches[alias];
      if (server !== undefined) return { enabled: server, source: 'switched' };
      return configState(servers()[alias], tool);
    },
    serverSwitch: (alias) => switches[alias],
    setServer(alias, enabled, tools) {
      const prefix = `${alias}${SEPARATOR}`;
      switches = Object.fromEntries(Object.entries(switches).filter(([key]) => !key.startsWith(prefix) && key !== alias));
      const configOn = (tools ?? []).some((tool) => configState(servers()[alias], tool).enabled);
      if (!enabled || !configOn) switches[alias] = enabled;
      changed();
    },
    setTool(alias, tool, enabled) {
      const key = `${alias}${SEPARATOR}${tool}`;
      const { [key]: _old, ...rest } = switches;
      switches = rest;
      // A switch that says what the server's switch or the config says anyway is not kept.
      const without = switches[alias] !== undefined ? switches[alias] : configState(servers()[alias], tool).enabled;
      if (without !== enabled) switches[key] = enabled;
      changed();
    },
    reset() {
      const count = Object.keys(switches).length;
      switches = {};
      changed();
      return count;
    },
    entries: () => ({ ...switches }),
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
