import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'safe-stable-stringify';
import type { McpToolInfo } from '../mcp/types';

/**
 * Pinned tool definitions (DESIGN.md §5.4).
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

function partHashes(tool: McpToolInfo): PartHashes {
  return {
    title: hashOf(tool.title),
    description: hashOf(tool.description),
    inputSchema: hashOf(tool.inputSchema),
    annotations: hashOf(tool.annotations),
  };
}

export interface PinStore {
  /**
   * Pins tools seen for the first time and returns, for every tool whose definition differs from
   * its pin, what changed (e.g. `description and input schema changed`).
   */
  observe(alias: string, tools: McpToolInfo[]): Map<string, string>;
  /** What changed since the pin, or undefined when the tool matches its pin (or was never seen). */
  changeOf(alias: string, tool: McpToolInfo): string | undefined;
  /** The user approved the current definition: it becomes the pin. */
  accept(alias: string, tool: McpToolInfo): void;
}

function describeChange(pinned: PartHashes, current: PartHashes): string | undefined {
  const changed = PARTS.filter((part) => pinned[part] !== current[part]).map((part) => PART_LABEL[part]);
  if (changed.length === 0) return undefined;
  const list = changed.length === 1 ? changed[0] : `${changed.slice(0, -1).join(', ')} and ${changed[changed.length - 1]}`;
  return `${list} changed since you approved this tool`;
}

/** A pin store kept in memory only (headless runs with no state directory, tests). */
export function createMemoryPinStore(): PinStore {
  return createPinStoreWith({ version: 1, servers: {} }, () => {});
}

/**
 * A pin store persisted as JSON at `file` (mode 0600, written atomically). An unreadable or
 * malformed file is treated as empty rather than stopping the app: the worst case is that tools
 * are pinned again from now on.
 */
export function createFilePinStore(file: string): PinStore {
  let data: PinFile = { version: 1, servers: {} };
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<PinFile>;
    if (parsed && parsed.version === 1 && parsed.servers && typeof parsed.servers === 'object') data = parsed as PinFile;
  } catch {
    // Missing or unreadable: start empty.
  }
  const save = (current: PinFile) => {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(current), { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, file);
  };
  return createPinStoreWith(data, save);
}

function createPinStoreWith(data: PinFile, save: (data: PinFile) => void): PinStore {
  const serverPins = (alias: string) => (data.servers[alias] ??= {});
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
      save(data);
    },
  };
}
