#!/usr/bin/env node
// A stdio MCP server (the official SDK's low-level Server) whose tools ask the client for things
// in the middle of a call, the way URL and form elicitations really arrive:
//
//   ask         asks for a name (a form) and returns what came back; the call itself only ends
//               when the user has answered, however long that takes
//   open-page   asks the client to open a page (URL mode, elicitationId "page-1"); after
//               `completeAfterMs` (if given) it says the page is done
//               (notifications/elicitation/complete) while the request may still be open
//   needs-page  fails with URL required (-32042, elicitationId "consent-1") on its first call;
//               after `completeAfterMs` (if given) it says the page is done; the next call succeeds
//
//   silent          never answers (a call that must time out)
//   stray-complete  reports a page done that was never asked for ("never-asked"), then returns
//
// Calls are counted per tool so a test can see a retry (`calls` returns the counts).
import { ProtocolError, Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const URL_REQUIRED = -32042;
const counts = {};
let consentGiven = false;

const server = new Server({ name: 'asking', version: '1.0.0' }, { capabilities: { tools: {} } });
const delay = { type: 'object', properties: { completeAfterMs: { type: 'integer' } } };
const tools = [
  { name: 'ask', description: 'asks for a name', inputSchema: { type: 'object', properties: {} } },
  { name: 'open-page', description: 'asks to open a page', inputSchema: delay },
  { name: 'needs-page', description: 'needs a page opened first', inputSchema: delay },
  { name: 'silent', description: 'never answers', inputSchema: { type: 'object', properties: {} } },
  { name: 'stray-complete', description: 'reports a page done that was never asked for', inputSchema: { type: 'object', properties: {} } },
  { name: 'calls', description: 'how often each tool ran', inputSchema: { type: 'object', properties: {} } },
];

const complete = (elicitationId, afterMs) => {
  if (typeof afterMs !== 'number') return;
  setTimeout(() => void server.notification({ method: 'notifications/elicitation/complete', params: { elicitationId } }), afterMs);
};
const text = (value) => ({ content: [{ type: 'text', text: value }] });

server.setRequestHandler('tools/list', async () => ({ tools }));
server.setRequestHandler('tools/call', async (request, ctx) => {
  const { name, arguments: args = {} } = request.params;
  counts[name] = (counts[name] ?? 0) + 1;
  switch (name) {
    case 'ask': {
      const answer = await ctx.mcpReq.elicitInput(
        { mode: 'form', message: 'Your name, please', requestedSchema: { type: 'object', properties: { name: { type: 'string', title: 'Name' } }, required: ['name'] } },
        { timeout: 10 * 60_000 },
      );
      return text(`answer: ${answer.action} ${JSON.stringify(answer.content ?? {})}`);
    }
    case 'open-page': {
      complete('page-1', args.completeAfterMs);
      const answer = await ctx.mcpReq.elicitInput({ mode: 'url', message: 'Sign the form', url: 'https://example.com/sign', elicitationId: 'page-1' }, { timeout: 10 * 60_000 });
      return text(`page: ${answer.action}`);
    }
    case 'needs-page': {
      if (consentGiven) return text('done after the page');
      consentGiven = true;
      complete('consent-1', args.completeAfterMs);
      throw new ProtocolError(URL_REQUIRED, 'This request needs a consent first.', {
        elicitations: [{ mode: 'url', message: 'Give consent', url: 'https://example.com/consent', elicitationId: 'consent-1' }],
      });
    }
    case 'silent':
      return new Promise(() => {});
    case 'stray-complete':
      await server.notification({ method: 'notifications/elicitation/complete', params: { elicitationId: 'never-asked' } });
      return text('reported');
    case 'calls':
      return text(JSON.stringify(counts));
    default:
      throw new ProtocolError(-32602, `unknown tool ${name}`);
  }
});

await server.connect(new StdioServerTransport());
