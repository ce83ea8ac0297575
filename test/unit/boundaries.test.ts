import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// DESIGN.md §2: services/ never import react, ink or zustand; state/ never imports react or ink;
// components/ never import the store or services (except the pure display helpers in
// services/terminal, which every panel needs to sanitize what it draws).
const SRC = path.resolve(import.meta.dirname, '..', '..', 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : /\.tsx?$/.test(name) ? [full] : [];
  });
}

function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found: string[] = [];
  for (const match of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    found.push((match[1] ?? match[2])!);
  }
  return found;
}

function resolveInSrc(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  return path.relative(SRC, path.resolve(path.dirname(file), spec));
}

describe('folder boundaries', () => {
  it('services never import react, ink or zustand', () => {
    for (const file of files(path.join(SRC, 'services'))) {
      for (const spec of imports(file)) {
        expect(/^(react|ink|zustand)(\/|$)|^ink-/.test(spec), `${path.relative(SRC, file)} imports ${spec}`).toBe(false);
        const target = resolveInSrc(file, spec);
        if (target) expect(/^(state|components|app)\//.test(target), `${path.relative(SRC, file)} imports ${spec}`).toBe(false);
      }
    }
  });

  it('state never imports react or ink', () => {
    for (const file of files(path.join(SRC, 'state'))) {
      for (const spec of imports(file)) {
        expect(/^(react|ink)(\/|$)|^ink-/.test(spec), `${path.relative(SRC, file)} imports ${spec}`).toBe(false);
        const target = resolveInSrc(file, spec);
        if (target) expect(/^(components|app)\//.test(target), `${path.relative(SRC, file)} imports ${spec}`).toBe(false);
      }
    }
  });

  it('components never reach into the store or services (only the display sanitizer)', () => {
    for (const file of files(path.join(SRC, 'components'))) {
      for (const spec of imports(file)) {
        expect(/^zustand(\/|$)/.test(spec), `${path.relative(SRC, file)} imports ${spec}`).toBe(false);
        const target = resolveInSrc(file, spec);
        if (!target) continue;
        const isStoreOrApp = /^(state\/(store|slices|selectors)|app\/)/.test(target);
        const isService = target.startsWith('services/') && !target.startsWith('services/terminal/') && !/\/types$/.test(target);
        expect(isStoreOrApp || isService, `${path.relative(SRC, file)} imports ${spec}`).toBe(false);
      }
    }
  });

  it('finds the imports it checks (the scanner itself works)', () => {
    const app = imports(path.join(SRC, 'app', 'App.tsx'));
    expect(app).toContain('ink');
    expect(app).toContain('../state/selectors');
  });
});
