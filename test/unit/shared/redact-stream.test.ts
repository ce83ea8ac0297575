import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createStreamRedactor } from '../../../src/services/shared/redact-stream';
import { createRedactor } from '../../../src/services/shared/redact';

// A huge result is redacted a slice at a time on its way to the side file
// (src/services/shared/redact-stream.ts): the output must be what redacting it whole gives, wherever
// the slices are cut and wherever a secret or a credential shape falls.

const SECRETS = ['tok-4f9a2b7c1d', 'hunter2-passphrase', 'tok-4f9a'];

const piece = fc.oneof(
  fc.constantFrom(...SECRETS, 'Bearer ', 'Bearer\n', 'sk-', '\n', ' ', 'tok-', '😀'),
  fc.stringMatching(/^[A-Za-z0-9._~+/=-]{0,30}$/),
  fc.string({ maxLength: 20 }),
);

function streamed(text: string, sizes: number[], margin: number): string {
  const redact = createRedactor(SECRETS);
  let out = '';
  const stream = createStreamRedactor(redact, (slice) => (out += slice), margin);
  for (let start = 0, index = 0; start < text.length; index++) {
    const end = Math.min(text.length, start + sizes[index % sizes.length]!);
    stream.push(text.slice(start, end));
    start = end;
  }
  stream.end();
  return out;
}

describe('redacting a text that arrives in slices', () => {
  it('gives what redacting the whole text gives, however it is cut', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 5 }), (pieces, sizes) => {
        const text = pieces.join('');
        expect(streamed(text, sizes, 64)).toBe(createRedactor(SECRETS)(text));
      }),
      { numRuns: 300 },
    );
  });

  it('never cuts through a secret or a token where no line end is near', () => {
    // Secrets and tokens far shorter than the margin, as real ones are next to its 8 KiB.
    const word = fc.tuple(fc.oneof(fc.constantFrom(...SECRETS, 'Bearer ', 'sk-', 'tok-'), fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/)), fc.constantFrom(' ', ' ', '\t', ''));
    fc.assert(
      fc.property(fc.array(word, { minLength: 200, maxLength: 600 }), fc.array(fc.integer({ min: 1, max: 400 }), { minLength: 1, maxLength: 5 }), (words, sizes) => {
        const text = words.flat().join('');
        expect(streamed(text, sizes, 256)).toBe(createRedactor(SECRETS)(text));
      }),
      { numRuns: 300 },
    );
  });

  it('passes text on before the end, never cutting a surrogate pair', () => {
    const text = `${'😀'.repeat(5000)}tok-4f9a2b7c1d${'x'.repeat(3000)}`;
    const slices: string[] = [];
    const stream = createStreamRedactor(createRedactor(SECRETS), (slice) => slices.push(slice), 256);
    for (let at = 0; at < text.length; at += 333) stream.push(text.slice(at, at + 333));
    expect(slices.length).toBeGreaterThan(5);
    stream.end();
    for (const slice of slices) expect(slice).toBe(slice.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, ''));
    expect(slices.join('')).toBe(text.replace('tok-4f9a2b7c1d', '[redacted]'));
  });
});
