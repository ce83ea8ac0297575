// A stdio MCP server that works like the seed's async operations (ahma_mcp, R2-R3): `build`
// answers at once with an operation id and a "started" status, runs in the background for
// `ms` milliseconds (default 300), and then pushes its result with a progress notification on the
// call's progress token (progress 1 of 1). `sync_echo` answers plainly (R3.1, synchronous).
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const tools = [
  {
    name: 'build',
    description: 'Builds the project asynchronously: returns an operation id at once; the result follows as a progress notification. Go on with other work meanwhile.',
    inputSchema: { type: 'object', properties: { target: { type: 'string' }, ms: { type: 'integer' } }, required: ['target'] },
  },
  { name: 'sync_echo', description: 'Echoes the text', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
];

let next = 1;
const server = new Server({ name: 'async-ops', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', async () => ({ tools }));
server.setRequestHandler('tools/call', async (request) => {
  const { name, arguments: args } = request.params;
  if (name === 'sync_echo') return { content: [{ type: 'text', text: String(args?.text ?? '') }] };
  if (name !== 'build') return { content: [{ type: 'text', text: `unknown tool ${name}` }], isError: true };
  const operationId = `op_${next++}`;
  const token = request.params._meta?.progressToken;
  const ms = Number.isInteger(args?.ms) ? args.ms : 300;
  if (token !== undefined) {
    setTimeout(() => {
      void server.notification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: 1, total: 1, message: `operation ${operationId} completed: build of ${args.target} succeeded (0 warnings)` },
      });
    }, ms);
  }
  return { content: [{ type: 'text', text: JSON.stringify({ operation_id: operationId, status: 'started' }) }] };
});
await server.connect(new StdioServerTransport());
