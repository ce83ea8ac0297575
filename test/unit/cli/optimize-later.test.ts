import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tunedByUser } from '../../../src/cli/optimize-later';

// Importing the module sets when V8 optimizes for the whole worker, so this file
// runs in its own process (vitest.config.ts): the shared worker's other files keep V8's defaults.

const probe = fileURLToPath(new URL('../../helpers/optimize-later-probe.ts', import.meta.url));

/** Whether V8 chose TurboFan for the probe's function after `rounds` calls. */
function optimized(rounds: number, options: { withModule: boolean; nodeFlags?: string[] }): boolean {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const args = [...(options.nodeFlags ?? []), '--trace-opt', '--import', 'tsx', probe, String(rounds), ...(options.withModule ? ['--with-module'] : [])];
  const output = execFileSync(process.execPath, args, { env, encoding: 'utf8' });
  expect(output).toContain('total ');
  return /marking .*burstOfWork.* for optimization to TURBOFAN/.test(output);
}

// V8's default budget optimizes the probe's function after about 100 calls; sixteen times the
// budget, after about 1,500.
describe('optimizing later', () => {
  it('a short burst of calls is optimized with V8 default budget (the probe is hot enough)', () => {
    expect(optimized(400, { withModule: false })).toBe(true);
  });

  it('the same burst is not optimized once the module has run', () => {
    expect(optimized(400, { withModule: true })).toBe(false);
  });

  it('a function that keeps running is still optimized', () => {
    expect(optimized(20_000, { withModule: true })).toBe(true);
  });

  it('a budget the user gave node is kept', () => {
    expect(optimized(400, { withModule: true, nodeFlags: ['--interrupt-budget=67584'] })).toBe(true);
  });

  it('recognises the flags that tune it, in either spelling, and nothing else', () => {
    expect(tunedByUser(['--interrupt-budget=1000'], undefined)).toBe(true);
    expect(tunedByUser(['--interrupt_budget=1000'], undefined)).toBe(true);
    expect(tunedByUser(['--no-opt'], undefined)).toBe(true);
    expect(tunedByUser(['--turbofan'], undefined)).toBe(true);
    expect(tunedByUser([], '--jitless')).toBe(true);
    expect(tunedByUser(['--max-old-space-size=512', '--optimize-for-size'], '--no-warnings')).toBe(false);
    expect(tunedByUser([], undefined)).toBe(false);
  });
});
