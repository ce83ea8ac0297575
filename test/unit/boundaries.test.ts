import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The systems of src/ and what each may import (docs/ARCHITECTURE.md, "Boundaries"):
// - services/: no React, Ink or zustand, and nothing of the app above it;
// - state/: the store; no React or Ink, nothing above it but service types;
// - runtime/, terminal/, transcript/: no React or Ink, never ui/ or cli/; terminal/ is the lowest of
//   the three (no runtime/, transcript/ or state/), transcript/ never reaches into runtime/;
// - ui/: React and Ink; services only through the display sanitizer and type-only modules; its pure
//   panels (ui/panels/) never reach the store, the runtime or the containers.
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

const REACT_OR_INK = /^(react|ink)(\/|$)|^ink-|\/node_modules\/(react|ink)\//;

function check(folder: string, rule: (spec: string, target: string | undefined, file: string) => boolean) {
  const offenders: string[] = [];
  const all = files(path.join(SRC, folder));
  expect(all.length, `${folder} has files`).toBeGreaterThan(0);
  for (const file of all) {
    for (const spec of imports(file)) {
      if (!rule(spec, resolveInSrc(file, spec), path.relative(SRC, file))) offenders.push(`${path.relative(SRC, file)} imports ${spec}`);
    }
  }
  expect(offenders).toEqual([]);
}

describe('folder boundaries', () => {
  it('services never import react, ink or zustand, nor anything of the app above them', () => {
    check('services', (spec, target) => !/^(react|ink|zustand)(\/|$)|^ink-/.test(spec) && !(target && /^(state|ui|runtime|terminal|transcript|cli)\//.test(target)));
  });

  it('state never imports react or ink, nor the systems that use it', () => {
    check('state', (spec, target) => !REACT_OR_INK.test(spec) && !(target && /^(ui|runtime|terminal|transcript|cli)\//.test(target)));
  });

  it('runtime, terminal and transcript never import react or ink, nor ui/ or cli/', () => {
    for (const folder of ['runtime', 'terminal', 'transcript']) {
      // The one exception: terminal/inkOutput.ts replaces a method of Ink's private output buffer
      // (the Ink row cache; see docs/ARCHITECTURE.md) and so names that one file of Ink; Ink is
      // pinned to an exact version for it and test/unit/render/ink-output-shape.test.ts checks the shape.
      const inkAdapter = (spec: string, file: string) => file === path.join('terminal', 'inkOutput.ts') && /node_modules\/ink\/build\/output(\.js)?$/.test(spec);
      check(folder, (spec, target, file) => (!REACT_OR_INK.test(spec) || inkAdapter(spec, file)) && !(target && /^(ui|cli)\//.test(target)));
    }
  });

  it('terminal is the lowest of them: it never imports runtime, transcript or the store', () => {
    check('terminal', (_spec, target) => !(target && /^(runtime|transcript|state)\//.test(target)));
  });

  it('transcript never reaches into the runtime', () => {
    check('transcript', (_spec, target) => !(target && /^runtime\//.test(target)));
  });

  it('ui reaches services only through the display sanitizer and type-only modules', () => {
    check('ui', (_spec, target) => !(target && target.startsWith('services/') && !target.startsWith('services/terminal/') && !/\/types$/.test(target)));
  });

  it('ui panels never reach into the store, the runtime or the containers', () => {
    check('ui/panels', (spec, target) => {
      if (/^zustand(\/|$)/.test(spec)) return false;
      if (!target) return true;
      return !/^(state\/(store|slices|selectors)|runtime\/|ui\/(containers|keys)\/|ui\/(App|StoreContext|Frames))/.test(target);
    });
  });

  it('outside services/mcp, MCP is reached through its entry point index (the client only by a lazy import)', () => {
    // ui/ keeps to type-only modules (the rule above), so it may name services/mcp/types with `import type`.
    const offenders: string[] = [];
    for (const file of files(SRC).filter((full) => !path.relative(SRC, full).startsWith(path.join('services', 'mcp') + path.sep))) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(import\s+type\s|import\s|export\s)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
        const spec = (match[2] ?? match[3])!;
        const target = resolveInSrc(file, spec);
        if (!target?.startsWith('services/mcp/')) continue;
        const dynamic = match[3] !== undefined;
        const typeOnly = match[1] !== undefined && /^import\s+type\s/.test(match[1]);
        const allowed = target === 'services/mcp/index' || (dynamic && target === 'services/mcp/client') || (typeOnly && target === 'services/mcp/types');
        if (!allowed) offenders.push(`${path.relative(SRC, file)} imports ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('services/shared (redactor, duration formatter, async queue) is the bottom: it imports no other part of the app', () => {
    check('services/shared', (_spec, target) => !(target && !target.startsWith('services/shared/')));
  });

  it('finds the imports it checks (the scanner itself works)', () => {
    const app = imports(path.join(SRC, 'ui', 'App.tsx'));
    expect(app).toContain('ink');
    expect(app.some((spec) => spec.endsWith('state/selectors'))).toBe(true);
  });
});
