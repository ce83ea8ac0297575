#!/usr/bin/env node
// A stdio MCP server (the official SDK's low-level Server) that asks the client for a form as a
// task (MCP 2025-11-25) and then drives the client's task requests, reporting what it saw:
//
//   ask-and-cancel   elicitation/create with `task`; tasks/list; tasks/get of an unknown id;
//                    tasks/cancel; tasks/get; tasks/result and tasks/cancel of the cancelled task
//
// The tool result is a JSON report of each step (result or error code and message).
import { Server } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const anything = z.looseObject({});
const created = z.looseObject({ task: z.looseObject({ taskId: z.string(), status: z.string() }) });

async function step(run) {
  try {
    return { result: await run() };
  } catch (error) {
    return { error: { code: error.code, message: error.message } };
  }
}

const tools = [{ name: 'ask-and-cancel', description: 'asks for a form as a task, then cancels it', inputSchema: { type: 'object', properties: {} } }];

const server = new Server({ name: 'client-tasks', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', async () => ({ tools }));
server.setRequestHandler('tools/call', async (_request, ctx) => {
  const send = (method, params, schema = anything) => ctx.mcpReq.send({ method, params }, schema);
  const report = {};
  report.create = await step(() =>
    send('elicitation/create', { task: { ttl: 60_000 }, message: 'Wait for me', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } }, created),
  );
  const taskId = report.create.result?.task.taskId ?? 'missing';
  report.list = await step(() => send('tasks/list', {}));
  report.unknown = await step(() => send('tasks/get', { taskId: 'no-such-task' }));
  report.cancel = await step(() => send('tasks/cancel', { taskId }));
  report.get = await step(() => send('tasks/get', { taskId }));
  report.result = await step(() => send('tasks/result', { taskId }));
  report.cancelAgain = await step(() => send('tasks/cancel', { taskId }));
  return { content: [{ type: 'text', text: JSON.stringify(report) }] };
});
await server.connect(new StdioServerTransport());
