import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'safe-stable-stringify';
import type { McpEvent, McpToolInfo, ServerSnapshot } from '../mcp/index';
import { sanitizeName } from '../terminal/look-alike';
import { sanitizeLabel } from '../terminal/sanitize';
import type { DefinitionPins } from './policy';

/**
 * Pinned tool definitions (docs/ARCHITECTURE.md, Security invariants 4).
 *
 * A server can change what a tool does after the user approved it "always": a new description
 * that instructs the model differently, a schema that accepts a path it did not accept before.
 * The first time a tool is seen, a hash of each part of its definition is stored per server
 * alias. When the definition differs later (list_changed, reconnect, a later session) the
 * approvals that were given for the old definition stop applying until the user approves the
 * tool once more, and the approval frame says which parts changed.
 */

const PARTS = ['title', 'description', 'inputSchema', 'annotations'] as const;
type Part = (typeof PARTS)[number];
type PartHashes = Record<Part, string>;

interface PinFile {
  version: 1;
  servers: Record<string, Record<string, PartHashes>>;
  /**
   * Per server alias, the tools the user has approved at least once (in the frame: once, always
   * this tool, always this server). A tool pinned but not listed here was only seen: a
   * server-wide rule does not run it until it is approved once (docs/ARCHITECTURE.md, Security
   * invariants 9). Files written before this list existed have none: their tools ask once more.
   */
  approved?: Record<string, string[]>;
}

const PART_LABEL: Record<Part, string> = {
  title: 'title',
  description: 'description',
  inputSchema: 'input schema',
  annotations: 'annotations',
};

function hashOf(value: unknown): string {
  // Canonical JSON: the same definition hashes the same whatever the key order on the wire.
  return createHash('sha256').update(stringify(value ?? null) ?? 'null').digest('base64url').slice(0, 22);
}

// Snapshots are immutable: a tool list reported once hands the same definition objects to every
// later decision, so each definition is hashed once rather than on every call of the tool.
const hashesOfDefinition = new WeakMap<McpToolInfo, PartHashes>();

function partHashes(tool: McpToolInfo): PartHashes {
  let hashes = hashesOfDefinition.get(tool);
  if (!hashes) {
    hashes = Object.freeze({
      title: hashOf(tool.title),
      description: hashOf(tool.description),
      inputSchema: hashOf(tool.inputSchema),
      annotations: hashOf(tool.annotations),
    });
    hashesOfDefinition.set(tool, hashes);
  }
  return hashes;
}

export interface PinStore {
  /**
   * Pins tools seen for the first time and returns, for every tool whose definition differs from
   * its pin, what changed (e.g. `description and input schema changed`).
   */
  observe(alias: string, tools: McpToolInfo[]): Map<string, string>;
  /** What changed since the pin, or undefined when the tool matches its pin (or was never seen). */
  changeOf(alias: string, tool: McpToolInfo): string | undefined;
  /** The user approved the current definition: it becomes the pin, and the tool counts as approved. */
  accept(alias: string, tool: McpToolInfo): void;
  /** Whether a definition of this tool was ever pinned. */
  isPinned(alias: string, tool: string): boolean;
  /** Whether the user ever approved this tool of this server (kept between runs). */
  approvedBefore(alias: string, tool: string): boolean;
  /** Counts the tool as approved without re-pinning it (headless `--accept-new-tools`). */
  markApproved(alias: string, tool: string): void;
}

/** The parts of the MCP service pin tracking needs. */
export interface PinnedServers {
  servers(): ServerSnapshot[];
  subscribe(listener: (event: McpEvent) => void): () => void;
}

export interface TrackOptions {
  /** A definition differs from its pin: reported once per tool and change (`fs__read: description changed`). */
  onChange?: (alias: string, tool: string, change: string) => void;
  /**
   * Headless `--accept-changed-tools`: a changed definition becomes the pin when a call is
   * decided, so the rules apply to it again (reported through `onAccepted`).
   */
  acceptChanges?: boolean;
  onAccepted?: (alias: string, tool: string, change: string) => void;
  /** Tools a server lists that were never pinned before (first connect, list_changed, a new run). */
  onAppeared?: (alias: string, tools: string[]) => void;
  /**
   * Headless `--accept-new-tools`: a tool never approved before counts as approved when a call is
   * decided, so server-wide rules apply to it (reported through `onAcceptedNew`).
   */
  acceptNew?: boolean;
  onAcceptedNew?: (alias: string, tool: string) => void;
}

