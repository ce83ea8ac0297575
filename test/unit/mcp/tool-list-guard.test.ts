import type { JSONRPCMessage, Tool, Transport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { definitionProblem, measure, refCycle, DEFAULT_DEFINITION_BOUNDS } from '../../../src/services/mcp/definition-bounds';
import { guardToolLists, screenToolPage, type ToolListBounds } from '../../../src/services/mcp/tool-list-guard';
import { acceptTools } from '../../../src/services/mcp/tool-list';
import { DEFAULT_LIMITS } from '../../../src/services/mcp/options';

// docs/ARCHITECTURE.md, Security invariants 7: one absurd tool is dropped before anything parses it
// recursively; the server's other tools stay. The list as a whole is bounded too.

const BOUNDS: ToolListBounds = { ...DEFAULT_DEFINITION_BOUNDS, toolListBytes: 8 * 1024 * 1024, maxTools: 1_000 };
const ok = (name: string) => ({ name, inputSchema: { type: 'object' } });

function deep(levels: number): unknown {
  // Built bottom-up without recursion (JSON.stringify of it would overflow, which is the point).
  let node: unknown = { type: 'string' };
  for (let level = 0; level < levels; level += 1) node = { type: 'object', properties: { a: node } };
  return node;
}

describe('bounds of one definition', () => {
  it('measures depth and size without recursion, stopping early', () => {
    const result = measure({ name: 'x', inputSchema: deep(100_000) }, DEFAULT_DEFINITION_BOUNDS);
    expect(result.stopped).toBe(true);
    expect(definitionProblem({ name: 'x', inputSchema: deep(100_000) }, DEFAULT_DEFINITION_BOUNDS)).toMatch(/nested deeper than 64 levels/);
    expect(definitionProblem({ name: 'x', inputSchema: deep(20) }, DEFAULT_DEFINITION_BOUNDS)).toBeUndefined();
    expect(definitionProblem({ name: 'x', description: 'é'.repeat(200_000) }, DEFAULT_DEFINITION_BOUNDS)).toMatch(/larger than 256 KB/);
    // Wide rather than deep: many small properties add up.
    const wide = Object.fromEntries(Array.from({ length: 40_000 }, (_, index) => [`p${index}`, { type: 'string' }]));
    expect(definitionProblem({ name: 'x', inputSchema: { type: 'object', properties: wide } }, DEFAULT_DEFINITION_BOUNDS)).toMatch(/larger than/);
  });

  it.each([
    ['$ref to the root', { $ref: '#' }],
    ['allOf back to the root', { type: 'object', allOf: [{ $ref: '#' }] }],
    ['a property that is its own reference', { type: 'object', properties: { a: { $ref: '#/properties/a' } } }],
    ['two definitions referring to each other', { $defs: { a: { $ref: '#/$defs/b' }, b: { anyOf: [{ $ref: '#/$defs/a' }] } }, $ref: '#/$defs/a' }],
    ['not/if/then/else', { not: { if: { $ref: '#' } } }],
    ['an escaped pointer', { $defs: { 'a/b': { oneOf: [{ $ref: '#/$defs/a~1b' }] } } }],
  ])('finds an endless $ref: %s', (_what, schema) => {
    expect(refCycle(schema)).toBeDefined();
  });

  it.each([
    ['a recursive tree through properties', { type: 'object', properties: { children: { type: 'array', items: { $ref: '#' } } } }],
    ['a shared definition used twice', { $defs: { s: { type: 'string' } }, properties: { a: { $ref: '#/$defs/s' }, b: { $ref: '#/$defs/s' } } }],
    ['a remote or missing reference', { $ref: 'https://example.com/schema', properties: { a: { $ref: '#/nowhere' } } }],
  ])('accepts %s', (_what, schema) => {
    expect(refCycle(schema)).toBeUndefined();
  });
});

describe('screening a tools/list page', () => {
  it('drops the absurd, malformed and unnamed tools with a note each and keeps the rest in order', () => {
    const page = [
      ok('first'),
      { name: 'deep', inputSchema: deep(10_000) },
      { name: 'huge', description: 'x'.repeat(5 * 1024 * 1024), inputSchema: { type: 'object' } },
      { name: 'cycle', inputSchema: { type: 'object', allOf: [{ $ref: '#' }] } },
      { name: 'out-cycle', inputSchema: { type: 'object' }, outputSchema: { type: 'object', not: { $ref: '#' } } },
      { name: 'wrong', inputSchema: { type: 'string' } },
      { name: 12, inputSchema: { type: 'object' } },
      'not even an object',
      { name: 'evil\u001b[2J\u202E', inputSchema: { type: 'object', properties: 5 } },
      ok('last'),
    ];
    const { kept, notes } = screenToolPage(page, BOUNDS);
    expect(kept).toEqual([ok('first'), ok('last')]);
    expect(notes).toHaveLength(8);
    expect(notes[0]).toMatch(/^deep dropped: its definition is nested deeper than 64 levels/);
    expect(notes[1]).toMatch(/^huge dropped: its definition is larger than 256 KB/);
    expect(notes[2]).toMatch(/^cycle dropped: its input schema refers to itself without end/);
    expect(notes[3]).toMatch(/^out-cycle dropped: its output schema refers to itself without end/);
    expect(notes[4]).toMatch(/^wrong dropped: it is not a valid tool definition \(inputSchema\.type: /);
    expect(notes[5]).toMatch(/^tool #7 \(no name\) dropped/);
    // The name in a note is escaped: one line, nothing a terminal would obey.
    expect(notes[7]).toMatch(/^"evil\\\\x1b\[2J<U\+202E>" dropped/);
  });

  it('bounds the whole list by count and size, across pages', () => {
    const running = { count: 0, bytes: 0 };
    const small: ToolListBounds = { ...BOUNDS, maxTools: 3 };
    expect(screenToolPage([ok('a'), ok('b')], small, running).kept).toHaveLength(2);
    const second = screenToolPage([ok('c'), ok('d'), ok('e')], small, running);
    expect(second.kept).toEqual([ok('c')]);
    expect(second.notes).toEqual(['2 more tools dropped: the server lists more than 3 tools']);
    const bytes = screenToolPage(Array.from({ length: 10 }, (_, index) => ({ ...ok(`t${index}`), description: 'x'.repeat(1000) })), { ...BOUNDS, toolListBytes: 3000 });
    expect(bytes.kept).toHaveLength(2);
    expect(bytes.notes).toEqual(['8 more tools dropped: the tool list is larger than 3 KB (limits.toolListBytes)']);
  });
});

describe('the transport guard', () => {
  function fakeTransport() {
    const sent: JSONRPCMessage[] = [];
    const transport = {
      async start() {},
      async close() {},
      async send(message: JSONRPCMessage) {
        sent.push(message);
      },
    } as unknown as Transport;
    return { transport, sent };
  }

  it('screens only answers to tools/list, before the client handler, and ends the pagination once full', async () => {
    const { transport } = fakeTransport();
    const notes: string[] = [];
    guardToolLists(transport, { ...BOUNDS, maxTools: 2 }, (note) => notes.push(note));
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' } as JSONRPCMessage);
    transport.onmessage!({ jsonrpc: '2.0', id: 1, result: { tools: [ok('a'), { name: 'deep', inputSchema: deep(10_000) }], nextCursor: 'p2' } } as JSONRPCMessage);
    await transport.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 'p2' } } as JSONRPCMessage);
    transport.onmessage!({ jsonrpc: '2.0', id: 2, result: { tools: [ok('b'), ok('c')], nextCursor: 'p3' } } as JSONRPCMessage);
    // Another request's answer passes untouched, even if it looks like a tool list.
    const other = { jsonrpc: '2.0', id: 3, result: { tools: [{ name: 'deep', inputSchema: deep(10_000) }] } } as JSONRPCMessage;
    transport.onmessage!(other);
    expect(received[0]).toEqual({ jsonrpc: '2.0', id: 1, result: { tools: [ok('a')], nextCursor: 'p2' } });
    expect(received[1]).toEqual({ jsonrpc: '2.0', id: 2, result: { tools: [ok('b')] } });
    expect(received[2]).toBe(other);
    expect(notes).toEqual([expect.stringMatching(/^deep dropped/), '1 more tools dropped: the server lists more than 2 tools']);
  });

  it('hands its handler on to a wrapper that intercepts onmessage already', () => {
    const { transport } = fakeTransport();
    const seenByWrapper: unknown[] = [];
    let inner: ((message: JSONRPCMessage) => void) | undefined;
    Object.defineProperty(transport, 'onmessage', {
      configurable: true,
      get: () => inner && ((message: JSONRPCMessage) => (seenByWrapper.push(message), inner!(message))),
      set: (handler) => (inner = handler),
    });
    guardToolLists(transport, BOUNDS, () => {});
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    transport.onmessage!({ jsonrpc: '2.0', method: 'notifications/x' } as JSONRPCMessage);
    expect(seenByWrapper).toHaveLength(1);
    expect(received).toHaveLength(1);
  });
});

describe('duplicate names', () => {
  it('refuses every definition under a name listed twice (or in two Unicode forms) and names them once', () => {
    const warnings: string[] = [];
    const tools = [ok('dup'), ok('solo'), { ...ok('dup'), description: 'the other one' }, ok('caf\u00e9'), ok('cafe\u0301'), ok('x\u001b[2J'), ok('x\u001b[2J')] as Tool[];
    const accepted = acceptTools(tools, { alias: 'a', limits: DEFAULT_LIMITS, secrets: [], warn: (line) => warnings.push(line) });
    expect(accepted.map((tool) => tool.name)).toEqual(['solo']);
    expect(warnings).toEqual(['mcp a: the server lists a__dup, a__caf<U+00E9>, a__x\\x1b[2J more than once; none of the definitions under those names are used']);
  });
});
