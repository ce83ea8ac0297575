import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sizedByUser } from '../../../src/cli/young-generation';

// Importing the module holds the young generation at its size for the whole worker, so this file
// runs in its own process (vitest.config.ts): the shared worker's other files keep V8's defaults.

const probe = fileURLToPath(new URL('../../helpers/young-generation-probe.ts', import.meta.url));
const MB = 1024 * 1024;

function newSpaceBytes(args: string[], nodeOptions?: string): number {
  const env = { ...process.env, NODE_OPTIONS: nodeOptions };
  if (nodeOptions === undefined) delete env.NODE_OPTIONS;
  const output = execFileSync(process.execPath, ['--import', 'tsx', probe, ...args], { env, encoding: 'utf8' });
  return (JSON.parse(output) as { newSpaceBytes: number }).newSpaceBytes;
}

describe('the young generation', () => {
  it('grows past 4 MB under the probe allocation without the module (the probe exercises growth)', () => {
    expect(newSpaceBytes([])).toBeGreaterThan(4 * MB);
  });

  it('stays at its starting size once the module has run', () => {
    expect(newSpaceBytes(['--with-module'])).toBeLessThanOrEqual(4 * MB);
  });

  it('is left to grow when the user sized it through NODE_OPTIONS', () => {
    expect(newSpaceBytes(['--with-module'], '--max-semi-space-size=8')).toBeGreaterThan(4 * MB);
  });

  it('recognises the flags that size it, in either spelling, and nothing else', () => {
    expect(sizedByUser(['--max-semi-space-size=4'], undefined)).toBe(true);
    expect(sizedByUser(['--max_semi_space_size=4'], undefined)).toBe(true);
    expect(sizedByUser([], '--min-semi-space-size=2 --max-old-space-size=512')).toBe(true);
    expect(sizedByUser(['--semi-space-growth-factor=4'], undefined)).toBe(true);
    expect(sizedByUser(['--max-old-space-size=512', '--enable-source-maps'], '--no-warnings')).toBe(false);
    expect(sizedByUser([], undefined)).toBe(false);
  });
});
