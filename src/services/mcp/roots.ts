import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Root } from '@modelcontextprotocol/client';

// The directories servers may work in (`roots/list`): the working directory, `mcp.roots` from the
// config and `--add-dir`, changed at runtime with `:roots add|remove`. Absolute, deduplicated, in
// the order given.

export function normalizeRoots(directories: readonly string[], cwd: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const directory of directories) {
    if (!directory.trim()) continue;
    const expanded = directory === '~' || directory.startsWith('~/') ? path.join(os.homedir(), directory.slice(1)) : directory;
    const absolute = path.resolve(cwd, expanded);
    if (seen.has(absolute)) continue;
    seen.add(absolute);
    out.push(absolute);
  }
  return out;
}

export function rootsForServers(directories: readonly string[]): Root[] {
  return directories.map((directory) => ({ uri: pathToFileURL(directory).href, name: path.basename(directory) || directory }));
}