export interface PinTracking {
  /** What the approval policy consults (tools/policy.ts). */
  definitions: DefinitionPins;
  stop(): void;
}

/**
 * Connects a pin store to the live servers: every tool list a server reports (connect, reconnect,
 * list_changed) is pinned on first sight and compared with its pin; the policy asks through
 * `definitions` whether the tool it is deciding about still matches.
 */
export function trackDefinitions(pins: PinStore, mcp: PinnedServers, options: TrackOptions = {}): PinTracking {
  const reported = new Set<string>();
  const report = (alias: string, tool: string, change: string) => {
    const key = `${alias}\u0000${tool}\u0000${change}`;
    if (reported.has(key)) return;
    reported.add(key);
    options.onChange?.(alias, tool, change);
  };
  // Snapshots change for many reasons (a stderr line, a state change); hashing every definition
  // again is only worth it when the tool list itself is a new one.
  const seenLists = new Map<string, readonly McpToolInfo[]>();
  const observe = (snapshot: ServerSnapshot) => {
    if (snapshot.state !== 'ready' || seenLists.get(snapshot.alias) === snapshot.tools) return;
    seenLists.set(snapshot.alias, snapshot.tools);
    // Never seen and never approved: the ones a server-wide rule will not run before asking.
    const appeared = builtIn(snapshot) ? [] : snapshot.tools.filter((info) => !pins.isPinned(snapshot.alias, info.name) && !pins.approvedBefore(snapshot.alias, info.name)).map((info) => info.name);
    for (const [tool, change] of pins.observe(snapshot.alias, snapshot.tools)) report(snapshot.alias, tool, change);
    if (appeared.length > 0) options.onAppeared?.(snapshot.alias, appeared);
  };
  for (const snapshot of mcp.servers()) observe(snapshot);
  const unsubscribe = mcp.subscribe((event) => {
    if (event.type === 'server') observe(event.snapshot);
  });
  const serverOf = (alias: string) => mcp.servers().find((server) => server.alias === alias);
  const current = (alias: string, tool: string) => serverOf(alias)?.tools.find((info) => info.name === tool);
  const acceptedNew = new Set<string>();

  const definitions: DefinitionPins = {
    changeOf(alias, tool) {
      const info = current(alias, tool);
      if (!info) return undefined;
      // Pins a tool that was never seen (first sight) and compares one that was.
      const change = pins.observe(alias, [info]).get(info.name);
      if (change === undefined) return undefined;
      if (!options.acceptChanges) return change;
      pins.accept(alias, info);
      options.onAccepted?.(alias, tool, change);
      return undefined;
    },
    accept(alias, tool, shown) {
      // The definition the user was shown becomes the pin, not whatever the server lists by now.
      const info = shown ?? current(alias, tool);
      if (info) pins.accept(alias, info);
      else pins.markApproved(alias, tool);
    },
    isNew(alias, tool) {
      const server = serverOf(alias);
      if ((server && builtIn(server)) || pins.approvedBefore(alias, tool)) return false;
      if (!options.acceptNew) return true;
      pins.markApproved(alias, tool);
      const key = `${alias}\u0000${tool}`;
      if (!acceptedNew.has(key)) options.onAcceptedNew?.(alias, tool);
      acceptedNew.add(key);
      return false;
    },
  };
  return { definitions, stop: unsubscribe };
}

/** The built-in server is this program's own code: its tools cannot appear behind the user's back. */
function builtIn(snapshot: ServerSnapshot): boolean {
  return snapshot.transport === 'in-memory';
}

/** `a, b, c and 4 more`: names for a status line, each one line and escaped, the list capped. */
export function nameList(names: readonly string[], max = 8): string {
  const shown = names.slice(0, max).map((name) => sanitizeName(name.length > 48 ? `${name.slice(0, 48)}…` : name));
  return names.length > max ? `${shown.join(', ')} and ${names.length - max} more` : shown.join(', ');
}

/** The status line naming the tools a server lists that were never seen before. */
export function appearedNotice(alias: string, tools: readonly string[], serverWideRule = true): string {
  const what = tools.length === 1 ? '1 new tool' : `${tools.length} new tools`;
  const list = `mcp ${sanitizeLabel(alias)}: ${what}: ${nameList(tools)}`;
  // Only where a server-wide rule would otherwise run them is there something to warn about.
  return serverWideRule ? `${list}; each asks once before a server-wide rule (${sanitizeLabel(alias)}__*) runs it` : list;
}

