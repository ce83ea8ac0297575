import type { McpToolInfo, ServerSnapshot } from './types';

// MCP tasks (protocol 2025-11-25): a tool may declare `execution.taskSupport`. "required" means the
// server answers only calls made as tasks; this client makes them (tasks.ts) when the server
// declares task-augmented `tools/call` (capabilities.tasks.requests.tools.call). A server that
// requires tasks without declaring them cannot be called: such a tool stays listed for the user,
// with this reason, but is not offered to the model. ("optional" tools run as tasks where the
// server declares them, as plain calls elsewhere.)

/** Why the tool cannot be called by this client, or undefined when it can. */
export function taskSupportProblem(info: Pick<McpToolInfo, 'execution'>, server?: Pick<ServerSnapshot, 'taskCalls'>): string | undefined {
  if (info.execution?.taskSupport !== 'required' || server?.taskCalls) return undefined;
  return 'it runs only as a task (execution.taskSupport "required") and the server does not declare task calls (capabilities.tasks.requests.tools.call)';
}

/** Whether a call of this tool is made as a task: the tool allows it and the server declares task calls. */
export function callsAsTask(info: Pick<McpToolInfo, 'execution'> | undefined, server: Pick<ServerSnapshot, 'taskCalls'>): boolean {
  const support = info?.execution?.taskSupport;
  return server.taskCalls === true && (support === 'required' || support === 'optional');
}
