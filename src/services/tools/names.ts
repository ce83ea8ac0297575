import { createHash } from 'node:crypto';
import type { ToolSpec } from '../broker/types';
import { taskSupportProblem, type McpToolInfo, type ServerSnapshot } from '../mcp/index';
import { stripHidden, stripHiddenDeep } from '../terminal/hidden-text';
import { sanitizeName } from '../terminal/look-alike';
import { estimateTokens } from '../context/estimate';

// Tools reach the model as `<alias>__<tool>` (docs/ARCHITECTURE.md, Conversation rules). The wire name must satisfy the strictest
// provider (^[a-zA-Z0-9_-]{1,64}$), so a name may be cleaned or shortened; the way back from a
// wire name to (alias, tool) is always this index's map, never a split of the string.

export const WIRE_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
export const MAX_WIRE_NAME = 64;
export const SEPARATOR = '__';

export interface SchemaLimits {
  /** Largest JSON text of one inputSchema we send to the model. */
  inputSchemaBytes: number;
  /** Deepest nesting of objects/arrays in one inputSchema. */
  inputSchemaDepth: number;
  /** Longest description sent to the model (`mcp.maxDescriptionChars`); a longer one is cut, with a note. */
  descriptionChars?: number;
}

export const DEFAULT_DESCRIPTION_CHARS = 2_000;
export const DEFAULT_SCHEMA_LIMITS: SchemaLimits = { inputSchemaBytes: 64 * 1024, inputSchemaDepth: 32 };

export interface IndexedTool {
  wireName: string;
  alias: string;
  /** The tool's name exactly as its server knows it. */
  tool: string;
  info: McpToolInfo;
  /** The definition exactly as it goes into the request's `tools` array. */
  spec: ToolSpec;
  /** Estimated tokens of that definition (its JSON as sent), see context/estimate.ts. */
  tokens: number;
}

export interface ToolIndex {
  /**
   * Tool definitions for the broker request, ordered by alias, then by tool name (code-unit order,
   * not locale): the same servers and lists always give the same array, so a server's prompt cache
   * keeps the prefix, and one server's change never reorders another's tools.
   */
  specs: ToolSpec[];
  /** The indexed tools in the order of `specs`. */
  tools: IndexedTool[];
  /** Wire name -> the server and tool to dispatch to. */
  byWireName: Map<string, IndexedTool>;
  /** One line per tool that was renamed or withheld, for the user (raw text: sanitize at display). */
  problems: string[];
}

function shortHash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 8);
}

/** The name a user types and reads: `alias__tool`, unaltered. */
export function displayName(alias: string, tool: string): string {
  return `${alias}${SEPARATOR}${tool}`;
}

/**
 * The name sent to the model. Characters outside [a-zA-Z0-9_-] become `_`; a name longer than 64
 * is cut and given a hash of the full original so that it stays unique and stable across runs.
 * `forceHash` is used to separate two tools whose cleaned names collide.
 */
export function wireName(alias: string, tool: string, forceHash = false): string {
  const cleanTool = tool.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';
  const plain = `${alias}${SEPARATOR}${cleanTool}`;
  if (!forceHash && plain.length <= MAX_WIRE_NAME) return plain;
  const suffix = `_${shortHash(`${alias}\u0000${tool}`)}`;
  const room = MAX_WIRE_NAME - alias.length - SEPARATOR.length - suffix.length;
  return `${alias}${SEPARATOR}${cleanTool.slice(0, Math.max(room, 1))}${suffix}`.slice(0, MAX_WIRE_NAME);
}

/** Why a schema is too big or too deep to send, or undefined when it is fine. */
export function schemaProblem(schema: unknown, limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS): string | undefined {
  let json: string | undefined;
  try {
    json = JSON.stringify(schema);
  } catch {
    return 'its input schema cannot be serialized';
  }
  const bytes = Buffer.byteLength(json ?? '', 'utf8');
  if (bytes > limits.inputSchemaBytes) return `its input schema is ${Math.ceil(bytes / 1024)} KB (limit ${Math.floor(limits.inputSchemaBytes / 1024)} KB)`;
  const depth = nestingDepth(schema, limits.inputSchemaDepth + 1);
  if (depth > limits.inputSchemaDepth) return `its input schema is nested deeper than ${limits.inputSchemaDepth} levels`;
  return undefined;
}

