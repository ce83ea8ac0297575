import type { AppConfig } from '../services/config/load';
import { ConfigError } from '../services/config/errors';
import { isStdioServer } from '../services/config/checks';
import type { McpManagerService } from '../services/mcp/index';
import { createInterface } from 'node:readline';
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

/**
 * Asks on the terminal before a browser opens a sign-in address: the whole address, sanitized,
 * with its host on a line of its own (bold on a terminal). Without a terminal on stdin nobody can
 * answer: the address is only printed, to be opened by hand.
 */
export function confirmOnTerminal(io: LoginIo, input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin): (url: string, host: string) => Promise<boolean> {
  return async (url, host) => {
    const bold = (text: string) => (process.stderr.isTTY ? `\x1b[1m${text}\x1b[22m` : text);
    io.stderr(`aish-tui: the sign-in page is on ${bold(sanitizeLabel(host))}\n  ${sanitizeLabel(url)}\n`);
    if (!input.isTTY) {
      io.stderr('aish-tui: open that address in your browser to sign in\n');
      return false;
    }
    const lines = createInterface({ input, terminal: false });
    try {
      io.stderr('Open it in your browser? [y/N] ');
      const answer = await new Promise<string>((resolve) => {
        lines.once('line', resolve);
        lines.once('close', () => resolve(''));
      });
      const yes = /^\s*y(es)?\s*$/i.test(answer);
      if (!yes) io.stderr('aish-tui: not opened; open the address above in your browser to sign in\n');
      return yes;
    } finally {
      lines.close();
    }
  };
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
