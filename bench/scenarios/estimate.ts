/**
 * The context estimate's error against reported usage (README.md, "Context"), on the bench's answer
 * fixture: a conversation through the real runtime against the context servers
 * (test/helpers/estimate-error.ts), the count made before each request against the server's
 * usage.prompt_tokens for it. Three ways of counting: llama.cpp's /tokenize, the same server with
 * /tokenize failing (the calibrated estimate), and a server without a tokenizer (vLLM). In process;
 * errors in percent of the server's count.
 */
import { measureEstimateErrors } from '../../test/helpers/estimate-error';
import { answerTokens } from '../fixtures';
import type { BenchContext } from '../lib/app';

export const ESTIMATE = 'context estimate vs reported prompt tokens (8 turns)';

const fixture = answerTokens().join('');
const answer = (turn: number) => fixture.slice((turn - 1) * 900, turn * 900);

export async function estimateScenario(ctx: BenchContext): Promise<void> {
  const ways = [
    { label: 'llama.cpp /tokenize', kind: 'llama.cpp' as const, tokenize: true },
    { label: 'llama.cpp, /tokenize failing', kind: 'llama.cpp' as const, tokenize: false },
    { label: 'vLLM (estimate)', kind: 'vllm' as const, tokenize: true },
  ];
  for (const way of ways) {
    ctx.log(`estimate: ${way.label}`);
    const errors = await measureEstimateErrors({ kind: way.kind, tokenize: way.tokenize, turns: 8, answer });
    ctx.results.add(ESTIMATE, `${way.label}: first request (uncalibrated)`, '%', errors.first * 100);
    ctx.results.add(ESTIMATE, `${way.label}: later requests (calibrated), mean`, '%', errors.later * 100);
  }
}
