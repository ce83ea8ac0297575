import { parseArgs } from 'node:util';
import { aliasProblem } from '../config/checks';
import type { HttpServerConfig } from '../config/schema';
import { McpInputError } from './input-error';
import type { ServerState } from './types';

// `:mcp connect <url> [alias] [--sse|--http] [--token-env VAR]` is checked before anything is announced or tried. This module stays
// light (no MCP client) so the meta commands can use it before the MCP code has loaded.

const GENERIC_LABELS = new Set(['www', 'mcp', 'api', 'app']);

/** Aliases a URL's host name must not turn into (the built-in server's). */
export const RESERVED_ALIASES: readonly string[] = ['builtin'];

/**
 * An alias from a URL's host name (docs/ARCHITECTURE.md, Conversation rules): `boltzmann.fritz.box` -> `boltzmann`,
 * `mcp.example.com` -> `example`; addresses and localhost keep their port: `127.0.0.1:8931` ->
 * `127-0-0-1-8931`. The result always satisfies the alias rules.
 */
export function aliasFromUrl(url: URL): string {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const isAddress = /^[\d.]+$/.test(host) || host.includes(':') || host === 'localhost';
  let base: string;
  if (isAddress) {
    base = url.port ? `${host}-${url.port}` : host;
  } else {
    const labels = host.split('.').filter(Boolean);
    base = labels.find((label, index) => !GENERIC_LABELS.has(label.toLowerCase()) || index === labels.length - 1) ?? host;
  }
  const cleaned = base
    .replace(/[^A-Za-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 28)
    .replace(/-$/, '');
  return cleaned || 'server';
}

export const CONNECT_USAGE = ':mcp connect <url> [alias] [--sse|--http] [--token-env VAR]';

/** What `:mcp connect` may set beyond the URL: the same keys as a configured HTTP server. */
export interface ConnectOptions {
  /** Force one transport; without it streamable HTTP is tried first, then legacy SSE. */
  transport?: 'http' | 'sse';
  /** The environment variable holding the Bearer token (its value is never shown). */
  authEnv?: string;
}

export interface ConnectArguments {
  url: string;
  alias?: string;
  options: ConnectOptions;
}

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The words after `:mcp connect`, or McpInputError naming what is wrong. Flags may come anywhere;
 * the token is named by its variable, so it never appears on the command line or in the input
 * history.
 */
export function parseConnectArguments(words: readonly string[]): ConnectArguments {
  let parsed: ReturnType<typeof parseConnectWords>;
  try {
    parsed = parseConnectWords(words);
  } catch (error) {
    throw new McpInputError(`${(error as Error).message.split('\n')[0]}; usage: ${CONNECT_USAGE}`);
  }
  const { values, positionals } = parsed;
  const [url, alias, extra] = positionals;
  if (!url) throw new McpInputError(`usage: ${CONNECT_USAGE}`);
  if (extra !== undefined) throw new McpInputError(`unexpected argument ${JSON.stringify(extra)}; usage: ${CONNECT_USAGE}`);
  if (values.sse && values.http) throw new McpInputError('--sse and --http exclude each other (without either, streamable HTTP is tried first, then legacy SSE)');
  const authEnv = values['token-env'];
  if (authEnv !== undefined && !ENV_NAME.test(authEnv)) {
    throw new McpInputError(`--token-env expects the name of an environment variable (e.g. GITHUB_TOKEN), not ${JSON.stringify(authEnv)}`);
  }
  const transport = values.sse ? 'sse' : values.http ? 'http' : undefined;
  return { url, ...(alias !== undefined ? { alias } : {}), options: { ...(transport ? { transport } : {}), ...(authEnv ? { authEnv } : {}) } };
}

function parseConnectWords(words: readonly string[]) {
  return parseArgs({
    args: [...words],
    allowPositionals: true,
    strict: true,
    options: { sse: { type: 'boolean' }, http: { type: 'boolean' }, 'token-env': { type: 'string' } },
  });
}

/** What is known about a server already listed under an alias. */
export interface KnownServer {
  state: ServerState;
  /** Its URL, for HTTP servers. */
  url?: string;
}

export interface ConnectRequest {
  alias: string;
  config: HttpServerConfig;
}

/**
 * The alias and config a `:mcp connect` will use, or McpInputError (one line) for a bad URL, a bad
 * alias or an alias in use; `options` (a forced transport, a token variable) go into the config.
 * Without an alias one comes from the host name, with -2, -3, ... when
 * taken; the same URL under its own alias is a reconnect, not a clash. The config schema is loaded
 * here, on first use, so that it stays off the way to the first frame.
 */
export async function resolveConnectRequest(
  url: string,
  alias: string | undefined,
  known: (alias: string) => KnownServer | undefined,
  options: ConnectOptions = {},
): Promise<ConnectRequest> {
  const { httpServerSchema } = await import('../config/schema');
  const parsed = httpServerSchema.safeParse({ url, ...options });
  if (!parsed.success) throw new McpInputError(`not an http(s) URL: ${JSON.stringify(url)}`);
  if (alias !== undefined) {
    const problem = aliasProblem(alias);
    if (problem) throw new McpInputError(problem);
    const existing = known(alias);
    if (existing && (existing.state === 'ready' || existing.state === 'connecting')) {
      throw new McpInputError(`alias ${JSON.stringify(alias)} is already in use (disconnect it first or pick another alias)`);
    }
    return { alias, config: parsed.data };
  }
  const taken = (candidate: string) => {
    const existing = known(candidate);
    return existing ? existing.url !== url : RESERVED_ALIASES.includes(candidate);
  };
  const base = aliasFromUrl(new URL(url));
  let chosen = base;
  for (let n = 2; taken(chosen); n += 1) chosen = `${base}-${n}`;
  return { alias: chosen, config: parsed.data };
}
