import { describe, expect, it } from 'vitest';
import { describeTools } from '../../src/services/mcp/describe';
import type { McpToolInfo, ServerSnapshot } from '../../src/services/mcp/types';
import { useRenderedApp } from './render';

// `:mcp tools` in the transcript: a long description wraps under its own column at the width the
// transcript has, instead of running back to the margin under the names.

const tool = (name: string, description: string): McpToolInfo & { description: string } => ({ name, description, inputSchema: { type: 'object' } });

const TOOLS = [
  tool('echo', 'Echoes back the input'),
  tool('longRunningOperation', 'Demonstrates a long running operation with progress updates, sending a progress notification every step until the whole duration has passed'),
  tool('printEnv', 'Prints all environment variables, helpful for debugging MCP server configuration'),
  tool('sampleLLM', 'Samples from an LLM using the sampling feature of the protocol and returns what the model said'),
];
const SERVER: ServerSnapshot = { alias: 'everything', target: 'npx server-everything', state: 'ready', tools: TOOLS, stderr: [] };

const app = useRenderedApp();

/** The transcript rows of the listing: from the first tool's row down to the input box. */
function listingRows(screen: string, width: number): string[] {
  const rows = screen.split('\n').map((row) => row.slice(0, width).trimEnd());
  const first = rows.findIndex((row) => row.includes('everything__echo'));
  const last = rows.findIndex((row, index) => index > first && row.startsWith('╭'));
  return rows.slice(first, last).filter((row) => row.trim() !== '');
}

/** Each tool's rows: its name row and the rows that continue its description. */
function entries(rows: string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  let current: string[] | undefined;
  for (const row of rows) {
    const name = /^. (everything__\w+)/.exec(row)?.[1];
    if (name) out.set(name, (current = [row]));
    else current?.push(row);
  }
  return out;
}

describe('`:mcp tools` in the transcript', () => {
  for (const [columns, chatWidth] of [
    [80, 80],
    [160, 127],
  ] as const) {
    it(`${columns} columns: every description continues under the description column, with nothing lost`, async () => {
      const h = app.render({ columns, rows: 40 });
      h.store.getState().addStatus('info', describeTools([SERVER]).join('\n'));
      await h.settle();
      const byTool = entries(listingRows(h.screen(), chatWidth));
      expect([...byTool.keys()]).toEqual(TOOLS.map((entry) => `everything__${entry.name}`));
      // Two columns of glyph or indent, the widest name (everything__longRunningOperation), two spaces.
      const column = 2 + 'everything__longRunningOperation'.length + 2;
      let wrapped = 0;
      for (const info of TOOLS) {
        const rows = byTool.get(`everything__${info.name}`)!;
        expect(rows[0]!.slice(column).startsWith(info.description.split(' ')[0]!), rows[0]).toBe(true);
        for (const row of rows.slice(1)) {
          expect(row.slice(0, column).trim(), `continuation row at ${columns}: ${JSON.stringify(row)}`).toBe('');
          expect(row[column], `continuation row at ${columns}: ${JSON.stringify(row)}`).not.toBe(' ');
        }
        wrapped += rows.length - 1;
        const text = rows.map((row) => row.slice(column).trim()).join(' ');
        expect(text).toBe(info.description);
      }
      // At 80 columns most descriptions wrap; at 160 the longest still does.
      expect(wrapped).toBeGreaterThanOrEqual(columns === 80 ? 4 : 1);
    });
  }

  it('too narrow for the column: wrapped rows hang a few columns in, still set off from the names', async () => {
    const h = app.render({ columns: 50, rows: 40 });
    h.store.getState().addStatus('info', describeTools([SERVER]).join('\n'));
    await h.settle();
    const byTool = entries(listingRows(h.screen(), 50));
    const rows = byTool.get('everything__printEnv')!;
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows.slice(1)) expect(row).toMatch(/^ {6}\S/);
    expect(rows.map((row) => row.slice(2).trim()).join(' ').replace(/ {2,}/g, ' ')).toBe(`everything__printEnv ${TOOLS[2]!.description}`);
  });
});
