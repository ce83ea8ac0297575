import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Output from '../../../node_modules/ink/build/output';

// src/terminal/inkOutput.ts replaces `get` of Ink's private Output class (ink/build/output.js) and
// re-does its first steps by hand. That is safe only for the Ink it was written against, so Ink is
// pinned to one exact version in package.json and this test checks that the installed Ink still
// has the shape the row cache relies on. When it fails after an Ink update, do not just change the
// expectations: read node_modules/ink/build/output.js, bring segmentsByRow/fastGet in
// src/terminal/inkOutput.ts in line with it, check test/unit/render/ink-output.test.ts (byte for
// byte against Ink) passes, then update the pinned version here and in package.json.

const ROOT = path.resolve(import.meta.dirname, '..', '..', '..');
const PINNED = '6.8.0';
const WHAT_TO_DO =
  'src/terminal/inkOutput.ts patches Ink\'s private Output.get; read node_modules/ink/build/output.js, update segmentsByRow/fastGet ' +
  'to match, run test/unit/render/ink-output.test.ts, then update the pinned Ink version (package.json and this test)';

function json(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
}

describe("Ink's private Output, as src/terminal/inkOutput.ts patches it", () => {
  it('Ink is pinned to one exact version, and that version is installed', () => {
    const declared = (json(path.join(ROOT, 'package.json')).dependencies as Record<string, string>).ink;
    expect(declared, `package.json must pin ink exactly (no ^ or ~): ${WHAT_TO_DO}`).toBe(PINNED);
    const installed = json(path.join(ROOT, 'node_modules', 'ink', 'package.json')).version;
    expect(installed, `installed ink differs from the pinned one; run npm install: ${WHAT_TO_DO}`).toBe(PINNED);
  });

  it('has the methods the row cache replaces and calls, with the same arity', () => {
    expect(typeof Output, WHAT_TO_DO).toBe('function');
    const prototype = Output.prototype as unknown as Record<string, unknown>;
    const arity = Object.fromEntries(['get', 'write', 'clip', 'unclip'].map((name) => [name, typeof prototype[name] === 'function' ? (prototype[name] as () => unknown).length : 'missing']));
    expect(arity, `Output's methods changed: ${WHAT_TO_DO}`).toEqual({ get: 0, write: 4, clip: 1, unclip: 0 });
  });

  it('keeps the fields the row cache reads: width, height, operations and caches', () => {
    const output = new Output({ width: 7, height: 3 });
    const upper = (line: string) => line.toUpperCase();
    output.clip({ x1: 1, x2: 6, y1: undefined, y2: undefined });
    output.write(2, 1, 'ab\ncd', { transformers: [upper] });
    output.unclip();
    const fields = output as unknown as Record<string, unknown>;
    expect({ width: fields.width, height: fields.height }, WHAT_TO_DO).toEqual({ width: 7, height: 3 });
    // Exactly these operations with exactly these fields: a new kind or a new field is something
    // the row cache would ignore.
    expect(fields.operations, `Output.operations changed: ${WHAT_TO_DO}`).toStrictEqual([
      { type: 'clip', clip: { x1: 1, x2: 6, y1: undefined, y2: undefined } },
      { type: 'write', x: 2, y: 1, text: 'ab\ncd', transformers: [upper] },
      { type: 'unclip' },
    ]);
    const caches = fields.caches as { getStringWidth?: (text: string) => number; getWidestLine?: (text: string) => number };
    expect(typeof caches?.getStringWidth, `Output.caches.getStringWidth is gone: ${WHAT_TO_DO}`).toBe('function');
    expect(typeof caches?.getWidestLine, `Output.caches.getWidestLine is gone: ${WHAT_TO_DO}`).toBe('function');
    expect([caches.getStringWidth!('日本'), caches.getWidestLine!('a\nbcd')]).toEqual([4, 3]);
  });

  it("Ink's own get reads only those fields and handles only those operations", () => {
    // Read from the module itself (not Output.prototype.get, which the row cache may have replaced
    // in this worker) so the check is on what Ink ships.
    const source = readFileSync(path.join(ROOT, 'node_modules', 'ink', 'build', 'output.js'), 'utf8');
    // Comments left out: they mention fields too (`this.output`).
    const body = /\n {4}get\(\) \{([\s\S]*?)\n {4}\}\n/.exec(source)?.[1]?.replace(/\/\/.*$/gm, '');
    expect(body, `Output.get() not found in ink/build/output.js: ${WHAT_TO_DO}`).toBeDefined();
    const fieldsRead = [...new Set([...body!.matchAll(/this\.(\w+)/g)].map((match) => match[1]))].sort();
    expect(fieldsRead, `Output.get() reads other fields now: ${WHAT_TO_DO}`).toEqual(['caches', 'height', 'operations', 'width']);
    const kinds = [...new Set([...body!.matchAll(/operation\.type === '(\w+)'/g)].map((match) => match[1]))].sort();
    expect(kinds, `Output.get() handles other operations now: ${WHAT_TO_DO}`).toEqual(['clip', 'unclip', 'write']);
  });

  it('clips with the same slice-ansi module as the row cache', () => {
    // The row cache cuts clipped lines itself; a different slice-ansi than Ink's could cut differently.
    const fromInk = createRequire(path.join(ROOT, 'node_modules', 'ink', 'build', 'output.js')).resolve('slice-ansi');
    const fromApp = createRequire(path.join(ROOT, 'src', 'terminal', 'inkOutput.ts')).resolve('slice-ansi');
    expect(fromInk, `Ink and aish-tui resolve different slice-ansi copies (align the versions in package.json): ${WHAT_TO_DO}`).toBe(fromApp);
  });
});
