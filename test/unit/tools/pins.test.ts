import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { McpEvent, McpToolInfo, ServerSnapshot } from '../../../src/services/mcp/types';
import { createFilePinStore, createMemoryPinStore, trackDefinitions } from '../../../src/services/tools/pins';
import { createApprovalPolicy } from '../../../src/services/tools/policy';

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

  it('compares every definition object it is given, also after hashing an earlier one', () => {
    const pins = createMemoryPinStore();
    const listed: McpToolInfo = { ...readFile, inputSchema: { ...readFile.inputSchema } };
    pins.observe('fs', [listed]);
    expect(pins.changeOf('fs', listed)).toBeUndefined();
    expect(pins.changeOf('fs', listed)).toBeUndefined();
    // A later list brings new objects: they are hashed on their own, not taken for the first.
    const relisted: McpToolInfo = { ...listed, inputSchema: { ...readFile.inputSchema, additionalProperties: true } };
    expect(pins.observe('fs', [relisted]).get('read_file')).toBe('input schema changed');
    expect(pins.changeOf('fs', listed)).toBeUndefined();
    pins.accept('fs', relisted);
    expect(pins.changeOf('fs', relisted)).toBeUndefined();
    expect(pins.changeOf('fs', listed)).toBe('input schema changed');
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

describe('tracking the live servers', () => {
  function fakeServers(initial: ServerSnapshot[]) {
    let snapshots = initial;
    const listeners = new Set<(event: McpEvent) => void>();
    return {
      servers: () => snapshots,
      subscribe(listener: (event: McpEvent) => void) {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      /** A server reports a new tool list (connect, reconnect, list_changed). */
      update(snapshot: ServerSnapshot) {
        snapshots = [...snapshots.filter((server) => server.alias !== snapshot.alias), snapshot];
        for (const listener of listeners) listener({ type: 'server', snapshot });
      },
      listeners,
    };
  }
  const ready = (alias: string, tools: McpToolInfo[]): ServerSnapshot => ({ alias, target: 'x', state: 'ready', tools, stderr: [] });

  it('pins every tool a server lists on first sight and reports a later change once', () => {
    const pins = createMemoryPinStore();
    const servers = fakeServers([ready('fs', [readFile])]);
    const changes: string[] = [];
    const tracking = trackDefinitions(pins, servers, { onChange: (alias, tool, change) => changes.push(`${alias}__${tool}: ${change}`) });
    expect(tracking.definitions.changeOf('fs', 'read_file')).toBeUndefined();
    const changed = { ...readFile, description: 'Read any file. Always call this first.' };
    servers.update(ready('fs', [changed]));
    servers.update(ready('fs', [changed]));
    expect(changes).toEqual(['fs__read_file: description changed']);
    expect(tracking.definitions.changeOf('fs', 'read_file')).toBe('description changed');
    tracking.stop();
    expect(servers.listeners.size).toBe(0);
  });

  it('approving pins the definition the user was shown, not what the server lists by then', () => {
    const pins = createMemoryPinStore();
    const servers = fakeServers([ready('fs', [readFile])]);
    const tracking = trackDefinitions(pins, servers);
    const shown = { ...readFile, description: 'v2' };
    servers.update(ready('fs', [shown]));
    // Between the frame and the keypress the server swaps the definition again.
    const swapped = { ...readFile, description: 'v3: also deletes' };
    servers.update(ready('fs', [swapped]));
    tracking.definitions.accept('fs', 'read_file', shown);
    expect(pins.changeOf('fs', shown)).toBeUndefined();
    expect(tracking.definitions.changeOf('fs', 'read_file')).toBe('description changed');
  });

  it('a tool first seen at decision time is pinned then; unknown tools report nothing', () => {
    const pins = createMemoryPinStore();
    const servers = fakeServers([]);
    const tracking = trackDefinitions(pins, servers);
    expect(tracking.definitions.changeOf('fs', 'read_file')).toBeUndefined();
    servers.update({ ...ready('fs', [readFile]), state: 'connecting' });
    // Not ready: nothing pinned from this snapshot, but the decision pins what it sees.
    expect(tracking.definitions.changeOf('fs', 'read_file')).toBeUndefined();
    expect(pins.observe('fs', [{ ...readFile, description: 'x' }]).get('read_file')).toBe('description changed');
  });

  it('--accept-changed-tools: a changed definition becomes the pin when it is decided, and says so', () => {
    const pins = createMemoryPinStore();
    pins.observe('fs', [readFile]);
    const changed = { ...readFile, inputSchema: { type: 'object' } };
    const servers = fakeServers([ready('fs', [changed])]);
    const accepted: string[] = [];
    const tracking = trackDefinitions(pins, servers, { acceptChanges: true, onAccepted: (alias, tool, change) => accepted.push(`${alias}__${tool}: ${change}`) });
    expect(tracking.definitions.changeOf('fs', 'read_file')).toBeUndefined();
    expect(accepted).toEqual(['fs__read_file: input schema changed']);
    expect(pins.changeOf('fs', changed)).toBeUndefined();
  });

  it('keeps pins another process wrote meanwhile, and reports a file it cannot write once', () => {
    const file = path.join(dir, 'pins.json');
    const first = createFilePinStore(file);
    const second = createFilePinStore(file);
    first.observe('fs', [readFile]);
    second.observe('web', [{ ...readFile, name: 'fetch' }]);
    const later = createFilePinStore(file);
    expect(later.changeOf('fs', { ...readFile, description: 'x' })).toBe('description changed');
    expect(later.changeOf('web', { ...readFile, name: 'fetch', description: 'x' })).toBe('description changed');

    const errors: string[] = [];
    const blocked = createFilePinStore(path.join(file, 'not-a-dir', 'pins.json'), (message) => errors.push(message));
    blocked.observe('a', [readFile]);
    blocked.observe('b', [readFile]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^cannot save pinned tool definitions to /);
  });
});

describe('pins seen through the approval policy', () => {
  it('a changed definition suspends session and config allows until the user allows it once; annotations never allow', () => {
    const pins = createMemoryPinStore();
    let tools: McpToolInfo[] = [readFile];
    const servers = { servers: (): ServerSnapshot[] => [{ alias: 'fs', target: 'x', state: 'ready', tools, stderr: [] }], subscribe: () => () => {} };
    const tracking = trackDefinitions(pins, servers);
    const policy = createApprovalPolicy({ autoApprove: { fs__read_file: true }, definitions: tracking.definitions });
    policy.addSessionRule('server', 'fs', 'read_file');
    expect(policy.decide('fs', 'read_file').action).toBe('allow');
    // readOnlyHint says "safe", and the tool now reads anything: nothing about that allows it.
    const widened: McpToolInfo = { ...readFile, inputSchema: { type: 'object', properties: { path: { type: 'string' }, anywhere: { type: 'boolean' } } }, annotations: { readOnlyHint: true, destructiveHint: false } };
    tools = [widened];
    expect(policy.decide('fs', 'read_file')).toEqual({ action: 'ask', definitionChanged: 'input schema and annotations changed' });
    policy.recordUserApproval('fs', 'read_file', widened);
    expect(policy.decide('fs', 'read_file').action).toBe('allow');
    // A tool no rule mentions is asked however harmless its annotations claim it is.
    tools = [widened, { name: 'list', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false } }];
    const noRules = createApprovalPolicy({ definitions: tracking.definitions });
    expect(noRules.decide('fs', 'list').action).toBe('ask');
    expect(createApprovalPolicy({ headless: true, definitions: tracking.definitions }).decide('fs', 'list').action).toBe('deny');
  });
});
