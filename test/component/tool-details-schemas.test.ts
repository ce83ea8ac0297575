import { describe, expect, it } from 'vitest';
import { toolDetailLines } from '../../src/ui/panels/ToolDetails';
import type { Line } from '../../src/ui/panels/text';
import type { McpToolInfo } from '../../src/services/mcp/types';

// The sidebar's tool details show what the server says about a tool beyond its input schema, and
// why a tool that runs only as a task is not offered to the model.

const text = (lines: Line[]) => lines.map((line) => line.map((segment) => segment.text).join(''));

describe('tool details', () => {
  const icon = Buffer.alloc(2048, 9).toString('base64');
  const research: McpToolInfo = {
    name: 'research',
    description: 'Runs only as a task',
    inputSchema: { type: 'object', properties: { topic: { type: 'string' } } },
    outputSchema: { type: 'object', properties: { summary: { type: 'string' } } },
    execution: { taskSupport: 'required' },
    icons: [{ src: `data:image/png;base64,${icon}`, mimeType: 'image/png', sizes: ['48x48'] }],
  };

  it('shows execution, icons, the output schema and the reason the model does not get the tool', () => {
    const lines = text(toolDetailLines('results', research, 200));
    expect(lines).toContain('not offered to the model: it runs only as a task (execution.taskSupport "required") and the server does not declare task calls (capabilities.tasks.requests.tools.call)');
    expect(lines).toContain('execution');
    expect(lines).toContain('  "taskSupport": "required"');
    expect(lines).toContain(`image/png  48x48  data:image/png;base64,… (${icon.length} characters)`);
    expect(lines.slice(lines.indexOf('output schema'))).toContain('    "summary": {');
    expect(lines.join('\n')).not.toContain(icon.slice(0, 40));
  });

  it('an ordinary tool has none of those sections', () => {
    const lines = text(toolDetailLines('results', { name: 'plain', inputSchema: { type: 'object' } }, 80));
    expect(lines.filter((line) => ['execution', 'icons', 'output schema'].includes(line) || line.startsWith('not offered'))).toEqual([]);
  });
});
