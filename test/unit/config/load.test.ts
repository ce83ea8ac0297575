import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/services/config/errors';
import { loadConfig, MODEL_ID_FROM_SERVER } from '../../../src/services/config/load';

let dir: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'aish-config-'));
  env = { HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'xdg-config'), XDG_STATE_HOME: path.join(dir, 'xdg-state') };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: string): string {
  const file = path.join(dir, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

/** Files under HOME are shown as ~/... in messages. */
const shown = (file: string) => `~${file.slice(dir.length)}`;

async function configError(promise: Promise<unknown>): Promise<string[]> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).exitCode).toBe(2);
    return (error as ConfigError).lines;
  }
  throw new Error('expected a ConfigError');
}

describe('built-in defaults', () => {
  it('offers local and ollama, and cloud/openai only when their keys are set', async () => {
    const plain = await loadConfig({ env, cwd: dir });
    expect(Object.keys(plain.models)).toEqual(['local', 'ollama']);
    expect(plain.models.local?.baseUrl).toBe('http://127.0.0.1:8080/v1');
    expect(plain.models.ollama?.baseUrl).toBe('http://127.0.0.1:11434/v1');
    expect(plain.defaultModel).toBe('local');
    expect(plain.sourcePath).toBeUndefined();
    expect(plain.mcp.maxToolDepth).toBe(8);
    expect(plain.builtin).toBe(true);
    expect(plain.paths.stateDir).toBe(path.join(dir, 'xdg-state', 'aish'));

    const keyed = await loadConfig({ env: { ...env, OPENROUTER_API_KEY: 'sk-or', OPENAI_API_KEY: 'sk-oa' }, cwd: dir });
    expect(keyed.models.cloud).toMatchObject({ baseUrl: 'https://openrouter.ai/api/v1', keyEnv: 'OPENROUTER_API_KEY' });
    expect(keyed.models.openai).toMatchObject({ baseUrl: 'https://api.openai.com/v1', keyEnv: 'OPENAI_API_KEY' });
    // The key itself is never copied into the config.
    expect(JSON.stringify(keyed)).not.toContain('sk-or');
  });
});

describe('finding the file', () => {
  it('loads .json, .js and .ts from the XDG directory in that order of preference', async () => {
    const xdg = path.join('xdg-config', 'aish');
    write(path.join(xdg, 'config.json'), JSON.stringify({ defaultModel: 'ollama' }));
    expect((await loadConfig({ env, cwd: dir })).defaultModel).toBe('ollama');
    write(path.join(xdg, 'config.js'), "export default { models: { js: { baseUrl: 'http://127.0.0.1:1/v1', model: 'm' } } };");
    expect((await loadConfig({ env, cwd: dir })).defaultModel).toBe('js');
    write(path.join(xdg, 'config.ts'), "const port: number = 2;\nexport default { models: { ts: { baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' } } };");
    const fromTs = await loadConfig({ env, cwd: dir });
    expect(fromTs.defaultModel).toBe('ts');
    expect(fromTs.models.ts?.baseUrl).toBe('http://127.0.0.1:2/v1');
  });

  it('prefers --config over $AISH_CONFIG over the XDG file', async () => {
    write(path.join('xdg-config', 'aish', 'config.json'), JSON.stringify({ defaultModel: 'ollama' }));
    const fromEnv = write('env.json', JSON.stringify({ models: { envmodel: { baseUrl: 'http://h:1/v1', model: 'x' } } }));
    const fromFlag = write('flag.json', JSON.stringify({ models: { flagmodel: { baseUrl: 'http://h:1/v1', model: 'x' } } }));
    expect((await loadConfig({ env: { ...env, AISH_CONFIG: fromEnv }, cwd: dir })).defaultModel).toBe('envmodel');
    expect((await loadConfig({ env: { ...env, AISH_CONFIG: fromEnv }, cli: { configPath: fromFlag }, cwd: dir })).defaultModel).toBe('flagmodel');
  });

  it('reports a missing explicit file', async () => {
    expect(await configError(loadConfig({ env, cli: { configPath: 'nope.json' }, cwd: dir }))).toEqual([
      'nope.json: config file not found (from --config)',
    ]);
    expect(await configError(loadConfig({ env: { ...env, AISH_CONFIG: 'gone.ts' }, cwd: dir }))).toEqual([
      'gone.ts: config file not found (from $AISH_CONFIG)',
    ]);
  });

  it('loads config.example.ts as shipped', async () => {
    const example = path.resolve(import.meta.dirname, '..', '..', '..', 'config.example.ts');
    const config = await loadConfig({ env, cli: { configPath: example }, cwd: dir });
    expect(config.defaultModel).toBe('local');
    expect(Object.keys(config.mcp.servers)).toEqual(['boltzmann', 'notes', 'everything']);
    expect(config.mcp.autoApprove['builtin__*']).toBe(true);
  });
});

