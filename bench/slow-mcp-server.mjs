#!/usr/bin/env node
// A tiny MCP server over stdio that takes its time to answer `initialize` (default 300 ms, or the
// first argument), then answers like any other: one `echo` tool, `ping`. It speaks newline-framed
// JSON-RPC directly so its own start-up stays small next to the delay being measured.
import { createInterface } from 'node:readline';

const delayMs = Number(process.argv[2] ?? 300);
const send = (message) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const tools = [{ name: 'echo', description: 'Returns its text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }];

createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.id === undefined) return; // a notification
  const { id, method, params } = message;
  if (method === 'initialize') {
    const result = { protocolVersion: params?.protocolVersion ?? '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'slow-bench', version: '1.0.0' } };
    setTimeout(() => send({ id, result }), delayMs);
  } else if (method === 'tools/list') {
    send({ id, result: { tools } });
  } else if (method === 'tools/call') {
    send({ id, result: { content: [{ type: 'text', text: String(params?.arguments?.text ?? '') }] } });
  } else if (method === 'ping') {
    send({ id, result: {} });
  } else {
    send({ id, error: { code: -32601, message: `method not found: ${method}` } });
  }
}).on('close', () => process.exit(0));
