import { afterEach, describe, expect, it } from 'vitest';
import type { ToolCallView } from '../../src/services/conversation/types';
import type { ServerSnapshot } from '../../src/services/mcp/types';
import { approvalParts } from '../../src/ui/panels/ApprovalFrame';
import { serverDetailLines, toolDetailLines } from '../../src/ui/panels/ToolDetails';
import type { Line } from '../../src/ui/panels/text';
import { renderApp, type Harness } from './render';

// What the views say about who is asking (docs/ARCHITECTURE.md, Security invariants 3 and 9): a
// new tool in the frame, look-alike names as code points with a badge (frame, sidebar, details),
// hidden text flagged, stray stdout of a stdio server in its details, escaped.

const text = (lines: Line[]) => lines.map((line) => line.map((segment) => segment.text).join('')).join('\n');
const call = (fields: Partial<ToolCallView> = {}): ToolCallView => ({ id: 'c1', wireName: 'fs__read_f_le', alias: 'fs', tool: 'read_file', rawArguments: '{}', arguments: {}, ...fields });

describe('approval frame', () => {
  it('says a tool is new and which server-wide rule waits for the first approval, in every header size', () => {
    const parts = approvalParts(call({ newTool: 'config mcp.autoApprove fs__*' }), 80);
    expect(text(parts.header)).toMatch(/▲ New tool: never approved on this server before\. The server-wide rule \(config\s+mcp\.autoApprove fs__\*\) covers it only after you allow it once\./);
    expect(text(parts.compactHeader ?? [])).toContain('▲ new tool: never approved before');
    expect(text([parts.oneRowHeader ?? []])).toContain('▲ new');
    expect(text(approvalParts(call(), 80).header)).not.toContain('New tool');
  });

  it('shows a look-alike tool name with its code points and a badge, never as plain letters', () => {
    const parts = approvalParts(call({ tool: 'read_f\u0456le' }), 100);
    const header = text(parts.header);
    expect(header).toContain('server fs · tool read_f<U+0456>le');
    expect(header).not.toContain('read_f\u0456le ');
    expect(header).toContain('▲ non-ASCII: the tool name holds і U+0456 Cyrillic; it may imitate another name.');
    expect(text(parts.compactHeader ?? [])).toContain('read_f<U+0456>le');
    expect(text([parts.oneRowHeader ?? []])).toContain('read_f<U+0456>le ▲ non-ASCII');
  });
});

describe('tool and server details', () => {
  it('mark a look-alike name and list hidden text, and the text itself shows the markers', () => {
    const lines = text(toolDetailLines('fs', { name: '\uFF52ead', description: `Reads.${String.fromCodePoint(0xe0061)}`, inputSchema: { type: 'object' } }, 100));
    expect(lines).toContain('fs__<U+FF52>ead');
    expect(lines).toContain('▲ non-ASCII: the name holds ｒ U+FF52 fullwidth');
    expect(lines).toContain('▲ hidden text: invisible or control characters');
    expect(lines).toContain('description: U+E0061');
    expect(lines).toContain('Reads.<U+E0061>');
  });

  it('show the stdout lines a stdio server printed that are not MCP, escaped', () => {
    const server: ServerSnapshot = { alias: 'noisy', target: 'node noisy.js', state: 'ready', transport: 'stdio', tools: [], stderr: [], strayStdout: ['hello \u001b[2J\u202Eevil', 'second'] };
    const lines = text(serverDetailLines('noisy', server, 100));
    expect(lines).toContain('stdout lines that are not MCP messages, last 2');
    expect(lines).toContain('hello \\x1b[2J<U+202E>evil');
    expect(lines).not.toContain('\u001b');
  });
});

let h: Harness | undefined;
afterEach(() => h?.unmount());

describe('sidebar', () => {
  it('badges a look-alike tool and one with hidden text; the name shows its code points', async () => {
    h = renderApp({ columns: 160, rows: 30 });
    const snapshot: ServerSnapshot = {
      alias: 'fs',
      target: 'node fs.js',
      state: 'ready',
      transport: 'stdio',
      stderr: [],
      tools: [
        { name: 'read_file', inputSchema: { type: 'object' } },
        { name: 'read_f\u0456le', inputSchema: { type: 'object' } },
        { name: 'notes', description: 'plain\u200Btext', inputSchema: { type: 'object' } },
      ],
    };
    h.store.getState().applyMcpEvent({ type: 'server', snapshot });
    await h.settle();
    await h.type('\t');
    await h.type('\r');
    const screen = h.screen();
    expect(screen).toContain('├ read_file');
    expect(screen).toContain('├ read_file  ');
    expect(screen).toContain('├ read_f<U+0456>le ▲');
    expect(screen).toContain('└ notes ▲');
  });
});
