#!/usr/bin/env node
// A stdio MCP server that misbehaves on request, written against the raw JSON-RPC wire so that it
// can do what no SDK server would: die in the middle of a call, never answer, or write garbage.
//
//   crash      exits with status 3 while the call is running (after writing to stderr)
//   hang       never answers; reports each notifications/cancelled it receives on stderr
//   noisy      writes non-JSON lines and terminal escape sequences to stdout and stderr, then answers
//   echo       answers normally
//   grow       adds a tool, then announces the change three times in a row (list_changed)
//
// With --banner, it writes escape sequences to stdout before the handshake as well.
import { reply, replyError, serveStdio, text, write } from './raw-stdio-mcp.mjs';

const banner = process.argv.includes('--banner');

if (banner) {
  process.stdout.write('starting up... \u001b[31mred\u001b[0m \u001b]0;pwned title\u0007\n');
  process.stdout.write('{"not": "json-rpc"}\n');
}
process.stderr.write('misbehaving server ready \u001b[2J\u001b[H(clear screen attempt)\n');

let listings = 0;
const tools = ['crash', 'hang', 'noisy', 'echo', 'grow'].map((name) => ({
  name,
  description: `${name} on request`,
  inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
}));

serveStdio({
  initialize: (params) => ({ protocolVersion: params.protocolVersion, capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'misbehaving', version: '1.0.0' } }),
  cancelled: (params) => process.stderr.write(`cancelled request ${params.requestId}: ${params.reason ?? ''}\n`),
  listTools: () => {
    listings += 1;
    process.stderr.write(`tools/list #${listings}\n`);
    return tools;
  },
  callTool: (id, params) => {
    const name = params.name;
    if (name === 'crash') {
      process.stderr.write('fatal: simulated crash in the middle of a call\n');
      setTimeout(() => process.exit(3), 20);
      return;
    }
    if (name === 'hang') {
      process.stderr.write(`hanging on request ${id}\n`);
      return;
    }
    if (name === 'noisy') {
      process.stdout.write('this line is not JSON\n');
      process.stdout.write('\u001b[2J\u001b[31mescape sequences on stdout\u001b[0m\n');
      process.stderr.write('stderr with \u001b]52;c;cGFzdGU=\u0007 clipboard attempt and \u202Ebidi\n');
      process.stderr.write(`${'x'.repeat(5000)}\n`);
      return reply(id, text('noisy but fine \u001b[1mbold\u001b[0m'));
    }
    if (name === 'echo') return reply(id, text(String(params.arguments?.text ?? '')));
    if (name === 'grow') {
      tools.push({ name: `extra_${tools.length}`, description: 'added at run time', inputSchema: { type: 'object' } });
      for (let i = 0; i < 3; i += 1) write({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      return reply(id, text('grown'));
    }
    return replyError(id, `Unknown tool: ${name}`);
  },
});
