import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadProjectDocs } from '../../../src/services/config/project-docs';
import { findProjectConfig, mergeConfigs, rememberTrust, trustStateOf } from '../../../src/services/config/project-trust';

// AGENTS.md in order and capped; the project config's trust and merge (README.md, "Project context").
const scratch: string[] = [];
afterEach(() => {
  for (const dir of scratch.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function repo(): { root: string; sub: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'aish-project-unit-'));
  scratch.push(root);
  const sub = path.join(root, 'a', 'b');
  mkdirSync(path.join(root, '.git'), { recursive: true });
  mkdirSync(sub, { recursive: true });
  return { root, sub };
}

describe('project docs', () => {
  it('reads AGENTS.md from the repository root down to the working directory, and cuts them together at the cap', () => {
    const { root, sub } = repo();
    writeFileSync(path.join(root, 'AGENTS.md'), 'R'.repeat(30));
    writeFileSync(path.join(root, 'a', 'AGENTS.md'), 'middle');
    writeFileSync(path.join(sub, 'AGENTS.md'), 'S'.repeat(30));
    const { docs, section } = loadProjectDocs(sub, 40);
    expect(docs.map((doc) => path.relative(root, doc.file))).toEqual(['AGENTS.md', path.join('a', 'AGENTS.md'), path.join('a', 'b', 'AGENTS.md')]);
    expect(docs.map((doc) => [doc.chars, doc.cut])).toEqual([[30, false], [6, false], [4, true]]);
    expect(section.indexOf('RRR')).toBeLessThan(section.indexOf('middle'));
    expect(section).toContain('[cut:');
  });

  it('outside a repository only the working directory counts', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aish-project-unit-'));
    scratch.push(dir);
    expect(loadProjectDocs(dir, 100).docs).toEqual([]);
  });
});

describe('project config', () => {
  it('is trusted with its fingerprint: a changed file is asked about again', () => {
    const { root, sub } = repo();
    const state = path.join(root, 'state');
    mkdirSync(path.join(root, '.aish'));
    writeFileSync(path.join(root, '.aish', 'config.json'), '{}');
    const found = findProjectConfig(sub)!;
    expect(found.dir).toBe(root);
    expect(trustStateOf(state, found)).toBe('unknown');
    rememberTrust(state, found);
    expect(trustStateOf(state, findProjectConfig(sub)!)).toBe('trusted');
    writeFileSync(path.join(root, '.aish', 'config.json'), '{"builtin": false}');
    expect(trustStateOf(state, findProjectConfig(sub)!)).toBe('changed');
  });

  it("merges over the user's: sections key by key, one model or server replaced whole", () => {
    const user = { models: { a: { baseUrl: 'http://a', model: 'a', vision: true } }, mcp: { servers: { s: { command: 'x' } }, toolTimeoutMs: 5 }, shell: { enabled: true } };
    const project = { models: { a: { baseUrl: 'http://b', model: 'b' } }, mcp: { servers: { s: { url: 'http://s' }, t: { command: 'y' } } }, ['__proto__']: { polluted: true } };
    expect(mergeConfigs(user, JSON.parse(JSON.stringify(project)))).toEqual({
      models: { a: { baseUrl: 'http://b', model: 'b' } },
      mcp: { servers: { s: { url: 'http://s' }, t: { command: 'y' } }, toolTimeoutMs: 5 },
      shell: { enabled: true },
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
