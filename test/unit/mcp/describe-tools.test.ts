import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { describeTool, describeTools, toolJson } from '../../../src/services/mcp/describe';
import type { McpToolInfo, ServerSnapshot } from '../../../src/services/mcp/types';

// `:mcp tools`: one row per tool, the descriptions in one column the transcript can wrap under.

const tool = (name: string, description?: string, inputSchema: Record<string, unknown> = { type: 'object' }): McpToolInfo => ({ name, description, inputSchema });

const server = (alias: string, tools: McpToolInfo[], state: ServerSnapshot['state'] = 'ready'): ServerSnapshot => ({ alias, target: 'test', state, tools, stderr: [] });

/** The column (display width) where the description starts on a `name  description` row. */
function descriptionColumn(line: string, description: string): number {
  const index = line.indexOf(description);
  return stringWidth(line.slice(0, index));
}

describe('describeTools', () => {
  it('puts every description in one column two spaces after the widest name', () => {
    const lines = describeTools([server('files', [tool('read', 'Reads a file'), tool('write_file', 'Writes a file')]), server('web', [tool('fetch', 'Fetches a URL')])]);
    expect(lines).toEqual(['files__read        Reads a file', 'files__write_file  Writes a file', 'web__fetch         Fetches a URL']);
  });

  it('measures the column in display cells, so wide names line up too', () => {
    const lines = describeTools([server('docs', [tool('検索', 'Searches'), tool('list', 'Lists')])]).slice(0, 2);
    expect(lines.map((line, index) => descriptionColumn(line, ['Searches', 'Lists'][index]!))).toEqual([12, 12]);
  });

  it('a name too long for the column keeps the column for the others and has its description on the next line, at the column', () => {
    const long = `x${'y'.repeat(60)}`;
    const lines = describeTools([server('srv', [tool('echo', 'Echoes'), tool(long, 'A very long one'), tool('add', 'Adds')])]);
    expect(lines.slice(0, 4)).toEqual(['srv__echo  Echoes', `srv__${long}`, '           A very long one', 'srv__add   Adds']);
    // Its wire name had to be shortened, which the list says after the tools.
    expect(lines[4]).toMatch(new RegExp(`^srv__${long} is sent to the model as srv__x`));
  });

  it('with only long names the descriptions go under them, indented', () => {
    const long = 'n'.repeat(50);
    expect(describeTools([server('s', [tool(long, 'Does it')])])).toEqual([`s__${long}`, '  Does it']);
  });

  it('names and descriptions are one-line labels: a newline or escape in them cannot make a row of its own or reach the terminal', () => {
    const lines = describeTools([server('evil', [tool('x\nfiles__delete  Deletes everything', 'ok\x1b[2J\u202e'), tool('y', 'first line\nsecond line')])]);
    const shown = 'evil__x\\nfiles__delete  Deletes everything';
    expect(lines.slice(0, 2)).toEqual([`${shown}  ok\\x1b[2J<U+202E>`, `${'evil__y'.padEnd(shown.length)}  first line`]);
    expect(lines.join('\n')).not.toMatch(/[\x1b\u202e]/);
    // The line saying the tool was renamed for the model names it escaped as well.
    expect(lines[2]).toMatch(/^evil__x\\nfiles__delete {2}Deletes everything is sent to the model as /);
    expect(lines).toHaveLength(3);
  });

  it('cuts a long first line with …, and takes the title when there is no description', () => {
    const description = 'word '.repeat(60).trim();
    const [line] = describeTools([server('a', [tool('t', description)])]);
    expect(line!.endsWith('word…')).toBe(true);
    expect(line!.length).toBeLessThanOrEqual('a__t  '.length + 160);
    expect(describeTools([server('a', [{ name: 't', title: 'The title', inputSchema: { type: 'object' } }])])).toEqual(['a__t  The title']);
  });

  it('says which tools are withheld and which servers are not ready', () => {
    const deep = { type: 'object', properties: { a: { type: 'object', properties: { b: { type: 'object' } } } } };
    const lines = describeTools([server('a', [tool('deep', 'Too deep', deep), tool('ok', 'Fine')]), server('b', [], 'connecting')], { inputSchemaBytes: 65536, inputSchemaDepth: 2 });
    expect(lines[0]).toMatch(/^a__deep {2}\(withheld: its input schema is nested deeper than 2 levels\)$/);
    expect(lines[1]).toBe('a__ok    Fine');
    expect(lines).toContain('not ready: b (connecting)');
  });

  it('lists a tool that runs only as a task, saying why it is not offered to the model', () => {
    const task: McpToolInfo = { ...tool('research', 'Researches'), execution: { taskSupport: 'required' } };
    const lines = describeTools([server('a', [task, { ...tool('maybe', 'Optional task'), execution: { taskSupport: 'optional' } }])]);
    expect(lines[0]).toBe('a__research  (withheld: it runs only as a task (execution.taskSupport "required") and the server does not declare task calls (capabilities.tasks.requests.tools.call))');
    expect(lines[1]).toBe('a__maybe     Optional task');
  });

  it('no ready server: says so', () => {
    expect(describeTools([])).toEqual(['no tools']);
  });
});

describe('describeTool and toolJson (:mcp tool, mcp tools --json)', () => {
  const icon = Buffer.alloc(2048, 9).toString('base64');
  const research: McpToolInfo = {
    name: 'research',
    title: 'Research',
    description: 'Runs only as a task',
    inputSchema: { type: 'object', properties: { topic: { type: 'string' } } },
    outputSchema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] },
    execution: { taskSupport: 'required' },
    icons: [
      { src: 'https://example.com/r.svg', mimeType: 'image/svg+xml', sizes: ['any'] },
      { src: `data:image/png;base64,${icon}`, mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' },
    ],
  };

  it('shows the output schema, execution, icons and why the tool is withheld, never an icon\'s base64', () => {
    const lines = describeTool([server('a', [research])], 'a__research');
    const text = lines.join('\n');
    expect(lines).toContain('execution: {"taskSupport":"required"}');
    expect(lines).toContain('not offered to the model: it runs only as a task (execution.taskSupport "required") and the server does not declare task calls (capabilities.tasks.requests.tools.call)');
    expect(lines).toContain('icon: image/svg+xml  any  https://example.com/r.svg');
    expect(lines).toContain('icon: image/png  48x48  dark theme  data:image/png;base64,… (2 KB)');
    expect(text).toContain('output schema:\n{\n  "type": "object",\n  "properties": {\n    "summary"');
    expect(text).not.toContain(icon.slice(0, 40));
  });

  it('has outputSchema, execution and icons in the JSON entry', () => {
    expect(toolJson('a', research)).toMatchObject({ outputSchema: research.outputSchema, execution: { taskSupport: 'required' }, icons: research.icons });
    expect(toolJson('a', tool('plain'))).toMatchObject({ outputSchema: null, execution: null, icons: null });
  });
});
