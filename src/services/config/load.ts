import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtInModels, DEFAULT_SYSTEM_PROMPT } from './defaults';
import { ConfigError } from './errors';
import { aishPaths, displayPath, type AishPaths } from './paths';
import type { ProjectDoc } from './project-docs';
import { mergeConfigs } from './project-trust';
import { CheckedConfigs } from './checked-cache';
import type { ModelEntry, ParsedConfig } from './schema';

declare const __AISH_CONFIG_SCHEMA_ID__: string | undefined;
/** The build's fingerprint of the config schema; run from source there is none, and every config is checked. */
const BUILD_SCHEMA_ID = typeof __AISH_CONFIG_SCHEMA_ID__ === 'string' ? __AISH_CONFIG_SCHEMA_ID__ : undefined;

export interface CliOverrides {
  configPath?: string;
  baseUrl?: string;
  model?: string;
  apiKeyEnv?: string;
}

export interface ResolvedModel extends ModelEntry {
  name: string;
}

export interface AppConfig extends Omit<ParsedConfig, 'models' | 'defaultModel' | 'systemPrompt'> {
  models: Record<string, ResolvedModel>;
  /** The model used for the first request (after `--model` / `--base-url`). */
  defaultModel: string;
  systemPrompt: string;
  /** Where the config came from, for `--help`-style diagnostics; undefined = built-in defaults. */
  sourcePath: string | undefined;
  /** The trusted project config merged over the user's (`.aish/config.*`), if any. */
  projectConfigPath?: string;
  /** The AGENTS.md files in the system prompt (`:context` lists them). */
  projectDocs?: ProjectDoc[];
  paths: AishPaths;
}

export interface LoadOptions {
  cli?: CliOverrides;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** A project config the user trusts: merged over the user's config. */
  projectFile?: string;
  /** Remember configs that passed the check under this schema fingerprint (the build gives one). */
  schemaId?: string;
}

const CONFIG_NAMES = ['config.ts', 'config.js', 'config.json'];

/**
 * The model id of a `--base-url` model given no `--model`: not known yet. Before the first request
 * it is asked from the server's model list (cli/ad-hoc-model.ts); it is never sent.
 */
export const MODEL_ID_FROM_SERVER = '';

/**
 * The registry name of the `--base-url` model: its id, so the status bar and `:model` show what
 * is talking; `cli` while the id is unknown or when a configured model already has that name.
 */
export function adHocModelName(models: Readonly<Record<string, unknown>>, id: string): string {
  // The id may come from the server's model list: it names the model only when `:model <name>` can
  // say it back (one word of printable characters, not too long) and it is a safe record key.
  const usable = /^[^\s\p{C}]{1,64}$/u.test(id) && !UNSAFE_KEYS.has(id);
  return usable && !Object.hasOwn(models, id) ? id : 'cli';
}

const UNSAFE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Finds the config file: `--config`, then `$AISH_CONFIG`, then the XDG config directory. */
export function findConfigFile(cli: CliOverrides, env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const explicit = cli.configPath ?? env.AISH_CONFIG;
  if (explicit) {
    const file = path.resolve(cwd, explicit);
    const origin = cli.configPath ? '--config' : '$AISH_CONFIG';
    if (!existsSync(file)) throw new ConfigError([`${explicit}: config file not found (from ${origin})`]);
    return file;
  }
  const { configDir } = aishPaths(env);
  for (const name of CONFIG_NAMES) {
    const file = path.join(configDir, name);
    if (existsSync(file)) return file;
  }
  return undefined;
}

async function importConfigModule(file: string, label: string): Promise<unknown> {
  const ext = path.extname(file).toLowerCase();
  if (ext === '.json') {
    const text = await readFile(file, 'utf8');
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw new ConfigError([`${label}: not valid JSON: ${jsonErrorWithPlace((error as Error).message, text)}`]);
    }
  }
  if (ext !== '.ts' && ext !== '.js' && ext !== '.mjs' && ext !== '.mts') {
    throw new ConfigError([`${label}: unsupported config file type ${JSON.stringify(ext)} (use .ts, .js or .json)`]);
  }
  try {
    let mod: { default?: unknown };
    if (ext === '.ts' || ext === '.mts') {
      // The TypeScript loader costs start-up time, so it is loaded only for a .ts config.
      const { tsImport } = await import('tsx/esm/api');
      mod = (await tsImport(pathToFileURL(file).href, import.meta.url)) as { default?: unknown };
    } else {
      mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
    }
    let value = mod.default;
    // A .ts file compiled as CommonJS arrives as { default: { default: config } }.
    if (value && typeof value === 'object' && 'default' in value && Object.keys(value).every((key) => key === 'default' || key === '__esModule')) {
      value = (value as { default: unknown }).default;
    }
    return typeof value === 'function' ? await (value as () => unknown)() : value;
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError([`${label}: cannot load: ${await describeLoadError(error, file, ext)}`]);
  }
}

const MAX_REPORTED_ERRORS = 3;

/** `... at position 19` becomes `line 2, column 5: ...` (people read files by lines). */
function jsonErrorWithPlace(message: string, text: string): string {
  const match = / in JSON at position (\d+)/.exec(message);
  if (!match) return message;
  const offset = Number(match[1]);
  const before = text.slice(0, offset).split('\n');
  const line = before.length;
  const column = (before.at(-1)?.length ?? 0) + 1;
  return `line ${line}, column ${column}: ${message.replace(match[0], '').replace(/ \(line \d+ column \d+\)$/, '')}`;
}

/**
 * Where and what: `line 5, column 1: Expected "}" but found ";"`. The TypeScript loader reports
 * positions; Node's own syntax errors in ES modules do not, so a broken .js file is read once more
 * through the loader (only on this error path) to find the place.
 */
