import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/services/context/estimate.js';

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
