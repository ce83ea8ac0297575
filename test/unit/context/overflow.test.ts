import { describe, expect, it } from 'vitest';
import { overflowInBody, overflowInText } from '../../../src/services/context/overflow';
import { overflowError, SERVER_KINDS, type ServerKind } from '../../helpers/context-servers';

const bodyOf = (kind: ServerKind) => {
  const reply = overflowError(kind, 4096, 5120, 512);
  if (reply.kind !== 'body') throw new Error('expected a body');
  return { status: reply.status, body: reply.body };
};

describe('recognising a length rejection', () => {
  for (const kind of SERVER_KINDS.filter((kind) => kind !== 'ollama')) {
    it(`${kind}: the real error body is an overflow, with the window it states`, () => {
      const { status, body } = bodyOf(kind);
      const overflow = overflowInBody(status, body);
      expect(overflow).toBeDefined();
      expect(overflow!.window).toBe(4096);
    });
  }

  it('llama.cpp: the structured fields give both numbers', () => {
    const { status, body } = bodyOf('llama.cpp');
    expect(overflowInBody(status, body)).toEqual({ window: 4096, promptTokens: 5120 });
  });

  it('LM Studio inside a stream and "n_keep >= n_ctx" are recognised from the text alone', () => {
    expect(overflowInText('Trying to keep the first 9000 tokens when context the overflows. However, the model is loaded with context length of only 4096 tokens')).toEqual({ window: 4096, promptTokens: 9000 });
    expect(overflowInText('Cannot truncate prompt with n_keep (15028) >= n_ctx (7424)')).toEqual({ window: 7424, promptTokens: 15028 });
  });

  it('OpenRouter: "This endpoint\'s maximum context length" is one too', () => {
    const message = "This endpoint's maximum context length is 131072 tokens. However, you requested about 138956 tokens (7884 of text input, 131072 in the output).";
    expect(overflowInBody(400, JSON.stringify({ error: { message, code: 400, metadata: { provider_name: null } } }))).toEqual({ window: 131072, promptTokens: 138956 });
  });

  it('other errors are not', () => {
    expect(overflowInBody(401, JSON.stringify({ error: { message: 'invalid api key' } }))).toBeUndefined();
    expect(overflowInBody(400, JSON.stringify({ error: { message: "Invalid 'tools[0].function.name'" } }))).toBeUndefined();
    expect(overflowInBody(429, 'This model\'s maximum context length is 10 tokens')).toBeUndefined();
    expect(overflowInText('connection refused')).toBeUndefined();
  });
});
