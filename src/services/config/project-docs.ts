import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import path from 'node:path';
import { stripHidden } from '../terminal/hidden-text';

// AGENTS.md, the file several terminal clients read for project instructions: every one from the
// repository root down to the working directory joins the system prompt, the outermost first, so
// the one nearest the work comes last and wins where they disagree (README.md, "Project context").

export const PROJECT_DOC_NAME = 'AGENTS.md';

export interface ProjectDoc {
  /** Absolute path of the file. */
  file: string;
  /** Characters of it that reach the system prompt. */
  chars: number;
  /** True when the file was cut at the cap (or by the files before it). */
  cut: boolean;
}

export interface ProjectDocs {
  docs: ProjectDoc[];
  /** The system prompt's section; empty when there is no file. */
  section: string;
}

/** The nearest directory at or above `cwd` holding `.git` (a folder, or a file in a worktree). */
export function findRepoRoot(cwd: string): string | undefined {
  let dir = path.resolve(cwd);
  for (;;) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** The directories from the repository root down to `cwd` (only `cwd` outside a repository). */
export function projectDirs(cwd: string): string[] {
  const start = path.resolve(cwd);
  const root = findRepoRoot(start);
  if (!root) return [start];
  const dirs: string[] = [];
  for (let dir = start; ; dir = path.dirname(dir)) {
    dirs.unshift(dir);
    if (dir === root || path.dirname(dir) === dir) break;
  }
  return dirs;
}

/** At most `maxBytes` of a regular file (a huge or endless file costs no more than the cap). */
function readHead(file: string, maxBytes: number): { text: string; whole: boolean } | undefined {
  let fd: number | undefined;
  try {
    if (!statSync(file).isFile()) return undefined;
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const buffer = Buffer.alloc(Math.min(size, maxBytes));
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return { text: buffer.subarray(0, read).toString('utf8'), whole: size <= maxBytes };
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * What the model is told: the text without hidden characters or terminal controls (the file may
 * come with a cloned repository, written by anyone), cut so all files together stay within
 * `maxChars`.
 */
export function loadProjectDocs(cwd: string, maxChars: number): ProjectDocs {
  const docs: ProjectDoc[] = [];
  const parts: string[] = [];
  let left = maxChars;
  for (const dir of projectDirs(cwd)) {
    const file = path.join(dir, PROJECT_DOC_NAME);
    if (!existsSync(file)) continue;
    // Four bytes per character at most: enough bytes for `left` characters.
    const head = readHead(file, Math.max(0, left) * 4);
    if (!head) continue;
    const clean = stripHidden(head.text.replace(/\r\n/g, '\n')).trim();
    const kept = clean.slice(0, Math.max(0, left));
    const cut = !head.whole || kept.length < clean.length;
    docs.push({ file, chars: kept.length, cut });
    left -= kept.length;
    if (kept.length > 0) {
      const label = path.relative(path.resolve(cwd), file) || PROJECT_DOC_NAME;
      parts.push(`## ${label}\n\n${kept}${cut ? '\n\n[cut: the project instructions are longer than aish-tui sends]' : ''}`);
    }
  }
  const section = parts.length > 0 ? `# Project instructions (${PROJECT_DOC_NAME})\n\nThe project's own notes for work in it, outermost first; later ones are more specific.\n\n${parts.join('\n\n')}` : '';
  return { docs, section };
}

/** The system prompt with the project's section after it. */
export function withProjectDocs(systemPrompt: string, section: string): string {
  if (!section) return systemPrompt;
  return systemPrompt.trim() ? `${systemPrompt}\n\n${section}` : section;
}
