import type { McpToolInfo } from './types';

// MCP tasks (protocol 2025-11-25): a tool may declare `execution.taskSupport`. "required" means the
// server answers only calls made as tasks, which this client does not make yet, so every call of
// such a tool would fail. It stays listed for the user, with this reason, but is not offered to
// the model. ("optional" tools also run as plain calls.)

/** Why the tool cannot be called by this client, or undefined when it can. */
export function taskSupportProblem(info: Pick<McpToolInfo, 'execution'>): string | undefined {
  return info.execution?.taskSupport === 'required' ? 'it runs only as a task (execution.taskSupport "required"); aish-tui does not run tasks yet' : undefined;
}