describe('error messages name the file, the key path and the problem', () => {
  const cases: Array<[string, string, string]> = [
    ['bad url', JSON.stringify({ mcp: { servers: { boltzmann: { url: 'boltzmann:8080' } } } }), 'mcp.servers.boltzmann.url: expected a URL, got "boltzmann:8080"'],
    ['unknown key', JSON.stringify({ mcp: { autoAprove: {} } }), 'mcp: unknown key "autoAprove"'],
    ['wrong type', JSON.stringify({ mcp: { maxToolDepth: 'eight' } }), 'mcp.maxToolDepth: expected number, got "eight"'],
    ['negative', JSON.stringify({ mcp: { maxToolDepth: -1 } }), 'mcp.maxToolDepth: must be at least 0, got number -1'],
    ['model without baseUrl', JSON.stringify({ models: { m: { model: 'x' } } }), 'models.m.baseUrl: missing, expected string'],
    ['server shape', JSON.stringify({ mcp: { servers: { a: 'http://x' } } }), 'mcp.servers.a: expected an object with "url" or "command", got "http://x"'],
    ['server with both', JSON.stringify({ mcp: { servers: { both: { url: 'http://x', command: 'y' } } } }), 'mcp.servers.both: has both "url" (an HTTP server) and "command" (a stdio server); keep one'],
    ['server with neither', JSON.stringify({ mcp: { servers: { ok: {} } } }), 'mcp.servers.ok: needs "url" (an HTTP server) or "command" (a stdio server)'],
    ['stdio server', JSON.stringify({ mcp: { servers: { a: { command: 'x', args: 'y' } } } }), 'mcp.servers.a.args: expected array, got "y"'],
    ['alias with __', JSON.stringify({ mcp: { servers: { a__b: { url: 'http://x' } } } }), 'mcp.servers.a__b: alias "a__b" must not contain "__" (it separates alias and tool)'],
    ['alias with dot', JSON.stringify({ mcp: { servers: { 'a.b': { url: 'http://x' } } } }), 'alias "a.b" may only use letters, digits, "_" and "-"'],
    ['alias edge underscore', JSON.stringify({ mcp: { servers: { _a: { url: 'http://x' } } } }), 'alias "_a" must not start or end with "_"'],
    ['approve glob', JSON.stringify({ mcp: { autoApprove: { 'fs__read*': true } } }), 'only "alias__*" globs are allowed, got "fs__read*"'],
    ['approve key', JSON.stringify({ mcp: { autoApprove: { calculator: true } } }), 'expected "alias__tool" or "alias__*", got "calculator"'],
    ['default model', JSON.stringify({ defaultModel: 'gpt' }), 'defaultModel: no model named "gpt" (configured: local, ollama)'],
  ];
  for (const [name, content, expected] of cases) {
    it(name, async () => {
      const file = write('config.json', content);
      const lines = await configError(loadConfig({ env, cli: { configPath: file }, cwd: dir }));
      expect(lines.some((line) => line.startsWith(`${shown(file)}: `) && line.includes(expected)), lines.join('\n')).toBe(true);
    });
  }

  it('reports invalid JSON with the parser message', async () => {
    const file = write('broken.json', '{ "models": ');
    const [line] = await configError(loadConfig({ env, cli: { configPath: file }, cwd: dir }));
    expect(line).toMatch(/broken\.json: not valid JSON: /);
  });

  it('reports a .ts file that does not compile or throws, without a stack trace', async () => {
    const syntax = write('syntax.ts', 'export default { models: { ');
    const [syntaxLine] = await configError(loadConfig({ env, cli: { configPath: syntax }, cwd: dir }));
    expect(syntaxLine).toMatch(/syntax\.ts: cannot load: /);
    const throwing = write('throws.ts', "throw new Error('boom from config');\nexport default {};");
    const [throwLine] = await configError(loadConfig({ env, cli: { configPath: throwing }, cwd: dir }));
    expect(throwLine).toBe(`${shown(throwing)}: cannot load: boom from config`);
  });

  it('reports a file without a default export', async () => {
    const file = write('empty.js', 'export const x = 1;');
    expect(await configError(loadConfig({ env, cli: { configPath: file }, cwd: dir }))).toEqual([
      `${shown(file)}: the file must export a config object (export default { ... })`,
    ]);
  });

  it('reports every problem, one line each', async () => {
    const file = write('many.json', JSON.stringify({ ui: { sidebar: 'yes', maxFps: 0 } }));
    const lines = await configError(loadConfig({ env, cli: { configPath: file }, cwd: dir }));
    expect(lines).toHaveLength(2);
  });

  it('rejects an unsupported extension', async () => {
    const file = write('config.yaml', 'a: 1');
    expect((await configError(loadConfig({ env, cli: { configPath: file }, cwd: dir })))[0]).toContain('unsupported config file type ".yaml"');
  });
});

