// `:roots`, `:roots add <dir>`, `:roots remove <dir>` (README.md, "Roots"): the directories MCP
// servers are offered; a change is sent to every connected server as notifications/roots/list_changed.
import { statSync } from 'node:fs';
import path from 'node:path';
import { displayPath } from '../services/config/paths';
import { normalizeRoots, type McpManagerService } from '../services/mcp/index';

type Level = 'info' | 'warn' | 'error';

export interface RootsHost {
  mcp: McpManagerService;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

const USAGE = 'usage: :roots [list] | :roots add <dir> | :roots remove <dir>';

function listLines(roots: string[], env: NodeJS.ProcessEnv): string[] {
  if (roots.length === 0) return ['no roots: servers are offered no directory (:roots add <dir>)'];
  return ['roots offered to MCP servers:', ...roots.map((root) => `  ${displayPath(root, env)}`)];
}

/** The lines to show and their level. Never throws. */
export function rootsCommand(words: string[], host: RootsHost): [string[], Level] {
  const [sub, ...rest] = words;
  const roots = host.mcp.roots?.() ?? [];
  if (!host.mcp.setRoots) return [['roots are not available here'], 'error'];
  const target = rest.join(' ');
  switch (sub) {
    case undefined:
    case 'list':
      return [listLines(roots, host.env), 'info'];
    case 'add': {
      if (!target) return [[USAGE], 'error'];
      const [directory] = normalizeRoots([target], host.cwd);
      let isDirectory = false;
      try {
        isDirectory = statSync(directory!).isDirectory();
      } catch {
        return [[`:roots add: ${displayPath(directory!, host.env)} does not exist`], 'error'];
      }
      if (!isDirectory) return [[`:roots add: ${displayPath(directory!, host.env)} is not a directory`], 'error'];
      if (roots.includes(directory!)) return [[`${displayPath(directory!, host.env)} is already a root`], 'info'];
      host.mcp.setRoots([...roots, directory!]);
      return [[`roots: added ${displayPath(directory!, host.env)}; the connected servers were told`], 'info'];
    }
    case 'remove': {
      if (!target) return [[USAGE], 'error'];
      const [resolved] = normalizeRoots([target], host.cwd);
      const found = roots.find((root) => root === resolved || root === target || path.basename(root) === target);
      if (!found) return [[`:roots remove: ${target} is not a root (see :roots)`], 'error'];
      host.mcp.setRoots(roots.filter((root) => root !== found));
      return [[`roots: removed ${displayPath(found, host.env)}; the connected servers were told`], 'info'];
    }
    default:
      return [[`unknown :roots subcommand ${JSON.stringify(sub)}`, USAGE], 'error'];
  }
}
