import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRedactor, createResultKeeper, headBytes, writeTextFile } from '../../../src/services/history';

// Huge tool results (README "Safety"): memory and the session log keep limits.maxResultBytes.

const dir = () => path.join(mkdtempSync(path.join(os.tmpdir(), 'aish-results-')), 'sessions');
const call = { id: 'c1', name: 'fs__read/../../etc' };

describe('keeping huge tool results', () => {
  it('a result that fits is kept as it is, and nothing is written', () => {
    const keep = createResultKeeper({ dir: dir(), maxBytes: 1024, redact: () => (text) => text });
    expect(keep(call, 'x'.repeat(1024))).toBe('x'.repeat(1024));
  });

  it('a larger one keeps its head and names a 0600 side file holding all of it, secrets redacted', () => {
    const sessions = dir();
    const secret = 'sk-live-abcdefghijklmnop';
    const whole = `${'é'.repeat(3000)}${secret}${'z'.repeat(5000)}`;
    const keep = createResultKeeper({ dir: sessions, maxBytes: 4096, redact: () => createRedactor([secret]) });
    const kept = keep(call, whole);
    const [head, note] = kept.split('\n[aish] ');
    expect(Buffer.byteLength(head!, 'utf8')).toBeLessThanOrEqual(4096);
    expect(whole.startsWith(head!)).toBe(true);
    expect(head).not.toContain('\uFFFD');
    const file = /the whole result is in (\S+)$/.exec(note!)![1]!;
    // The tool's name cannot steer the path.
    expect(path.dirname(file)).toBe(path.join(sessions, 'results'));
    expect(path.basename(file)).toMatch(/^[0-9TZ]+-[0-9a-f]{6}-fs__read_______etc\.txt$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    const saved = readFileSync(file, 'utf8');
    expect(saved).not.toContain(secret);
    expect(saved.length).toBeGreaterThan(whole.length - secret.length);
  });

  it('with history off the rest is dropped and nothing is written', () => {
    const sessions = dir();
    const keep = createResultKeeper({ dir: sessions, maxBytes: 100, save: false, redact: () => (text) => text });
    expect(keep(call, 'y'.repeat(1000))).toMatch(/^y{100}\n\[aish\] this result was 1000 bytes; only the first 100 bytes are kept .*history is off/);
    expect(() => statSync(path.join(sessions, 'results'))).toThrow();
  });

  it('never cuts a character in two', () => {
    for (const text of ['😀'.repeat(100), 'aé😀'.repeat(100)]) {
      for (let max = 1; max < 40; max++) {
        const head = headBytes(text, max);
        expect(Buffer.byteLength(head, 'utf8')).toBeLessThanOrEqual(max);
        expect(text.startsWith(head)).toBe(true);
        expect(head).not.toMatch(/[\uD800-\uDBFF]$/);
      }
    }
  });
});

describe('writing a side file a slice at a time', () => {
  it('holds exactly the bytes of the whole text, also where a slice would end inside a surrogate pair', () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'aish-results-')), 'whole.txt');
    // Slices of 4 characters: the first pair starts at index 3, so a cut at 4 would split it.
    const text = `abc😀de😀😀fgh${'é'.repeat(9)}😀`;
    writeTextFile(file, text, 4);
    expect(readFileSync(file).equals(Buffer.from(text, 'utf8'))).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });
});

