import { describe, expect, it } from 'vitest';
import { answerTokens } from '../../../bench/fixtures';
import { measureEstimateErrors } from '../../helpers/estimate-error';

// The count made before a request against the server's usage.prompt_tokens for it, on the bench's
// answer fixture (markdown, code, lists; 2,000 tokens cut into turns), with the built-in tools'
// definitions in every request. The numbers themselves are `npm run bench -- --only estimate`.
const fixture = answerTokens().join('');
const answer = (turn: number) => fixture.slice((turn - 1) * 900, turn * 900);

describe("the context estimate against the server's count", () => {
  it('estimated (a server without a tokenizer): calibrated after the first request, within 10%', async () => {
    const errors = await measureEstimateErrors({ kind: 'vllm', turns: 6, answer });
    expect(errors.requests.every((entry) => entry.estimated > 0 && entry.reported > 0)).toBe(true);
    expect(errors.later).toBeLessThan(0.1);
  });

  it("llama.cpp counting with /tokenize: within 3% once calibrated, and closer than the estimate on the first request", async () => {
    const counted = await measureEstimateErrors({ kind: 'llama.cpp', turns: 6, answer });
    const estimated = await measureEstimateErrors({ kind: 'llama.cpp', turns: 6, answer, tokenize: false });
    expect(counted.later).toBeLessThan(0.03);
    expect(counted.first).toBeLessThan(estimated.first);
  });
});
