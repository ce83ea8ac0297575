import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeNonAscii } from '../../../scripts/ascii-output.mjs';

const DIST = path.resolve(import.meta.dirname, '..', '..', '..', 'dist');

describe('ASCII-only build output', () => {
  it('escapes characters outside ASCII, astral ones as their two code units, and leaves ASCII alone', () => {
    const escape = escapeNonAscii;
    expect(escape('/* server→client */ const a = "plain";')).toBe('/* server\\u2192client */ const a = "plain";');
    expect(escape('é😀')).toBe('\\u00e9\\ud83d\\ude00');
    expect(escape('tab\there ~')).toBe('tab\there ~');
    // What an escape means where it is not a comment: the same text.
    expect(JSON.parse(`"${escape('→ über 😀')}"`)).toBe('→ über 😀');
  });

  // `npm test` builds first; V8 keeps a chunk with one non-ASCII character as a two-byte string.
  it('leaves no non-ASCII character in any built chunk', () => {
    const files = readdirSync(DIST, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'));
    expect(files.length).toBeGreaterThan(10);
    const offending = files.filter((name) => /[^\x00-\x7f]/.test(readFileSync(path.join(DIST, name), 'utf8')));
    expect(offending).toEqual([]);
  });
});
