import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, formatIssues } from './errors';
import { aliasProblem } from './checks';
import { serverSchema, type ServerConfig } from './schema';

// `--mcp-config FILE`: MCP servers from the JSON files other clients use. Claude Desktop and Cursor
// write `{"mcpServers": {name: {...}}}`, VS Code `{"servers": {name: {...}}}`; an entry has `command`
// (+ `args`, `env`, `cwd`) for stdio or `url` (+ `headers`) for HTTP, and VS Code adds a `type`.
// Keys those clients use for their own features (autoApprove, alwaysAllow, ...) are ignored.

type Entry = Record<string, unknown>;

const TYPE_TO_TRANSPORT: Record<string, 'http' | 'sse' | undefined> = {
  http: 'http',
  'streamable-http': 'http',
  streamableHttp: 'http',
  sse: 'sse',
};

function renderKey(key: string): string {
  return /^[\w-]+$/.test(key) ? key : JSON.stringify(key);
}

function convertEntry(entry: unknown, where: string): { config?: unknown; problems: string[] } {
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return { problems: [`${where}: expected an object with "command" or "url"`] };
  const raw = entry as Entry;
  const type = raw.type;
  if (type !== undefined && typeof type !== 'string') return { problems: [`${where}.type: expected a string`] };
  const url = raw.url ?? raw.serverUrl;
  const disabled = raw.disabled === true ? { disabled: true } : {};
  if (type === 'stdio' || (type === undefined && raw.command !== undefined)) {
    if (url !== undefined && raw.command === undefined) return { problems: [`${where}: type "stdio" needs "command"`] };
    return {
      config: {
        command: raw.command,
        ...(raw.args !== undefined ? { args: raw.args } : {}),
        ...(raw.env !== undefined ? { env: raw.env } : {}),
        ...(raw.cwd !== undefined ? { cwd: raw.cwd } : {}),
        ...disabled,
      },
      problems: [],
    };
  }
  if (type !== undefined && !(type in TYPE_TO_TRANSPORT)) {
    return { problems: [`${where}.type: expected "stdio", "http" or "sse", got ${JSON.stringify(type)}`] };
  }
  if (url === undefined) return { problems: [`${where}: needs "command" (stdio) or "url" (HTTP)`] };
  const transport = type === undefined ? undefined : TYPE_TO_TRANSPORT[type];
  return {
    config: {
      url,
      ...(transport ? { transport } : {}),
      ...(raw.headers !== undefined ? { headers: raw.headers } : {}),
      ...disabled,
    },
    problems: [],
  };
}

/** Something the user should read about an import; the app starts regardless. */
export interface ImportNotice {
  level: 'info' | 'warn';
  text: string;
}

/** One usable server of a file, under the name the file gives it (not yet an alias). */
export interface ImportedEntry {
  name: string;
  /** Where it is, for messages: `file: mcpServers."name"`. */
  where: string;
  config: ServerConfig;
}

export interface ParsedMcpFile {
  entries: ImportedEntry[];
  /** One warning per entry that was skipped because it cannot work. */
  notices: ImportNotice[];
}

/**
 * Parses one file's text; `label` names the file in every message. A file that is not a server
 * list at all is a ConfigError; an entry that cannot work (no command and no URL, a bad URL, a
 * wrong type) is skipped with a warning naming it, and the others are still used.
 */
export function parseMcpConfig(text: string, label: string): ParsedMcpFile {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new ConfigError([`${label}: not valid JSON: ${(error as Error).message}`]);
  }
  if (!document || typeof document !== 'object' || Array.isArray(document)) {
    throw new ConfigError([`${label}: expected a JSON object with "mcpServers"`]);
  }
  const record = document as Entry;
  const key = record.mcpServers !== undefined ? 'mcpServers' : record.servers !== undefined ? 'servers' : undefined;
  if (!key) throw new ConfigError([`${label}: no "mcpServers" (or "servers") object found`]);
  const servers = record[key];
  if (!servers || typeof servers !== 'object' || Array.isArray(servers)) throw new ConfigError([`${label}: ${key}: expected an object of servers`]);

  const notices: ImportNotice[] = [];
  const entries: ImportedEntry[] = [];
  const skip = (problems: string[]) => {
    for (const problem of problems) notices.push({ level: 'warn', text: `${problem}; this server is skipped` });
  };
  for (const [name, entry] of Object.entries(servers as Entry)) {
    const where = `${label}: ${key}.${renderKey(name)}`;
    const converted = convertEntry(entry, where);
    if (converted.problems.length > 0) {
      skip(converted.problems);
      continue;
    }
    const parsed = serverSchema.safeParse(converted.config, { reportInput: true });
    if (!parsed.success) {
      skip(formatIssues(parsed.error.issues).map((line) => `${where}.${line}`));
      continue;
    }
    entries.push({ name, where, config: parsed.data });
  }
  return { entries, notices };
}

