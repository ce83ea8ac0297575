// A node without WebAssembly (`--jitless`, often from NODE_OPTIONS) cannot lay out the screen or
// use fetch: the app says so in two lines and exits 2, instead of node's uncaught ReferenceError
// from inside a library.
import { describe, expect, it } from 'vitest';
import { requireWebAssembly } from '../../../src/cli/engine-check';
import { ConfigError } from '../../../src/services/config/errors';
import { runAish } from './run-headless';

describe('a node without WebAssembly', () => {
  it('is refused up front, naming --jitless and NODE_OPTIONS, before any model is asked', async () => {
    const run = await runAish(['-p', 'hello', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'scripted'], { env: { NODE_OPTIONS: '--jitless' } });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    const lines = run.stderr.split('\n').filter((line) => line.startsWith('aish-tui: '));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain('without WebAssembly');
    expect(lines[1]).toContain('NODE_OPTIONS');
    expect(run.stderr).not.toContain('ReferenceError');
    expect(run.stderr).not.toContain('cannot reach');
  });

  it('still answers --version, which needs neither', async () => {
    const run = await runAish(['--version'], { env: { NODE_OPTIONS: '--jitless' } });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^aish-tui \d+\.\d+\.\d+\n$/);
  });

  it('passes a node that has it', () => {
    expect(() => requireWebAssembly({ WebAssembly: globalThis.WebAssembly })).not.toThrow();
    expect(() => requireWebAssembly({})).toThrow(ConfigError);
  });
});