/** `description and input schema changed`: the parts that differ from the pin. */
function describeChange(pinned: PartHashes, current: PartHashes): string | undefined {
  const changed = PARTS.filter((part) => pinned[part] !== current[part]).map((part) => PART_LABEL[part]);
  if (changed.length === 0) return undefined;
  const list = changed.length === 1 ? changed[0] : `${changed.slice(0, -1).join(', ')} and ${changed[changed.length - 1]}`;
  return `${list} changed`;
}

/** Where pins live: `<stateDir>/pins.json`. */
export function pinsFile(stateDir: string): string {
  return path.join(stateDir, 'pins.json');
}

/** The status line for a changed definition, shown to the user when the change is noticed. */
export function changeNotice(alias: string, tool: string, change: string): string {
  return `mcp ${alias}: ${sanitizeName(`${alias}__${tool}`)}: ${change} since it was first seen or last approved; it asks before running again`;
}

/** A pin store kept in memory only (headless runs with no state directory, tests). */
export function createMemoryPinStore(): PinStore {
  return createPinStoreWith({ version: 1, servers: {} }, () => {});
}

/**
 * A pin store persisted as JSON at `file` (mode 0600, written atomically). An unreadable or
 * malformed file is treated as empty rather than stopping the app: the worst case is that tools
 * are pinned again from now on. A failed write is reported once through `onError` and never
 * stops a tool call. Pins another aish-tui process wrote meanwhile are kept (merged on write).
 */
export function createFilePinStore(file: string, onError?: (message: string) => void): PinStore {
  const read = (): PinFile | undefined => {
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<PinFile>;
      if (parsed && parsed.version === 1 && parsed.servers && typeof parsed.servers === 'object') return parsed as PinFile;
    } catch {
      // Missing or unreadable: start empty.
    }
    return undefined;
  };
  const data: PinFile = read() ?? { version: 1, servers: {} };
  let reported = false;
  const save = (current: PinFile) => {
    try {
      const onDisk = read();
      for (const [alias, tools] of Object.entries(onDisk?.servers ?? {})) {
        const ours = (current.servers[alias] ??= {});
        for (const [name, hashes] of Object.entries(tools)) ours[name] ??= hashes;
      }
      for (const [alias, names] of Object.entries(onDisk?.approved ?? {})) {
        if (!Array.isArray(names)) continue;
        const ours = new Set((current.approved ??= {})[alias] ?? []);
        for (const name of names) if (typeof name === 'string') ours.add(name);
        current.approved[alias] = [...ours];
      }
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, JSON.stringify(current), { mode: 0o600 });
      chmodSync(temporary, 0o600);
      renameSync(temporary, file);
    } catch (error) {
      if (!reported) onError?.(`cannot save pinned tool definitions to ${file}: ${(error as Error).message}`);
      reported = true;
    }
  };
  return createPinStoreWith(data, save);
}

function createPinStoreWith(data: PinFile, save: (data: PinFile) => void): PinStore {
  const serverPins = (alias: string) => (data.servers[alias] ??= {});
  /** Adds the tool to the approved ones; false when it already was. */
  const approve = (alias: string, tool: string): boolean => {
    const list = Array.isArray(data.approved?.[alias]) ? data.approved[alias] : [];
    if (list.includes(tool)) return false;
    (data.approved ??= {})[alias] = [...list, tool];
    return true;
  };
  return {
    observe(alias, tools) {
      const pins = serverPins(alias);
      const changes = new Map<string, string>();
      let added = false;
      for (const tool of tools) {
        const current = partHashes(tool);
        const pinned = pins[tool.name];
        if (!pinned) {
          pins[tool.name] = current;
          added = true;
          continue;
        }
        const change = describeChange(pinned, current);
        if (change) changes.set(tool.name, change);
      }
      if (added) save(data);
      return changes;
    },
    changeOf(alias, tool) {
      const pinned = data.servers[alias]?.[tool.name];
      return pinned ? describeChange(pinned, partHashes(tool)) : undefined;
    },
    accept(alias, tool) {
      serverPins(alias)[tool.name] = partHashes(tool);
      approve(alias, tool.name);
      save(data);
    },
    isPinned: (alias, tool) => Object.hasOwn(data.servers[alias] ?? {}, tool),
    approvedBefore: (alias, tool) => (Array.isArray(data.approved?.[alias]) ? data.approved[alias] : []).includes(tool),
    markApproved(alias, tool) {
      if (approve(alias, tool)) save(data);
    },
  };
}