/** The longest alias derived here (aliasProblem allows 32 characters). */
const MAX_ALIAS = 32;

/**
 * A valid alias for a server name other clients accept (Cline and VS Code use names like
 * `github.com/org/memory`): accents dropped, every run of other characters (including "__",
 * which separates alias and tool) becomes one "_", no "_" at either end, at most 32 characters.
 * The same name always gives the same alias, so approval rules and pinned tools keep matching.
 */
export function aliasFromName(name: string): string {
  const alias = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9-]+/g, '_')
    .replace(/^_+/, '')
    .slice(0, MAX_ALIAS)
    .replace(/_+$/, '');
  return alias && !aliasProblem(alias) ? alias : 'server';
}

/** `base`, or `base-2`, `base-3`, ... (still at most 32 characters), whichever is free first. */
function freeAlias(base: string, taken: (alias: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n += 1) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, MAX_ALIAS - suffix.length).replace(/_+$/, '')}${suffix}`;
    if (!taken(candidate)) return candidate;
  }
}

/** Aliases never given to an imported server by derivation (the built-in server's). */
const RESERVED = new Set(['builtin']);

export interface ImportResult {
  servers: Record<string, ServerConfig>;
  notices: ImportNotice[];
}

/**
 * Adds the servers of every `--mcp-config` file to the configured ones. A name that is a valid
 * alias keeps it; a name that is not gets a derived one (said in a notice), never one that a
 * valid name anywhere already has. The same alias defined twice (in the config and a file, or in
 * two files) is used once, from the first place; the later one is skipped with a warning.
 */
export async function importMcpConfigs(
  files: readonly string[],
  servers: Record<string, ServerConfig>,
  options: { cwd?: string; configLabel?: string } = {},
): Promise<ImportResult> {
  const parsedFiles: Array<{ file: string; parsed: ParsedMcpFile }> = [];
  for (const file of files) {
    const resolved = path.resolve(options.cwd ?? process.cwd(), file);
    let text: string;
    try {
      text = await readFile(resolved, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new ConfigError([`--mcp-config ${file}: ${code === 'ENOENT' ? 'file not found' : `cannot read (${code ?? (error as Error).message})`}`]);
    }
    parsedFiles.push({ file, parsed: parseMcpConfig(text, file) });
  }

  // Names that are valid aliases are claimed first, so a derived alias never takes one of them.
  const claimed = new Set<string>([...Object.keys(servers), ...RESERVED]);
  for (const { parsed } of parsedFiles) for (const entry of parsed.entries) if (!aliasProblem(entry.name)) claimed.add(entry.name);

  const origin = new Map<string, string>(Object.keys(servers).map((alias) => [alias, options.configLabel ?? 'the config file']));
  const merged: Record<string, ServerConfig> = { ...servers };
  const notices: ImportNotice[] = [];
  for (const { file, parsed } of parsedFiles) {
    notices.push(...parsed.notices);
    for (const entry of parsed.entries) {
      const problem = aliasProblem(entry.name);
      let alias = entry.name;
      if (problem) {
        alias = freeAlias(aliasFromName(entry.name), (candidate) => claimed.has(candidate));
        claimed.add(alias);
        notices.push({ level: 'info', text: `${file}: server ${JSON.stringify(entry.name)} is named ${alias} (${problem}); its tools appear as ${alias}__<tool>` });
      }
      const earlier = origin.get(alias);
      if (earlier) {
        notices.push({ level: 'warn', text: `${entry.where}: server ${JSON.stringify(alias)} is already defined in ${earlier}; this one is skipped` });
        continue;
      }
      origin.set(alias, file);
      merged[alias] = entry.config;
    }
  }
  return { servers: merged, notices };
}
