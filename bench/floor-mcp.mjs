// The floor under issue 23's "all ready within 1.3x of the slowest single one": bare MCP clients
// (the SDK's own Client over stdio, nothing else) starting `count` of the tool-budget scenario's
// servers at once (test/helpers/many-tools-server.mjs, 50 tools each), connecting to each and
// listing its tools. Prints {readyMs}: from this script's first line to the last list received.
// Plain JavaScript in a fresh process, like the app's own start.
//   node bench/floor-mcp.mjs <count>
const started = performance.now();
const { Client } = await import('@modelcontextprotocol/client');
const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
const path = await import('node:path');
const { fileURLToPath } = await import('node:url');

const count = Number(process.argv[2] ?? 20);
const PER_SERVER = 50;
const server = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'test', 'helpers', 'many-tools-server.mjs');
const clients = [];
await Promise.all(
  Array.from({ length: count }, async (_, index) => {
    const client = new Client({ name: 'floor', version: '1.0.0' });
    clients.push(client);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [server, '--count', String(PER_SERVER), '--offset', String(index * PER_SERVER)] }));
    const { tools } = await client.listTools();
    if (tools.length !== PER_SERVER) throw new Error(`server ${index} listed ${tools.length} tools`);
  }),
);
const readyMs = performance.now() - started;
await Promise.all(clients.map((client) => client.close()));
console.log(JSON.stringify({ readyMs }));
process.exit(0);
