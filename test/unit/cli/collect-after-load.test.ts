import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LONG_HISTORY_MESSAGES } from '../../../src/cli/collect-after-load';

// A long resumed session is collected once a moment after it loads (src/cli/collect-after-load.ts).
// Collecting turns on a V8 flag, so the probe runs in a child process (importing the module for its
// constant changes nothing).

const probe = fileURLToPath(new URL('../../helpers/collect-after-load-probe.ts', import.meta.url));

function run(messages: number): { scheduled: boolean; major: number; globalGc: string } {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', probe, String(messages)], { env, encoding: 'utf8' }).trim().split('\n').at(-1)!);
}

describe('collecting after a long session is loaded', () => {
  it('runs one full collection after a long history, none after a short one, and never exposes a global gc', () => {
    const long = run(LONG_HISTORY_MESSAGES);
    expect(long).toMatchObject({ scheduled: true, globalGc: 'undefined' });
    expect(long.major).toBeGreaterThanOrEqual(1);
    const short = run(LONG_HISTORY_MESSAGES - 1);
    expect(short).toMatchObject({ scheduled: false, major: 0, globalGc: 'undefined' });
  });
});
