// How big and how deep one tool definition is, measured without recursion (docs/ARCHITECTURE.md,
// Security invariants 7). The SDK validates a tools/list answer with recursive parsers, and our
// own code serializes definitions with JSON.stringify: a schema nested ten thousand levels deep
// overflows the stack in either, and the whole list (every tool of the server) is lost. These
// checks run first, on the raw message, and stop as soon as a bound is passed.

export interface DefinitionBounds {
  /** Largest size of one tool definition (name, texts, schemas), in bytes of JSON, about. */
  toolDefinitionBytes: number;
  /** Deepest nesting of objects and arrays in one tool definition. */
  toolDefinitionDepth: number;
}

export const DEFAULT_DEFINITION_BOUNDS: DefinitionBounds = { toolDefinitionBytes: 256 * 1024, toolDefinitionDepth: 64 };

export interface Measure {
  /** About the bytes of the value's JSON text (exact for ASCII strings, a little over otherwise). */
  bytes: number;
  depth: number;
  /** The walk stopped early because a bound was passed: the numbers are lower bounds. */
  stopped: boolean;
}

/** Size and depth of a JSON value, walking with an explicit stack; stops once past either bound. */
export function measure(value: unknown, bounds: DefinitionBounds): Measure {
  let bytes = 0;
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node === 'string') bytes += Buffer.byteLength(node, 'utf8') + 2;
    else if (node === null || typeof node !== 'object') bytes += String(node).length;
    else {
      if (depth > deepest) deepest = depth;
      bytes += 2;
      if (Array.isArray(node)) {
        for (const child of node) stack.push([child, depth + 1]);
        bytes += node.length;
      } else {
        for (const [key, child] of Object.entries(node as Record<string, unknown>)) {
          bytes += Buffer.byteLength(key, 'utf8') + 4;
          stack.push([child, depth + 1]);
        }
      }
    }
    if (bytes > bounds.toolDefinitionBytes || deepest > bounds.toolDefinitionDepth) return { bytes, depth: deepest, stopped: true };
  }
  return { bytes, depth: deepest, stopped: false };
}

export function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** Why a tool definition is too large or too deep to be read at all, or undefined. */
export function definitionProblem(tool: unknown, bounds: DefinitionBounds): string | undefined {
  const size = measure(tool, bounds);
  if (size.depth > bounds.toolDefinitionDepth) return `its definition is nested deeper than ${bounds.toolDefinitionDepth} levels (limits.toolDefinitionDepth)`;
  if (size.bytes > bounds.toolDefinitionBytes) return `its definition is larger than ${formatSize(bounds.toolDefinitionBytes)} (limits.toolDefinitionBytes)`;
  return undefined;
}

// Keywords whose subschemas apply to the same value (no step into the data): a `$ref` cycle through
// only these never ends when a validator follows it (`{"$ref": "#"}` overflows the stack at the
// first call). A cycle through `properties` or `items` is an ordinary recursive type and is fine.
const SAME_VALUE_LISTS = ['allOf', 'anyOf', 'oneOf'];
const SAME_VALUE_SCHEMAS = ['not', 'if', 'then', 'else'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a local JSON pointer (`#/$defs/a`) in `root`; undefined when it does not resolve. */
function resolvePointer(root: unknown, ref: string): { node: unknown; pointer: string } | undefined {
  if (ref !== '#' && !ref.startsWith('#/')) return undefined;
  let node = root;
  const parts = ref === '#' ? [] : ref.slice(2).split('/').map((part) => decodeURIComponent(part).replace(/~1/g, '/').replace(/~0/g, '~'));
  for (const part of parts) {
    if (Array.isArray(node)) node = node[Number(part)];
    else if (isObject(node) && Object.hasOwn(node, part)) node = node[part];
    else return undefined;
  }
  return { node, pointer: ref === '#' ? '#' : `#/${parts.join('/')}` };
}

/**
 * A `$ref` that leads back to where it started without stepping into the data, or undefined.
 * Only local references (`#`, `#/…`) are followed; the schema is assumed bounded by
 * `definitionProblem` first.
 */
export function refCycle(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  // Edges of the "same value" graph, explored from every `$ref` in the schema.
  const sameValue = (node: Record<string, unknown>, pointer: string): Array<{ node: unknown; pointer: string }> => {
    const next: Array<{ node: unknown; pointer: string }> = [];
    if (typeof node.$ref === 'string') {
      const target = resolvePointer(schema, node.$ref);
      if (target) next.push(target);
    }
    for (const key of SAME_VALUE_LISTS) {
      const list = node[key];
      if (Array.isArray(list)) list.forEach((child, index) => next.push({ node: child, pointer: `${pointer}/${key}/${index}` }));
    }
    for (const key of SAME_VALUE_SCHEMAS) if (isObject(node[key])) next.push({ node: node[key], pointer: `${pointer}/${key}` });
    return next;
  };
  // Every schema object in the document is a possible start; each is walked once (white/grey/black).
  const state = new Map<unknown, 'open' | 'done'>();
  const starts: Array<{ node: unknown; pointer: string }> = [];
  const all: Array<{ node: unknown; pointer: string }> = [{ node: schema, pointer: '#' }];
  while (all.length > 0) {
    const entry = all.pop()!;
    if (!isObject(entry.node) && !Array.isArray(entry.node)) continue;
    if (isObject(entry.node)) starts.push(entry);
    const children = Array.isArray(entry.node) ? entry.node.map((child, index) => [String(index), child] as const) : Object.entries(entry.node);
    for (const [key, child] of children) all.push({ node: child, pointer: `${entry.pointer}/${key}` });
  }
  for (const start of starts) {
    if (state.has(start.node)) continue;
    // Iterative depth-first search; a node met again while still open closes a cycle.
    const path: Array<{ node: Record<string, unknown>; pointer: string; next: Array<{ node: unknown; pointer: string }> }> = [];
    const open = (entry: { node: unknown; pointer: string }) => {
      state.set(entry.node, 'open');
      path.push({ node: entry.node as Record<string, unknown>, pointer: entry.pointer, next: sameValue(entry.node as Record<string, unknown>, entry.pointer) });
    };
    open(start);
    while (path.length > 0) {
      const top = path[path.length - 1]!;
      const child = top.next.pop();
      if (!child) {
        state.set(top.node, 'done');
        path.pop();
        continue;
      }
      if (!isObject(child.node)) continue;
      const seen = state.get(child.node);
      if (seen === 'open') return `${top.pointer} refers back to ${child.pointer}`;
      if (seen === undefined) open(child);
    }
  }
  return undefined;
}