/** Depth of nested objects/arrays, counting stops once past `stopAt`. */
function nestingDepth(value: unknown, stopAt: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth > deepest) deepest = depth;
    if (deepest >= stopAt) return deepest;
    for (const child of Object.values(node as Record<string, unknown>)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * JSON Schema for the model: an object schema, as providers require for function parameters.
 * Hidden characters (tag characters, zero-width, bidi, control characters) are taken out of every
 * string in it: property descriptions, enum values, defaults (services/terminal/hidden-text.ts).
 */
function parametersFor(info: McpToolInfo): Record<string, unknown> {
  const schema = info.inputSchema && typeof info.inputSchema === 'object' ? stripHiddenDeep(info.inputSchema) : {};
  if (schema.type === undefined) return { type: 'object', properties: {}, ...schema };
  return schema;
}

/** Code-unit order: the same on every machine and locale (localeCompare is not). */
export function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** One server's share of the index. */
interface ServerPart {
  tools: IndexedTool[];
  problems: string[];
}

/**
 * Each server's part, kept per tool list (snapshots are immutable: the same array means the same
 * tools) and schema limits. A list change on one server rebuilds that server's part only; the
 * others keep their very spec objects.
 */
const partCache = new WeakMap<readonly McpToolInfo[], Map<string, ServerPart>>();

function serverPart(server: ServerSnapshot, limits: SchemaLimits): ServerPart {
  const key = `${server.alias}\u0000${limits.inputSchemaBytes}\u0000${limits.inputSchemaDepth}\u0000${limits.descriptionChars}`;
  let byKey = partCache.get(server.tools);
  const cached = byKey?.get(key);
  if (cached) return cached;
  const part = indexServer(server, limits);
  if (!byKey) partCache.set(server.tools, (byKey = new Map()));
  byKey.set(key, part);
  return part;
}

/**
 * The description the model reads: hidden characters taken out, and cut at `maxChars` with a
 * note saying so (a server's description is instructions to the model, and it takes context).
 */
export function descriptionForModel(info: McpToolInfo, maxChars = DEFAULT_DESCRIPTION_CHARS): string | undefined {
  const raw = info.description ?? info.title;
  if (!raw) return undefined;
  const text = stripHidden(raw);
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n[aish-tui: description cut at ${maxChars.toLocaleString('en-US')} of ${text.length.toLocaleString('en-US')} characters (mcp.maxDescriptionChars)]`;
}

/**
 * The last index built, with what it was built from. The loop asks for an index before every
 * request, and between two requests the servers' tool lists rarely change: the same parts give
 * the same index (and the same `specs` array) without assembling it again.
 */
let lastBuilt: { parts: ServerPart[]; index: ToolIndex } | undefined;

/** Builds the tool list for the model from every ready server and the wire-name map to dispatch by. */
export function buildToolIndex(servers: readonly ServerSnapshot[], limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS): ToolIndex {
  const ready = servers.filter((server) => server.state === 'ready').sort((a, b) => byCodeUnits(a.alias, b.alias));
  const parts = ready.map((server) => serverPart(server, limits));
  if (lastBuilt && lastBuilt.parts.length === parts.length && lastBuilt.parts.every((part, position) => part === parts[position])) return lastBuilt.index;
  const tools = parts.flatMap((part) => part.tools);
  const index: ToolIndex = {
    specs: tools.map((tool) => tool.spec),
    tools,
    byWireName: new Map(tools.map((tool) => [tool.wireName, tool])),
    problems: parts.flatMap((part) => part.problems),
  };
  lastBuilt = { parts, index };
  return index;
}

function indexServer(server: ServerSnapshot, limits: SchemaLimits): ServerPart {
  const problems: string[] = [];
  const candidates: Array<{ alias: string; info: McpToolInfo; wire: string; collided?: boolean }> = [];
  const sorted = [...server.tools].sort((a, b) => byCodeUnits(a.name, b.name));
  for (const info of sorted) {
    const full = sanitizeName(displayName(server.alias, info.name));
    const problem = schemaProblem(info.inputSchema, limits) ?? taskSupportProblem(info, server);
    if (problem) {
      problems.push(`${full} withheld from the model: ${problem}`);
      continue;
    }
    candidates.push({ alias: server.alias, info, wire: wireName(server.alias, info.name) });
  }

  // Two different tools may clean up to the same wire name (e.g. `a.b` and `a_b`): both get a
  // hashed name. Wire names start with the alias, so only tools of one server can collide.
  const counts = new Map<string, number>();
  for (const candidate of candidates) counts.set(candidate.wire, (counts.get(candidate.wire) ?? 0) + 1);
  for (const candidate of candidates) {
    if ((counts.get(candidate.wire) ?? 0) > 1) {
      const renamed = wireName(candidate.alias, candidate.info.name, true);
      problems.push(`${sanitizeName(displayName(candidate.alias, candidate.info.name))} collides with another tool as ${candidate.wire}; sent as ${renamed}`);
      candidate.wire = renamed;
      candidate.collided = true;
    }
  }

  const tools: IndexedTool[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    const full = sanitizeName(displayName(candidate.alias, candidate.info.name));
    if (seen.has(candidate.wire) || !WIRE_NAME_PATTERN.test(candidate.wire)) {
      problems.push(`${full} withheld from the model: no unique wire name (${candidate.wire})`);
      continue;
    }
    seen.add(candidate.wire);
    if (candidate.wire !== displayName(candidate.alias, candidate.info.name) && !candidate.collided) {
      problems.push(`${full} is sent to the model as ${candidate.wire}`);
    }
    const description = descriptionForModel(candidate.info, limits.descriptionChars);
    const spec: ToolSpec = {
      type: 'function',
      function: {
        name: candidate.wire,
        ...(description ? { description } : {}),
        parameters: parametersFor(candidate.info),
      },
    };
    tools.push({ wireName: candidate.wire, alias: candidate.alias, tool: candidate.info.name, info: candidate.info, spec, tokens: estimateTokens(JSON.stringify(spec)) });
  }
  return { tools, problems };
}

/**
 * Finds a tool the user named as `alias__tool` (the `:mcp tool` and `mcp call` commands). The alias
 * cannot contain `__`, so the first `__` separates it; the result is checked against real snapshots.
 */
export function findTool(servers: readonly ServerSnapshot[], name: string): { server: ServerSnapshot; info: McpToolInfo } | undefined {
  const split = name.indexOf(SEPARATOR);
  if (split <= 0) return undefined;
  const alias = name.slice(0, split);
  const tool = name.slice(split + SEPARATOR.length);
  const server = servers.find((candidate) => candidate.alias === alias);
  const info = server?.tools.find((candidate) => candidate.name === tool);
  return server && info ? { server, info } : undefined;
}
