#!/usr/bin/env node
// A stdio MCP server (the official SDK's low-level Server) whose tools return the results a client
// must not pass on verbatim:
//
//   media         an image block, and the same base64 copied into structuredContent (as
//                 @modelcontextprotocol/server-filesystem does for image and audio files)
//   structured    structuredContent only: a long base64 string, a data: URL, a nested audio block
//   text-blob     an embedded resource whose text/plain body is sent as a base64 blob
//   binary-blob   an embedded application/octet-stream resource
//   fail          isError: true with the server's own text
//   lines         a result of `count` lines (default 60,000)
//   awkward       `count` lines of awkwardText (test/helpers/awkward-text.mjs), with $RESULTS_TOKEN in them
//   research      execution.taskSupport "required", an outputSchema and icons
//
// Every tool has an outputSchema-free definition except `research`, so the SDK client does not
// check structuredContent against a schema (that is not what these tests are about).
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { awkwardText } from './awkward-text.mjs';

/** 75 KB of PNG-ish bytes: large enough that leaking it is obvious. */
const IMAGE = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.alloc(75 * 1024, 7)]).toString('base64');
const AUDIO = Buffer.alloc(4 * 1024, 3).toString('base64');
const ICON = Buffer.alloc(2 * 1024, 9).toString('base64');

const empty = { type: 'object', properties: {} };
const tools = [
  { name: 'media', description: 'an image, also in structuredContent', inputSchema: empty },
  { name: 'structured', description: 'base64 inside structuredContent only', inputSchema: empty },
  { name: 'text-blob', description: 'a text/plain resource sent as a blob', inputSchema: empty },
  { name: 'binary-blob', description: 'an octet-stream resource', inputSchema: empty },
  { name: 'fail', description: 'a result flagged isError', inputSchema: empty },
  { name: 'lines', description: 'many lines', inputSchema: { type: 'object', properties: { count: { type: 'integer' } } } },
  { name: 'awkward', description: 'many lines of escapes and non-ASCII text', inputSchema: { type: 'object', properties: { count: { type: 'integer' } } } },
  {
    name: 'research',
    title: 'Research',
    description: 'runs only as a task',
    inputSchema: { type: 'object', properties: { topic: { type: 'string' } }, required: ['topic'] },
    outputSchema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] },
    execution: { taskSupport: 'required' },
    icons: [
      { src: 'https://example.com/research.svg', mimeType: 'image/svg+xml', sizes: ['any'] },
      { src: `data:image/png;base64,${ICON}`, mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' },
    ],
  },
];

function call(name, args) {
  switch (name) {
    case 'media':
      return {
        content: [{ type: 'image', data: IMAGE, mimeType: 'image/png' }],
        structuredContent: { content: [{ type: 'image', data: IMAGE, mimeType: 'image/png' }] },
      };
    case 'structured':
      return {
        content: [],
        structuredContent: {
          path: '/tmp/picture.png',
          raw: IMAGE,
          preview: `data:image/png;base64,${IMAGE}`,
          nested: { clip: { type: 'audio', data: AUDIO, mimeType: 'audio/wav' } },
        },
      };
    case 'text-blob':
      return {
        content: [{ type: 'resource', resource: { uri: 'file:///notes/readme.txt', mimeType: 'text/plain; charset=utf-8', blob: Buffer.from('hello from a blob\nsecond line: grüße\n').toString('base64') } }],
      };
    case 'binary-blob':
      return { content: [{ type: 'resource', resource: { uri: 'file:///bin/tool', mimeType: 'application/octet-stream', blob: IMAGE } }] };
    case 'fail':
      return { content: [{ type: 'text', text: 'Permission denied: /etc/shadow' }], isError: true };
    case 'lines': {
      const count = Number.isInteger(args?.count) ? args.count : 60_000;
      const rows = [];
      for (let line = 1; line <= count; line++) rows.push(`line ${String(line).padStart(6, '0')} of the long result, padded to be realistic`);
      return { content: [{ type: 'text', text: rows.join('\n') }] };
    }
    case 'awkward':
      return { content: [{ type: 'text', text: 'first block' }, { type: 'text', text: awkwardText(Number.isInteger(args?.count) ? args.count : 1000, process.env.RESULTS_TOKEN) }, { type: 'text', text: 'last block' }] };
    case 'research':
      return { content: [{ type: 'text', text: 'should only run as a task' }], structuredContent: { summary: 'x' } };
    default:
      return { content: [{ type: 'text', text: `unknown tool ${name}` }], isError: true };
  }
}

const server = new Server({ name: 'results', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', async () => ({ tools }));
server.setRequestHandler('tools/call', async (request) => call(request.params.name, request.params.arguments));
await server.connect(new StdioServerTransport());
