import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ConfigError, formatIssues } from './errors';
import { aliasProblem, serverSchema, type ServerConfig } from './schema';

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

/** Parses one file's text; `label` names the file in every message. */
export function parseMcpConfig(text: string, label: string): Record<string, ServerConfig> {
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

  const problems: string[] = [];
  const result: Record<string, ServerConfig> = {};
  for (const [alias, entry] of Object.entries(servers as Entry)) {
    const where = `${label}: ${key}.${renderKey(alias)}`;
    const aliasIssue = aliasProblem(alias);
    if (aliasIssue) {
      problems.push(`${where}: ${aliasIssue}`);
      continue;
    }
    const converted = convertEntry(entry, where);
    if (converted.problems.length > 0) {
      problems.push(...converted.problems);
      continue;
    }
    const parsed = serverSchema.safeParse(converted.config, { reportInput: true });
    if (!parsed.success) {
      problems.push(...formatIssues(parsed.error.issues).map((line) => `${where}.${line}`));
      continue;
    }
    result[alias] = parsed.data;
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return result;
}

/**
 * Adds the servers of every `--mcp-config` file to the configured ones. An alias defined twice
 * (in the config and a file, or in two files) is an error naming both places.
 */
export async function importMcpConfigs(
  files: readonly string[],
  servers: Record<string, ServerConfig>,
  options: { cwd?: string; configLabel?: string } = {},
): Promise<Record<string, ServerConfig>> {
  const origin = new Map<string, string>(Object.keys(servers).map((alias) => [alias, options.configLabel ?? 'the config file']));
  const merged: Record<string, ServerConfig> = { ...servers };
  const problems: string[] = [];
  for (const file of files) {
    const resolved = path.resolve(options.cwd ?? process.cwd(), file);
    let text: string;
    try {
      text = await readFile(resolved, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new ConfigError([`--mcp-config ${file}: ${code === 'ENOENT' ? 'file not found' : `cannot read (${code ?? (error as Error).message})`}`]);
    }
    const imported = parseMcpConfig(text, file);
    for (const [alias, config] of Object.entries(imported)) {
      const earlier = origin.get(alias);
      if (earlier) {
        problems.push(`${file}: server ${JSON.stringify(alias)} is already defined in ${earlier} (aliases must be unique)`);
        continue;
      }
      origin.set(alias, file);
      merged[alias] = config;
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return merged;
}
