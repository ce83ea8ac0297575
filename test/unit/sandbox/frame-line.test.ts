import { describe, expect, it } from 'vitest';
import { approvalParts } from '../../../src/ui/panels/ApprovalFrame';
import { commandParts } from '../../../src/ui/panels/CommandFrame';

const text = (lines: Array<Array<{ text: string }>>) => lines.map((line) => line.map((seg) => seg.text).join('')).join('\n');

describe('the command frame under shell.sandbox', () => {
  it('says how the command is confined, also in its compact header, and stops calling it "your shell"', () => {
    const parts = commandParts('touch x', 80, { sandbox: 'sandboxed: writes ~/app and a private /tmp only · no network' });
    expect(text(parts.header)).toContain('sandboxed: writes ~/app and a private /tmp only · no network');
    expect(text(parts.header)).not.toContain('runs in your shell here');
    expect(text(parts.compactHeader ?? [])).toContain('sandboxed: writes ~/app');
  });

  it('warns when it will be refused, and without a sandbox it is unchanged', () => {
    const refused = commandParts('touch x', 80, { sandbox: 'not sandboxed, so it will not run: bwrap was not found on PATH' });
    expect(refused.header.flat().find((seg) => seg.text.startsWith('not sandboxed'))).toMatchObject({ tone: 'warn' });
    expect(text(commandParts('touch x', 80).header)).toBe('proposed by the model, runs in your shell here');
  });

  it('a tool call of a sandboxed server says how it is confined in the full and the compact header', () => {
    const call = { id: 'c1', wireName: 'fs__write', alias: 'fs', tool: 'write', rawArguments: '{}', arguments: {} };
    const confinement = 'sandboxed: writes ~/app and a private /tmp only · no network';
    const parts = approvalParts(call, 40, confinement);
    expect(text(parts.header)).toContain('sandboxed: writes ~/app and a private');
    const compactLine = text(parts.compactHeader ?? []).split('\n').find((line) => line.startsWith('sandboxed: writes ~/app'));
    expect(compactLine).toBeDefined();
    expect(compactLine!.length).toBeLessThanOrEqual(40);
    expect(text(approvalParts(call, 40).compactHeader ?? [])).not.toContain('sandboxed');
  });
});
