import { describe, expect, it } from 'vitest';
import { approvalParts } from '../../../src/ui/panels/ApprovalFrame';
import type { ToolCallView } from '../../../src/services/conversation/types';

// A short frame shows only the compact header above the arguments field: a refused edit must
// still say why there, and an edited call must still say that it was edited.
const text = (lines: { text: string }[][] = []) => lines.map((line) => line.map((span) => span.text).join(''));
const base = { id: 'c1', wireName: 'builtin__calculator', alias: 'builtin', tool: 'calculator', arguments: '{"expression":"2+3"}' } as unknown as ToolCallView;

describe('the compact approval header', () => {
  it('keeps the refused edit\'s problem and the edited mark, sanitized and cut to the width', () => {
    const refused = approvalParts({ ...base, retry: { field: 'args', text: '{', problem: 'not parseable as JSON\u001b[31m at line 2' } }, 40);
    const lines = text(refused.compactHeader);
    expect(lines.some((line) => line.startsWith('✗ edit not used: not parseable'))).toBe(true);
    expect(lines.join('\n')).not.toContain('\u001b');
    expect(lines.every((line) => line.length <= 40)).toBe(true);
    const edited = text(approvalParts({ ...base, edited: 'expression: "2+3" → "2*3"' }, 40).compactHeader);
    expect(edited.some((line) => line.startsWith('✎ arguments edited by you'))).toBe(true);
  });
});

describe('the arguments field of a short frame', () => {
  it('says why the last edit was refused right above the field', async () => {
    const { layoutApproval } = await import('../../../src/ui/panels/ApprovalFrame');
    const { newFrameUi } = await import('../../../src/ui/keys/frameKeys');
    const { editorFromText } = await import('../../../src/ui/input/editor');
    const call = { ...base, retry: { field: 'args' as const, text: '{', problem: 'not parseable as JSON' } };
    const ui = { ...newFrameUi('c1', 10, 60), mode: 'args' as const, field: editorFromText('{') };
    const layout = layoutApproval({ parts: approvalParts(call, 56), width: 60, maxHeight: 8, ui, armed: true, editProblem: call.retry.problem });
    expect(JSON.stringify(layout)).toContain('✗ edit not used: not parseable as JSON');
  });
});

describe('a call to a sandboxed server', () => {
  it('says how the server is confined in the header that stays in view, sanitized; nothing for an unconfined one', () => {
    const header = text(approvalParts(base, 60, 'sandboxed: no network \u001b[31m· writes ~ only').header);
    const line = header.find((row) => row.startsWith('sandboxed:'));
    expect(line).toBeDefined();
    expect(line).toContain('no network');
    expect(header.join('\n')).not.toContain('\u001b');
    // Right under the call's server and tool, before the description and the arguments.
    expect(header.indexOf(line!)).toBe(header.findIndex((row) => row.startsWith('server builtin')) + 1);
    expect(text(approvalParts(base, 60).header).some((row) => row.includes('sandboxed'))).toBe(false);
  });
});
