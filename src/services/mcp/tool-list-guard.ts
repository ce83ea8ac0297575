import { specTypeSchemas, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { sanitizeLabel } from '../terminal/sanitize';
import { definitionProblem, formatSize, refCycle, type DefinitionBounds } from './definition-bounds';

// A server's tools/list answer is looked at before the SDK parses it (docs/ARCHITECTURE.md,
// Security invariants 7): the SDK validates the whole list at once, so one absurd tool (nested ten
// thousand levels deep, megabytes of description, a malformed field, a schema that refers to
// itself forever) would fail every tool of the server, or overflow the stack. Such a tool is taken
// out of the answer with a note; the others stay. The list as a whole is bounded too, across
// pages: past the count or size bound the rest is dropped and the pagination ends.

export interface ToolListBounds extends DefinitionBounds {
  /** Largest total size of one server's tool list, in bytes of JSON (about). */
  toolListBytes: number;
  /** Most tools kept from one server. */
  maxTools: number;
}

interface Running {
  count: number;
  bytes: number;
  /** The bound that ended the listing, once one did. */
  full?: string;
}

type RequestId = string | number;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The tool's name for a note: sanitized, one line, cut; its position when it has no usable name. */
function label(tool: unknown, index: number): string {
  const name = isObject(tool) && typeof tool.name === 'string' ? tool.name : undefined;
  if (name === undefined) return `tool #${index + 1} (no name)`;
  const shown = sanitizeLabel(name.length > 64 ? `${name.slice(0, 64)}…` : name);
  return JSON.stringify(shown).slice(1, -1) === shown ? shown : JSON.stringify(shown);
}

const toolSchema = specTypeSchemas.Tool as unknown as { '~standard': { validate(value: unknown): { issues?: ReadonlyArray<{ message: string; path?: ReadonlyArray<PropertyKey | { key: PropertyKey }> }> } } };

/** The first reason the SDK would refuse this tool, in one line, or undefined when it is valid. */
function shapeProblem(tool: unknown): string | undefined {
  const result = toolSchema['~standard'].validate(tool);
  const issue = result.issues?.[0];
  if (!issue) return undefined;
  const path = (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part)).join('.');
  return `it is not a valid tool definition (${path ? `${path}: ` : ''}${issue.message.split('\n')[0]})`;
}

/** Why one tool is dropped from the list, or undefined when it may be read. */
export function toolProblem(tool: unknown, bounds: DefinitionBounds): string | undefined {
  const size = definitionProblem(tool, bounds);
  if (size) return size;
  if (isObject(tool)) {
    for (const key of ['inputSchema', 'outputSchema'] as const) {
      const cycle = refCycle(tool[key]);
      if (cycle) return `its ${key === 'inputSchema' ? 'input' : 'output'} schema refers to itself without end (${cycle})`;
    }
  }
  return shapeProblem(tool);
}

/**
 * Screens one page of a tool list: returns the tools that may be read and one note per tool
 * dropped (or for the rest of the list, once a bound of the whole list is reached).
 */
export function screenToolPage(tools: unknown[], bounds: ToolListBounds, running: Running = { count: 0, bytes: 0 }): { kept: unknown[]; notes: string[] } {
  const kept: unknown[] = [];
  const notes: string[] = [];
  for (const [index, tool] of tools.entries()) {
    if (running.full) {
      notes.push(`${tools.length - index} more tools dropped: ${running.full}`);
      break;
    }
    const problem = toolProblem(tool, bounds);
    if (problem) {
      notes.push(`${label(tool, index)} dropped: ${problem}`);
      continue;
    }
    // Bounded by toolDefinitionBytes, so serializing it is safe now.
    const bytes = Buffer.byteLength(JSON.stringify(tool), 'utf8');
    if (running.count + 1 > bounds.maxTools) running.full = `the server lists more than ${bounds.maxTools} tools`;
    else if (running.bytes + bytes > bounds.toolListBytes) running.full = `the tool list is larger than ${formatSize(bounds.toolListBytes)} (limits.toolListBytes)`;
    if (running.full) {
      notes.push(`${tools.length - index} more tools dropped: ${running.full}`);
      break;
    }
    running.count += 1;
    running.bytes += bytes;
    kept.push(tool);
  }
  return { kept, notes };
}

/**
 * Screens every tools/list answer `transport` delivers before the client's handler (and the SDK's
 * validation) sees it. `report` gets one line per dropped tool.
 */
export function guardToolLists(transport: Transport, bounds: ToolListBounds, report: (note: string) => void): void {
  const listing = new Set<RequestId>();
  let running: Running = { count: 0, bytes: 0 };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const request = message as { id?: unknown; method?: unknown; params?: { cursor?: unknown } };
    if (request.method === 'tools/list' && (typeof request.id === 'string' || typeof request.id === 'number')) {
      listing.add(request.id);
      // A first page starts a new listing; later pages add to it.
      if (request.params?.cursor === undefined) running = { count: 0, bytes: 0 };
    }
    return send(message, options);
  };

  const screen = (message: JSONRPCMessage): JSONRPCMessage => {
    const answer = message as { id?: unknown; result?: unknown };
    if ((typeof answer.id !== 'string' && typeof answer.id !== 'number') || !listing.delete(answer.id)) return message;
    if (!isObject(answer.result) || !Array.isArray(answer.result.tools)) return message;
    const { kept, notes } = screenToolPage(answer.result.tools, bounds, running);
    for (const note of notes) report(note);
    if (notes.length === 0) return message;
    const { nextCursor, ...rest } = answer.result;
    // Past a bound of the whole list, no further page is asked for.
    return { ...message, result: { ...rest, tools: kept, ...(running.full || nextCursor === undefined ? {} : { nextCursor }) } } as JSONRPCMessage;
  };

  // The client assigns its handler when it connects; another wrapper (awaited-answers.ts) may already
  // intercept the property, so this one hands its own handler on to that one.
  type Handler = NonNullable<Transport['onmessage']>;
  const previous = Object.getOwnPropertyDescriptor(transport, 'onmessage');
  let current: Handler | undefined;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: (): Handler | undefined => (previous?.get ? (previous.get.call(transport) as Handler | undefined) : current),
    set: (handler: Handler | undefined) => {
      current = handler && (((message, extra) => handler(screen(message), extra)) as Handler);
      if (previous?.set) previous.set.call(transport, current);
    },
  });
}
