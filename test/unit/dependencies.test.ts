import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// A dependency is either used or gone: every package in `dependencies` is imported by src/ (the
// bundle needs it), every package src/ imports is declared there (not borrowed from another
// package's dependencies, which can move or vanish with an update), and every devDependency is
// used by the scripts, tests, benchmarks or the type check.

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
  scripts: Record<string, string>;
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name.startsWith('.')) return [];
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.(tsx?|mjs|js)$/.test(name) ? [full] : [];
  });
}

/** Package names a file imports: static and dynamic imports, and the paths that name node_modules/<pkg>/ directly. */
function packagesImported(file: string): string[] {
  // Comment lines left out: they quote imports as examples.
  const text = readFileSync(file, 'utf8').replace(/^\s*(\/\/|\/?\*).*$/gm, '');
  const names: string[] = [];
  for (const match of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|node_modules\/((?:@[^/'"]+\/)?[^/'"]+)\//g)) {
    const spec = (match[1] ?? match[2] ?? match[3])!;
    if (spec.startsWith('.') || spec.startsWith('node:') || builtinModules.includes(spec.split('/')[0]!)) {
      if (!match[3]) continue;
    }
    const name = /^(@[^/]+\/[^/]+|[^/]+)/.exec(spec)?.[1];
    if (name && !name.startsWith('.')) names.push(name);
  }
  return names;
}

function importedBy(folders: string[]): Set<string> {
  return new Set(folders.flatMap((folder) => files(path.join(ROOT, folder))).flatMap(packagesImported));
}

describe('package.json dependencies', () => {
  const fromSrc = importedBy(['src']);

  it('every dependency is imported by src/', () => {
    const unused = Object.keys(pkg.dependencies).filter((name) => !fromSrc.has(name));
    expect(unused, 'declared in dependencies but never imported by src/: use it or npm uninstall it').toEqual([]);
  });

  it('every package src/ imports is declared in dependencies', () => {
    const undeclared = [...fromSrc].filter((name) => !(name in pkg.dependencies)).sort();
    expect(undeclared, 'imported by src/ but not declared: npm install <pkg>@<version> --save-exact').toEqual([]);
  });

  it('every devDependency is used by the scripts, tests, benchmarks or the type check', () => {
    const used = importedBy(['test', 'scripts', 'bench']);
    const scripts = Object.values(pkg.scripts).join('\n');
    const byCommand: Record<string, string> = { typescript: 'tsc', vitest: 'vitest' };
    const unused = Object.keys(pkg.devDependencies).filter((name) => {
      if (used.has(name)) return false;
      const command = byCommand[name];
      if (command && new RegExp(`\\b${command}\\b`).test(scripts)) return false;
      // Type packages count when the package they describe is used (`@types/node`: Node itself).
      const typed = /^@types\/(.+)$/.exec(name)?.[1];
      if (typed) return !(typed === 'node' || fromSrc.has(typed) || used.has(typed));
      // Packages run as servers or tools by name (npx, spawn) rather than imported.
      return !files(path.join(ROOT, 'test')).concat(files(path.join(ROOT, 'scripts'))).some((file) => readFileSync(file, 'utf8').includes(`'${name}`) || readFileSync(file, 'utf8').includes(`"${name}`));
    });
    expect(unused, 'declared in devDependencies but used by nothing: npm uninstall it').toEqual([]);
  });
});
