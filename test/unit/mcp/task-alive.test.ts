import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { ToolTask } from '../../../src/services/mcp/tasks';

// A task whose status stays the same for a long time is still alive: every answered poll says so,
// so the call's silence limit (services/mcp/call-timeout.ts) does not cut a long quiet task.
function quietServer(polls: number) {
  const seen: string[] = [];
  let left = polls;
  const client = {
    request: async (request: { method: string }) => {
      seen.push(request.method);
      if (request.method === 'tools/call') return { task: { taskId: 't1', status: 'working', statusMessage: 'busy', pollInterval: 200 } };
      if (request.method === 'tasks/get') {
        left -= 1;
        return left > 0 ? { taskId: 't1', status: 'working', statusMessage: 'busy', pollInterval: 200 } : { taskId: 't1', status: 'completed', pollInterval: 200 };
      }
      return { content: [{ type: 'text', text: 'done' }] };
    },
  } as unknown as Client;
  return { client, seen };
}

describe('a quiet task', () => {
  it('reports every answered poll as alive, though its status changed only at the end', async () => {
    const { client, seen } = quietServer(4);
    const statuses: string[] = [];
    let alive = 0;
    const task = await ToolTask.start(client, { name: 'slow', arguments: {} }, { timeoutMs: 1000, onStatus: (status) => statuses.push(status), onAlive: () => (alive += 1) });
    const end = await task.finished;
    expect(end.status).toBe('completed');
    expect(seen.filter((method) => method === 'tasks/get')).toHaveLength(4);
    expect(alive).toBe(4);
    // The status itself is reported only when it changes: 'working' once, for four polls.
    expect(statuses.filter((status) => status === 'working')).toHaveLength(1);
  });
});
