// `@path` completion: files and folders under the working directory, one folder level per Tab
// (like a shell), leaving out what the working directory's .gitignore ignores and `.git` itself.
// Hidden entries are offered only when the typed name starts with a dot. Nothing outside the
// working directory is listed (`@../`, `@/`, `@~` complete to nothing).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import type { CompletionSource } from '../completion';

/** A folder with more entries than this is listed only in part (completion must stay instant). */
const MAX_ENTRIES = 2000;

function loadIgnore(root: string): Ignore {
  const rules = ignore().add('.git');
  try {
    rules.add(readFileSync(path.join(root, '.gitignore'), 'utf8'));
  } catch {
    // No .gitignore: nothing more is ignored.
  }
  return rules;
}

function gitignoreIn(folder: string): Ignore | undefined {
  try {
    return ignore().add(readFileSync(path.join(folder, '.gitignore'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** The candidates for `word` (what follows `@`), as paths relative to `root`; folders end in `/`. */
export function completeFilePath(root: string, word: string, rules: Ignore = loadIgnore(root)): string[] {
  if (word.startsWith('/') || word.startsWith('~') || word.split('/').includes('..')) return [];
  const slash = word.lastIndexOf('/');
  const folder = slash >= 0 ? word.slice(0, slash + 1) : '';
  const prefix = word.slice(slash + 1);
  const absolute = path.resolve(root, folder);
  if (absolute !== root && !absolute.startsWith(root + path.sep)) return [];
  let entries;
  try {
    entries = readdirSync(absolute, { withFileTypes: true }).slice(0, MAX_ENTRIES);
  } catch {
    return [];
  }
  // .gitignore files of the folders between the root and the one listed, each for the paths below it.
  const nested: Array<{ base: string; rules: Ignore }> = [];
  const parts = folder.split('/').filter(Boolean);
  for (let depth = 1; depth <= parts.length; depth++) {
    const base = `${parts.slice(0, depth).join('/')}/`;
    const found = gitignoreIn(path.join(root, base));
    if (found) nested.push({ base, rules: found });
  }
  const out: string[] = [];
  for (const entry of entries) {
    if (!entry.name.startsWith(prefix)) continue;
    if (entry.name.startsWith('.') && !prefix.startsWith('.')) continue;
    const isFolder = entry.isDirectory();
    const relative = `${folder}${entry.name}${isFolder ? '/' : ''}`;
    if (rules.ignores(relative) || nested.some((inner) => inner.rules.ignores(relative.slice(inner.base.length)))) continue;
    out.push(relative);
  }
  return out.sort();
}

export function createFileCompletion(root: string): CompletionSource {
  return { trigger: '@', complete: (word) => completeFilePath(root, word) };
}
