import { describe, expect, it } from 'vitest';
import { estimateTokens, estimateTokensRemembered } from '../../src/services/context/estimate.js';

describe('estimateTokens', () => {
  it('counts nothing for empty text and grows with the text', () => {
    expect(estimateTokens('')).toBe(0);
    const short = estimateTokens('The quick brown fox');
    expect(short).toBeGreaterThanOrEqual(4);
    expect(estimateTokens('The quick brown fox jumps over the lazy dog')).toBeGreaterThan(short);
  });

  it('counts symbols and digit groups separately, as tokenizers split them', () => {
    expect(estimateTokens('{"a":1}')).toBe(7);
    expect(estimateTokens('123456')).toBe(2);
  });

  it('stays within a factor of two of about four characters per token on prose', () => {
    const prose = 'Tool definitions are sent with every request, so their size counts against the window. '.repeat(20);
    const estimate = estimateTokens(prose);
    expect(estimate).toBeGreaterThan(prose.length / 8);
    expect(estimate).toBeLessThan(prose.length / 2);
  });
});

describe('estimateTokensRemembered (a tool loop measures the same texts before every request)', () => {
  it('is the estimate, for a text seen again, for short and very long texts, and after older texts were let go', () => {
    const texts = ['', 'ok', 'The quick brown fox jumps over the lazy dog', '{"expression":"6*7+1"}', 'x'.repeat(2 * 1024 * 1024), 'ünïcödé ✓ 你好 '.repeat(50)];
    for (let round = 0; round < 3; round++) for (const text of texts) expect(estimateTokensRemembered(text)).toBe(estimateTokens(text));
    // More than the memo keeps (two generations of 8 M characters): the first texts are counted again, the same.
    for (let index = 0; index < 20; index++) {
      const text = `${index} ${'w'.repeat(900_000)}`;
      expect(estimateTokensRemembered(text)).toBe(estimateTokens(text));
    }
    for (const text of texts) expect(estimateTokensRemembered(text)).toBe(estimateTokens(text));
  });
});
