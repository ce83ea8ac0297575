import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { tunedByUser, wasmTunedByUser } from '../../../src/cli/optimize-later';

// Importing the module sets when V8 optimizes for the whole worker, so this file
// runs in its own process (vitest.config.ts): the shared worker's other files keep V8's defaults.

const probe = fileURLToPath(new URL('../../helpers/optimize-later-probe.ts', import.meta.url));

function runProbe(kind: 'js' | 'yoga', rounds: number, options: { withModule: boolean; nodeFlags?: string[] }): string {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const trace = kind === 'js' ? '--trace-opt' : '--trace-wasm-compilation-times';
  const args = [...(options.nodeFlags ?? []), trace, '--import', 'tsx', probe, kind, String(rounds), ...(options.withModule ? ['--with-module'] : [])];
  const output = execFileSync(process.execPath, args, { env, encoding: 'utf8' });
  expect(output).toContain('total ');
  return output;
}

/** Whether V8 chose TurboFan for the probe's JavaScript function after `rounds` calls. */
const optimized = (rounds: number, options: { withModule: boolean; nodeFlags?: string[] }) =>
  /marking .*burstOfWork.* for optimization to TURBOFAN/.test(runProbe('js', rounds, options));

/**
 * How many of Yoga's functions V8 compiled with TurboFan. Each trace line names its module
 * (`0x…#<function>`); Yoga's is the module with the most functions compiled. Other modules
 * (the module loader's lexers) may have been optimized before the probe's module ran.
 */
function yogaFunctionsOptimized(rounds: number, options: { withModule: boolean; nodeFlags?: string[] }): number {
  const compiled = [...runProbe('yoga', rounds, options).matchAll(/Compiled function (0x[0-9a-f]+)#\d+ using (\w+)/g)];
  const perModule = new Map<string, number>();
  for (const [, module] of compiled) perModule.set(module!, (perModule.get(module!) ?? 0) + 1);
  const yoga = [...perModule].sort((a, b) => b[1] - a[1])[0]?.[0];
  expect(yoga).toBeDefined();
  return compiled.filter(([, module, tier]) => module === yoga && tier === 'TurboFan').length;
}

// V8's default budget optimizes the probe's function after about 100 calls; sixteen times the
// budget, after about 1,500.
describe('optimizing JavaScript later', () => {
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
});

describe('WebAssembly (Yoga) stays in the baseline compiler', () => {
  it('V8 optimizes Yoga by default under a few hundred layouts (the probe is hot enough)', () => {
    expect(yogaFunctionsOptimized(300, { withModule: false })).toBeGreaterThan(5);
  });

  it('no Yoga function is optimized once the module has run, however many layouts', () => {
    expect(yogaFunctionsOptimized(3000, { withModule: true })).toBe(0);
  });

  it('a WebAssembly setting the user gave node is kept', () => {
    expect(yogaFunctionsOptimized(300, { withModule: true, nodeFlags: ['--wasm-tier-up'] })).toBeGreaterThan(5);
  });
});

describe('the flags the user may give', () => {
  it('recognises the JavaScript tiering flags, in either spelling, and nothing else', () => {
    expect(tunedByUser(['--interrupt-budget=1000'], undefined)).toBe(true);
    expect(tunedByUser(['--interrupt_budget=1000'], undefined)).toBe(true);
    expect(tunedByUser(['--no-opt'], undefined)).toBe(true);
    expect(tunedByUser(['--turbofan'], undefined)).toBe(true);
    expect(tunedByUser([], '--jitless')).toBe(true);
    expect(tunedByUser(['--max-old-space-size=512', '--optimize-for-size', '--liftoff-only'], '--no-warnings')).toBe(false);
    expect(tunedByUser([], undefined)).toBe(false);
  });

  it('recognises the WebAssembly compiler flags, in either spelling, and nothing else', () => {
    expect(wasmTunedByUser(['--liftoff-only'], undefined)).toBe(true);
    expect(wasmTunedByUser(['--no-liftoff'], undefined)).toBe(true);
    expect(wasmTunedByUser(['--wasm_tier_up'], undefined)).toBe(true);
    expect(wasmTunedByUser(['--no-wasm-dynamic-tiering'], undefined)).toBe(true);
    expect(wasmTunedByUser(['--wasm-tiering-budget=100'], undefined)).toBe(true);
    expect(wasmTunedByUser([], '--jitless')).toBe(true);
    expect(wasmTunedByUser(['--interrupt-budget=1000', '--no-opt', '--max-old-space-size=512'], '--no-warnings')).toBe(false);
    expect(wasmTunedByUser([], undefined)).toBe(false);
  });
});
