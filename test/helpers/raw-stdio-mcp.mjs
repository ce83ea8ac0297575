// The JSON-RPC wire of a stdio MCP server, written by hand (no SDK) so that the test servers built
// on it can break the protocol on purpose: answer late, never, or with garbage around the answer.
// Plain JavaScript, so the servers start with `node` alone.
import { createInterface } from 'node:readline';

/** Writes one JSON-RPC message as a line on stdout. */
export const write = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
export const reply = (id, result) => write({ jsonrpc: '2.0', id, result });
export const replyError = (id, message) => write({ jsonrpc: '2.0', id, error: { code: -32601, message } });
/** A tool result holding one text block. */
export const text = (value) => ({ content: [{ type: 'text', text: value }] });

/**
 * Reads JSON-RPC lines from stdin and answers them; lines that are not JSON are ignored.
 *
 * - `initialize(params)` returns the initialize result.
 * - `cancelled(params)` hears each notifications/cancelled; other notifications are ignored.
 * - `ping` is answered with `{}`.
 * - `listTools()` returns the tools for tools/list.
 * - `callTool(id, params)` answers tools/call itself (with `reply`), later, or never.
 * - Any other request gets a method-not-found error with the message `unknownMethod`.
 */
export function serveStdio({ initialize, cancelled, listTools, callTool, unknownMethod = 'Method not found' }) {
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    const { id, method, params } = message;
    if (method === 'initialize') return reply(id, initialize(params));
    if (method === 'notifications/cancelled') return cancelled(params);
    if (id === undefined) return;
    if (method === 'ping') return reply(id, {});
    if (method === 'tools/list') return reply(id, { tools: listTools() });
    if (method === 'tools/call') return callTool(id, params);
    return replyError(id, unknownMethod);
  });
}
