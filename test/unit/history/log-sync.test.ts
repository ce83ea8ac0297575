import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// fsync counted through the real call: each turn's end syncs what it wrote, and nothing is synced
// twice (a turn's end followed by close, as `-p` does when it exits).
const synced = vi.hoisted(() => ({ count: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return {
    ...actual,
    fsyncSync: (fd: number) => {
      synced.count++;
      actual.fsyncSync(fd);
    },
  };
});

const { createSessionLog } = await import('../../../src/services/history/log');
const noRedact = (text: string) => text;

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the session log syncs once per change', () => {
  it('a flush after writes syncs, a flush or close with nothing new does not, and what was written is all there', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'aish-log-sync-'));
    dirs.push(dir);
    const log = createSessionLog({ dir, redact: noRedact });
    log.flush();
    expect(synced.count).toBe(0);
    const at = new Date(0).toISOString();
    log.append({ id: 'u1', role: 'user', content: 'hi', at });
    log.append({ id: 'a1', role: 'assistant', content: 'hello', at });
    log.flush();
    expect(synced.count).toBe(1);
    log.flush();
    log.close();
    expect(synced.count).toBe(1);

    const again = createSessionLog({ dir, redact: noRedact, id: log.id });
    again.withdraw('u1');
    again.close();
    expect(synced.count).toBe(2);
    const lines = readFileSync(log.file, 'utf8').trim().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { type: string }).type)).toEqual(['session', 'message', 'message', 'withdrawn']);
  });
});
