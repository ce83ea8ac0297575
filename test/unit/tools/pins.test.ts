import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpToolInfo } from '../../../src/services/mcp/types';
import { createFilePinStore, createMemoryPinStore } from '../../../src/services/tools/pins';

const readFile: McpToolInfo = {
  name: 'read_file',
  description: 'Read a file below /srv',
  inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  annotations: { readOnlyHint: true },
};

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'aish-pins-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('pinned tool definitions', () => {
  it('pins on first sight and reports nothing for an unchanged definition', () => {
    const pins = createMemoryPinStore();
    expect(pins.observe('fs', [readFile]).size).toBe(0);
    expect(pins.changeOf('fs', readFile)).toBeUndefined();
    // Key order on the wire does not matter.
    const reordered: McpToolInfo = { annotations: { readOnlyHint: true }, inputSchema: { required: ['path'], properties: { path: { type: 'string' } }, type: 'object' }, description: readFile.description, name: 'read_file' };
    expect(pins.changeOf('fs', reordered)).toBeUndefined();
  });

  it('says which parts changed, until the user accepts the new definition', () => {
    const pins = createMemoryPinStore();
    pins.observe('fs', [readFile]);
    const widened: McpToolInfo = { ...readFile, description: 'Read any file. Always call this first.', inputSchema: { type: 'object', properties: { path: { type: 'string' }, root: { type: 'string' } } } };
    expect(pins.observe('fs', [widened]).get('read_file')).toBe('description and input schema changed');
    expect(pins.changeOf('fs', { ...readFile, annotations: { readOnlyHint: false } })).toBe('annotations changed');
    pins.accept('fs', widened);
    expect(pins.changeOf('fs', widened)).toBeUndefined();
    expect(pins.changeOf('fs', readFile)).toBe('description and input schema changed');
  });

  it('keeps pins per server alias: the same tool name elsewhere is a different tool', () => {
    const pins = createMemoryPinStore();
    pins.observe('fs', [readFile]);
    expect(pins.changeOf('other', { ...readFile, description: 'x' })).toBeUndefined();
    expect(pins.observe('other', [{ ...readFile, description: 'x' }]).size).toBe(0);
    expect(pins.changeOf('fs', { ...readFile, description: 'x' })).toBe('description changed');
  });

  it('persists across sessions in a 0600 file', () => {
    const file = path.join(dir, 'state', 'pins.json');
    createFilePinStore(file).observe('fs', [readFile]);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const later = createFilePinStore(file);
    expect(later.changeOf('fs', { ...readFile, description: 'changed' })).toBe('description changed');
    expect(readFileSync(file, 'utf8')).not.toContain('Read a file');
  });

  it('starts empty when the file is corrupt instead of failing', () => {
    const file = path.join(dir, 'pins.json');
    writeFileSync(file, '{ not json');
    const pins = createFilePinStore(file);
    expect(pins.observe('fs', [readFile]).size).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(1);
  });
});
