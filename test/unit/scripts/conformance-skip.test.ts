import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const script = path.join(root, 'scripts', 'conformance.mjs');
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('npm test on a platform without a Node 22 build for the conformance runner', () => {
  it.skipIf(Number(process.versions.node.split('.')[0]) >= 22)(
    'reports the conformance suite as skipped, says why, and lets the tests run (exit 0)',
    () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'aish-conformance-skip-'));
      dirs.push(dir);
      // An npm whose install fails, as it does where npm has no node-<os>-<cpu> package.
      const failingNpm = path.join(dir, 'npm-cli.js');
      writeFileSync(failingNpm, "console.error('npm error 404 Not Found - node-plan9-mips'); process.exit(1);\n");
      const result = spawnSync(process.execPath, [script], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, npm_execpath: failingNpm, CONFORMANCE_NODE22_PREFIX: path.join(dir, 'prefix') },
        timeout: 60_000,
      });
      expect(result.status).toBe(0);
      expect(result.stdout).toMatch(/conformance: skipped: the conformance runner needs Node >= 22 \(this is v\d+/);
      expect(result.stdout).toContain(`for ${process.platform}/${process.arch}`);
    },
  );
});
