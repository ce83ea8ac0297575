import os from 'node:os';
import path from 'node:path';

export interface AishPaths {
  /** Where config.{ts,js,json} is looked for. */
  configDir: string;
  /** Sessions, pinned tool definitions, OAuth tokens, input history: all files 0600. */
  stateDir: string;
}

/**
 * XDG base directories (https://specifications.freedesktop.org/basedir-spec/). Computed from the
 * environment passed in rather than read at import time, so tests and headless runs can point
 * aish-tui at a scratch directory.
 */
export function aishPaths(env: NodeJS.ProcessEnv): AishPaths {
  const home = env.HOME || os.homedir();
  const absolute = (value: string | undefined) => (value && path.isAbsolute(value) ? value : undefined);
  const configHome = absolute(env.XDG_CONFIG_HOME) ?? path.join(home, '.config');
  const stateHome = absolute(env.XDG_STATE_HOME) ?? path.join(home, '.local', 'state');
  return { configDir: path.join(configHome, 'aish'), stateDir: path.join(stateHome, 'aish') };
}

/** `~/...` for display: shorter, and does not reveal the user name in screenshots. */
export function displayPath(file: string, env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME || os.homedir();
  if (home && (file === home || file.startsWith(home + path.sep))) return `~${file.slice(home.length)}`;
  return file;
}
