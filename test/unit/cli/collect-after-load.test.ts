import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMPACT_WHEN_EMPTY_BYTES, COMPACT_WHEN_GROWN_BYTES, LONG_HISTORY_MESSAGES } from '../../../src/cli/collect-after-load';

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

// Once the servers the app started with have settled and the store has been quiet for a moment,
// a half-empty old generation is compacted (src/cli/collect-after-load.ts, compactWhenServersSettle).
const compactProbe = fileURLToPath(new URL('../../helpers/compact-after-servers-probe.ts', import.meta.url));

interface CompactRun {
  emptyBefore: number;
  emptyAfter: number;
  oldBefore: number;
  oldAfter: number;
  forced: number[];
  typingEnded: number;
}

function compactRun(which: 'burst' | 'uncollected' | 'late' | 'typing' | 'connecting' | 'calm'): CompactRun {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', compactProbe, which], { env, encoding: 'utf8' }).trim().split('\n').at(-1)!);
}

describe('compacting once the servers have settled', () => {
  it('gives the empty part of the old generation back once, after the servers settle', () => {
    const run = compactRun('burst');
    expect(run.emptyBefore).toBeGreaterThanOrEqual(COMPACT_WHEN_EMPTY_BYTES);
    expect(run.forced).toHaveLength(1);
    expect(run.forced[0]).toBeGreaterThanOrEqual(100);
    expect(run.emptyAfter).toBeLessThan(COMPACT_WHEN_EMPTY_BYTES);
    expect(run.oldAfter).toBeLessThan(run.oldBefore - COMPACT_WHEN_EMPTY_BYTES / 2);
  });

  it('compacts too when the old generation grew and its garbage is not collected yet, or was half empty before the watching began', () => {
    const uncollected = compactRun('uncollected');
    expect(uncollected.emptyBefore).toBeLessThan(COMPACT_WHEN_EMPTY_BYTES);
    expect(uncollected.forced).toHaveLength(1);
    expect(uncollected.oldAfter).toBeLessThan(uncollected.oldBefore - COMPACT_WHEN_GROWN_BYTES);
    const late = compactRun('late');
    expect(late.forced).toHaveLength(1);
    expect(late.emptyAfter).toBeLessThan(COMPACT_WHEN_EMPTY_BYTES);
  });

  it('waits while the store keeps changing (keys typed), and compacts once it is quiet', () => {
    const run = compactRun('typing');
    expect(run.forced).toHaveLength(1);
    expect(run.forced[0]).toBeGreaterThanOrEqual(run.typingEnded);
  });

  it('does nothing while a server is still connecting, nor when little of the old generation is empty', () => {
    expect(compactRun('connecting').forced).toEqual([]);
    const calm = compactRun('calm');
    expect(calm.emptyBefore).toBeLessThan(COMPACT_WHEN_EMPTY_BYTES);
    expect(calm.forced).toEqual([]);
  });
});
