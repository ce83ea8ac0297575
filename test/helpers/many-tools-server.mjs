#!/usr/bin/env node
// A stdio MCP server with many generated tools (many-tools.mjs): `--count N` (default 300) and
// `--offset K` choose which. A call answers `<tool> done: <arguments as JSON>`.
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { manyTools } from './many-tools.mjs';

const option = (name, fallback) => {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
};
const tools = manyTools(option('count', 300), option('offset', 0));
const server = new Server({ name: 'many-tools', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', async () => ({ tools }));
server.setRequestHandler('tools/call', async (request) => ({ content: [{ type: 'text', text: `${request.params.name} done: ${JSON.stringify(request.params.arguments ?? {})}` }] }));
await server.connect(new StdioServerTransport());
