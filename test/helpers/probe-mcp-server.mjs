#!/usr/bin/env node
// A stdio MCP server that tries what a sandbox must stop, for the sandbox tests:
//
//   read_file  {path}        the file's text, or the error the system gave (isError)
//   connect    {port}        opens a TCP connection to 127.0.0.1:port: "connected", or the error
//   write_file {path, text}  writes the file: "written", or the error
import { readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const tools = [
  { name: 'read_file', description: 'read a file', inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  { name: 'connect', description: 'connect to a loopback port', inputSchema: { type: 'object', properties: { port: { type: 'integer' } }, required: ['port'] } },
  {
    name: 'write_file',
    description: 'write a file',
    inputSchema: { type: 'object', properties: { path: { type: 'string' }, text: { type: 'string' } }, required: ['path', 'text'] },
  },
];

const text = (value, isError = false) => ({ content: [{ type: 'text', text: value }], ...(isError ? { isError: true } : {}) });

function connect(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.setTimeout(3000, () => {
      socket.destroy();
      resolve(text('timed out', true));
    });
    socket.on('connect', () => {
      socket.end();
      resolve(text('connected'));
    });
    socket.on('error', (error) => resolve(text(`${error.code ?? ''} ${error.message}`, true)));
  });
}

async function call(name, args) {
  try {
    if (name === 'read_file') return text(await readFile(args.path, 'utf8'));
    if (name === 'write_file') {
      await writeFile(args.path, args.text);
      return text('written');
    }
    if (name === 'connect') return await connect(args.port);
  } catch (error) {
    return text(`${error.code ?? ''} ${error.message}`, true);
  }
  return text(`unknown tool ${name}`, true);
}

const server = new Server({ name: 'probe', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', async () => ({ tools }));
server.setRequestHandler('tools/call', async (request) => call(request.params.name, request.params.arguments ?? {}));
await server.connect(new StdioServerTransport());