async function describeLoadError(error: unknown, file: string, ext: string): Promise<string> {
  const message = error instanceof Error ? error.message : String(error);
  const located = locatedErrors(message, file);
  if (located) return located;
  // Only a parse error: one thrown while the file ran (JSON.parse in it, say) has the file in its
  // stack, and reading the file again would run it again.
  const thrownByTheFile = String((error as Error)?.stack ?? '').includes(pathToFileURL(file).href);
  if (error instanceof SyntaxError && !thrownByTheFile && ext !== '.ts' && ext !== '.mts') {
    try {
      const { tsImport } = await import('tsx/esm/api');
      await tsImport(pathToFileURL(file).href, import.meta.url);
    } catch (again) {
      const relocated = locatedErrors(again instanceof Error ? again.message : String(again), file);
      if (relocated) return relocated;
    }
  }
  return message.split('\n')[0] ?? message;
}

/** esbuild's `<file>:<line>:<column>: ERROR: <text>` lines, without the path (the label names the file). */
function locatedErrors(message: string, file: string): string | undefined {
  const found: string[] = [];
  for (const line of message.split('\n')) {
    const match = /^(.*):(\d+):(\d+): ERROR: (.*)$/.exec(line);
    if (match && path.resolve(match[1]!) === path.resolve(file)) found.push(`line ${match[2]}, column ${Number(match[3]) + 1}: ${match[4]}`);
  }
  if (found.length === 0) return undefined;
  const more = found.length > MAX_REPORTED_ERRORS ? `; and ${found.length - MAX_REPORTED_ERRORS} more` : '';
  return found.slice(0, MAX_REPORTED_ERRORS).join('; ') + more;
}

/**
 * Validates a raw config value (see parse.ts). A config that passed before under the same schema is
 * taken from `checked` without loading the schema library.
 */
async function checkConfig(raw: unknown, label: string, checked: CheckedConfigs | undefined): Promise<ParsedConfig> {
  const known = raw === undefined || raw === null ? undefined : checked?.get<ParsedConfig>(raw);
  if (known) return known;
  const { parseConfig } = await import('./parse');
  const parsed = parseConfig(raw, label);
  checked?.set(raw, parsed);
  return parsed;
}

function resolveModels(parsed: ParsedConfig, cli: CliOverrides, env: NodeJS.ProcessEnv, label: string) {
  const registry: Record<string, ModelEntry> = parsed.models ?? builtInModels(env);
  const models: Record<string, ResolvedModel> = {};
  for (const [name, entry] of Object.entries(registry)) models[name] = { ...entry, name };
  const names = () => Object.keys(models).join(', ') || '(none)';

  let selected: string;
  if (cli.baseUrl) {
    if (!/^https?:\/\//i.test(cli.baseUrl) || !URL.canParse(cli.baseUrl)) {
      throw new ConfigError([`--base-url: expected a URL, got ${JSON.stringify(cli.baseUrl)}`]);
    }
    const id = cli.model ?? MODEL_ID_FROM_SERVER;
    selected = adHocModelName(models, id);
    models[selected] = { name: selected, baseUrl: cli.baseUrl, model: id };
  } else if (cli.model) {
    if (!models[cli.model]) throw new ConfigError([`--model: no model named ${JSON.stringify(cli.model)} (configured: ${names()})`]);
    selected = cli.model;
  } else if (parsed.defaultModel) {
    if (!models[parsed.defaultModel]) {
      throw new ConfigError([`${label}: defaultModel: no model named ${JSON.stringify(parsed.defaultModel)} (configured: ${names()})`]);
    }
    selected = parsed.defaultModel;
  } else {
    const first = Object.keys(models)[0];
    if (!first) throw new ConfigError([`${label}: models: at least one model is needed`]);
    selected = first;
  }
  if (cli.apiKeyEnv) {
    const model = models[selected];
    if (model) models[selected] = { ...model, keyEnv: cli.apiKeyEnv, apiKey: undefined };
  }
  return { models, selected };
}

/** Loads, validates and resolves the configuration. Throws ConfigError for anything the user must fix. */
export async function loadConfig(options: LoadOptions = {}): Promise<AppConfig> {
  const cli = options.cli ?? {};
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const file = findConfigFile(cli, env, cwd);
  const schemaId = options.schemaId ?? BUILD_SCHEMA_ID;
  const checked = schemaId === undefined ? undefined : new CheckedConfigs(aishPaths(env).stateDir, schemaId);
  let label = file ? displayPath(file, env) : 'built-in defaults';
  let raw = file ? await importConfigModule(file, label) : {};
  if (options.projectFile) {
    const projectLabel = displayPath(options.projectFile, env);
    const projectRaw = await importConfigModule(options.projectFile, projectLabel);
    // Checked alone first, so its own mistakes name its file.
    await checkConfig(projectRaw, projectLabel, checked);
    raw = mergeConfigs(raw ?? {}, projectRaw);
    label = file ? `${label} + ${projectLabel}` : projectLabel;
  }
  const parsed = await checkConfig(raw, label, checked);
  const { models, selected } = resolveModels(parsed, cli, env, label);
  const samplingModel = parsed.mcp.sampling.model;
  if (samplingModel !== undefined && !models[samplingModel]) {
    throw new ConfigError([`${label}: mcp.sampling.model: no model named ${JSON.stringify(samplingModel)} (configured: ${Object.keys(models).join(', ') || '(none)'})`]);
  }
  return {
    ...parsed,
    models,
    defaultModel: selected,
    systemPrompt: parsed.systemPrompt ?? DEFAULT_SYSTEM_PROMPT,
    sourcePath: file,
    ...(options.projectFile ? { projectConfigPath: options.projectFile } : {}),
    paths: aishPaths(env),
  };
}
