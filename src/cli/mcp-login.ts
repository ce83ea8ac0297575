import type { AppConfig } from '../services/config/load';
import { ConfigError } from '../services/config/errors';
import { isStdioServer } from '../services/config/schema';
import type { McpManagerService } from '../services/mcp/index';
import { sanitizeLabel } from '../services/terminal/sanitize';

// `aish-tui mcp login <alias>`: the browser sign-in for one OAuth server, from a shell. The other
// non-interactive commands (`mcp list`, `-p`) never start one; they point here instead. The
// authorization URL is printed (and opened in a browser when possible), the loopback callback is
// awaited, and the tokens are stored where every later run finds them.

/** How long to wait for the browser to come back before giving up. */
export const LOGIN_WAIT_MS = 5 * 60_000;

export interface LoginIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The configured server to sign in to, or a clear reason why there is nothing to sign in to. */
export function loginTarget(config: AppConfig, alias: string | undefined): string {
  if (!alias) throw new ConfigError(['mcp login: name the server to sign in to, e.g. aish-tui mcp login <alias>', "Run 'aish-tui --help' for usage."]);
  const server = config.mcp.servers[alias];
  if (!server) {
    const known = Object.keys(config.mcp.servers);
    throw new ConfigError([`mcp login: no configured server named ${JSON.stringify(alias)}${known.length ? ` (configured: ${known.join(', ')})` : ''}`]);
  }
  if (isStdioServer(server)) throw new ConfigError([`mcp login: ${alias} is a stdio server; only HTTP servers sign in`]);
  if (server.authToken || server.authEnv) throw new ConfigError([`mcp login: ${alias} uses a static token (authToken or authEnv); there is nothing to sign in to`]);
  return alias;
}

/** Connects `alias` with an interactive manager, so that a needed authorization runs; 0 once it is ready. */
export async function runLogin(manager: McpManagerService, config: AppConfig, alias: string, io: LoginIo): Promise<number> {
  let askedToAuthorize = false;
  const unsubscribe = manager.subscribe((event) => {
    if (event.type === 'server' && event.snapshot.alias === alias && event.snapshot.state === 'needs-auth') askedToAuthorize = true;
  });
  try {
    await manager.connect(alias, config.mcp.servers[alias]!);
    if (askedToAuthorize) io.stderr(`aish-tui: waiting for the browser to come back (up to ${LOGIN_WAIT_MS / 60_000} minutes; Ctrl+C gives up)\n`);
    const server = (await manager.settled(LOGIN_WAIT_MS)).find((candidate) => candidate.alias === alias);
    if (server?.state !== 'ready') {
      // The session has said why on stderr already (its status line); this is the summary.
      io.stderr(`aish-tui: ${sanitizeLabel(`mcp ${alias}: not signed in (${server?.state ?? 'unknown'}${server?.error ? `: ${server.error}` : ''})`)}\n`);
      return 1;
    }
    io.stdout(
      askedToAuthorize
        ? `${alias}: signed in; the token is stored for aish-tui and aish-tui mcp\n`
        : `${alias}: already signed in (or the server needs no sign-in); nothing to do\n`,
    );
    return 0;
  } finally {
    unsubscribe();
  }
}