describe('command-line overrides', () => {
  it('--model picks a registry entry and rejects unknown names', async () => {
    expect((await loadConfig({ env, cli: { model: 'ollama' }, cwd: dir })).defaultModel).toBe('ollama');
    expect(await configError(loadConfig({ env, cli: { model: 'gpt-9' }, cwd: dir }))).toEqual([
      '--model: no model named "gpt-9" (configured: local, ollama)',
    ]);
  });

  it('--base-url makes an ad-hoc model named after --model, its id, with --api-key-env as its key', async () => {
    const config = await loadConfig({ env, cli: { baseUrl: 'http://127.0.0.1:9/v1', model: 'qwen', apiKeyEnv: 'MY_KEY' }, cwd: dir });
    expect(config.defaultModel).toBe('qwen');
    expect(config.models.qwen).toEqual({ name: 'qwen', baseUrl: 'http://127.0.0.1:9/v1', model: 'qwen', keyEnv: 'MY_KEY', apiKey: undefined });
    // Without --model the id is left for the server to say (never "default"); a taken name stays "cli".
    const unnamed = await loadConfig({ env, cli: { baseUrl: 'http://127.0.0.1:9/v1' }, cwd: dir });
    expect(unnamed.models[unnamed.defaultModel]).toEqual({ name: 'cli', baseUrl: 'http://127.0.0.1:9/v1', model: MODEL_ID_FROM_SERVER });
    const taken = await loadConfig({ env, cli: { baseUrl: 'http://127.0.0.1:9/v1', model: 'local' }, cwd: dir });
    expect(taken.defaultModel).toBe('cli');
    expect(taken.models.local?.baseUrl).not.toBe('http://127.0.0.1:9/v1');
    expect(await configError(loadConfig({ env, cli: { baseUrl: 'localhost:8080' }, cwd: dir }))).toEqual([
      '--base-url: expected a URL, got "localhost:8080"',
    ]);
  });

  it('--api-key-env overrides the key of the selected model only', async () => {
    const config = await loadConfig({ env, cli: { model: 'ollama', apiKeyEnv: 'OLLAMA_KEY' }, cwd: dir });
    expect(config.models.ollama?.keyEnv).toBe('OLLAMA_KEY');
    expect(config.models.local?.keyEnv).toBeUndefined();
  });
});
