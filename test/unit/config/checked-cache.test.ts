import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addedDefaults, isPlainJson, withDefaults } from '../../../src/services/config/checked-cache';
import { ConfigError } from '../../../src/services/config/errors';
import { loadConfig } from '../../../src/services/config/load';
import { parseConfig } from '../../../src/services/config/parse';

let dir: string;
let env: NodeJS.ProcessEnv;
let configFile: string;
let cacheFile: string;

const SCHEMA = 'test-schema-1';
const CONFIG = {
  models: { local: { baseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen', apiKey: 'sk-very-secret-key' } },
  mcp: {
    servers: { web: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer tok-secret-987' } } },
    argumentRules: [{ tool: 'web__*', args: { path: '/etc/*' } }],
  },
};

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'aish-checked-'));
  env = { HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'config'), XDG_STATE_HOME: path.join(dir, 'state') };
  configFile = path.join(dir, 'config', 'aish', 'config.json');
  cacheFile = path.join(dir, 'state', 'aish', 'config-checked.json');
  mkdirSync(path.dirname(configFile), { recursive: true });
  writeFileSync(configFile, JSON.stringify(CONFIG));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('a config checked before', () => {
  it('gives the same config the second time, and the file keeps no value of the user\'s', async () => {
    const first = await loadConfig({ env, cwd: dir, schemaId: SCHEMA });
    expect(existsSync(cacheFile)).toBe(true);
    const kept = readFileSync(cacheFile, 'utf8');
    for (const secret of ['sk-very-secret-key', 'tok-secret-987', 'qwen', '127.0.0.1', '/etc/*']) expect(kept).not.toContain(secret);
    const second = await loadConfig({ env, cwd: dir, schemaId: SCHEMA });
    expect(second).toEqual(first);
    // The defaults came from the file, into an array's item too.
    expect(second.mcp.argumentRules[0]!.allow).toBe(true);
    expect(second.mcp.toolTimeoutMs).toBe(first.mcp.toolTimeoutMs);
  });

  it('checks a changed config again, and its mistakes are reported', async () => {
    await loadConfig({ env, cwd: dir, schemaId: SCHEMA });
    writeFileSync(configFile, JSON.stringify({ ...CONFIG, mcp: { ...CONFIG.mcp, toolTimeoutMs: -5 } }));
    await expect(loadConfig({ env, cwd: dir, schemaId: SCHEMA })).rejects.toBeInstanceOf(ConfigError);
  });

  it('checks again under another schema', async () => {
    await loadConfig({ env, cwd: dir, schemaId: SCHEMA });
    const before = readFileSync(cacheFile, 'utf8');
    await loadConfig({ env, cwd: dir, schemaId: 'test-schema-2' });
    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).entries).toHaveLength(JSON.parse(before).entries.length + 1);
  });

  it('remembers nothing when run without a schema fingerprint', async () => {
    await loadConfig({ env, cwd: dir });
    expect(existsSync(cacheFile)).toBe(false);
  });

  it('never lets the file change a value of the config or reach a prototype', async () => {
    await loadConfig({ env, cwd: dir, schemaId: SCHEMA });
    const data = JSON.parse(readFileSync(cacheFile, 'utf8')) as { entries: Array<{ key: string; added: unknown[] }> };
    const entry = data.entries[0]!;
    // An edited entry: a default over the user's own model, and one into Object.prototype.
    entry.added = [[['models', 'local', 'baseUrl'], 'http://evil.example/v1'], ...entry.added];
    writeFileSync(cacheFile, JSON.stringify(data));
    expect((await loadConfig({ env, cwd: dir, schemaId: SCHEMA })).models.local!.baseUrl).toBe('http://127.0.0.1:8080/v1');
    entry.added = [[['__proto__', 'polluted'], true]];
    writeFileSync(cacheFile, JSON.stringify(data));
    await loadConfig({ env, cwd: dir, schemaId: SCHEMA });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a broken file only means checking again', async () => {
    mkdirSync(path.dirname(cacheFile), { recursive: true });
    writeFileSync(cacheFile, '{"entries": [ {"key": 1');
    const config = await loadConfig({ env, cwd: dir, schemaId: SCHEMA });
    expect(config.models.local!.model).toBe('qwen');
    expect(JSON.parse(readFileSync(cacheFile, 'utf8')).entries).toHaveLength(1);
  });
});

describe('what is remembered', () => {
  it('is only the defaults the check added', () => {
    const raw = structuredClone(CONFIG);
    const parsed = parseConfig(raw, 'config.json');
    const added = addedDefaults(raw, parsed)!;
    expect(added.length).toBeGreaterThan(5);
    expect(added.some(([at]) => at.join('.') === 'mcp.argumentRules.0.allow')).toBe(true);
    expect(withDefaults(raw, added)).toEqual(parsed);
    expect(raw).toEqual(CONFIG);
  });

  it('is nothing when the check changed more than defaults', () => {
    expect(addedDefaults({ a: 1 }, { a: 2 })).toBeUndefined();
    expect(addedDefaults({ a: 1, b: 2 }, { a: 1 })).toBeUndefined();
    expect(addedDefaults({ list: [1] }, { list: [1, 2] })).toBeUndefined();
  });

  it('is only taken for plain JSON data', () => {
    expect(isPlainJson({ a: [1, 'x', null, true, { b: 2 }] })).toBe(true);
    expect(isPlainJson({ a: () => 1 })).toBe(false);
    expect(isPlainJson({ a: undefined })).toBe(false);
    expect(isPlainJson({ a: new Date(0) })).toBe(false);
    expect(isPlainJson({ a: Number.NaN })).toBe(false);
  });
});
