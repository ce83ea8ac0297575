import { describe, expect, it } from 'vitest';
import { errorMessageOf, readContent, readUsage } from '../../../src/services/broker/wire';

describe('error bodies', () => {
  it('shows the provider message from OpenRouter metadata.raw (the Bedrock tool-name 400)', () => {
    const body = {
      error: {
        code: 400,
        message: 'Provider returned error',
        metadata: { provider_name: 'Amazon Bedrock', raw: '{"message":"tools.0.custom.name: String should match pattern \'^[a-zA-Z0-9_-]{1,128}$\'"}' },
      },
    };
    expect(errorMessageOf(body)).toBe("Provider returned error (Amazon Bedrock): tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'");
  });

  it('keeps a raw provider message that is plain text', () => {
    expect(errorMessageOf({ error: { message: 'Provider returned error', metadata: { raw: 'quota exceeded' } } })).toBe('Provider returned error: quota exceeded');
  });

  it('reads LM Studio, OpenAI, vLLM and FastAPI shapes', () => {
    expect(errorMessageOf({ error: 'No models loaded. Please load a model in the developer page or use the `lms load` command.' })).toMatch(/^No models loaded/);
    expect(errorMessageOf({ error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } })).toBe('Incorrect API key provided');
    expect(errorMessageOf({ object: 'error', message: 'The model `x` does not exist.', type: 'NotFoundError', code: 404 })).toBe('The model `x` does not exist.');
    expect(errorMessageOf({ detail: [{ loc: ['body', 'stream_options'], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }] })).toBe(
      'body.stream_options: Extra inputs are not permitted',
    );
    expect(errorMessageOf({ detail: 'Not Found' })).toBe('Not Found');
    expect(errorMessageOf({ choices: [] })).toBeUndefined();
    expect(errorMessageOf('text')).toBeUndefined();
  });
});

describe('usage', () => {
  it('maps OpenAI usage and computes a missing total', () => {
    expect(readUsage({ prompt_tokens: 3, completion_tokens: 4, completion_tokens_details: { reasoning_tokens: 2 } })).toEqual({
      promptTokens: 3,
      completionTokens: 4,
      totalTokens: 7,
      reasoningTokens: 2,
    });
  });

  it('ignores null usage and usage without numbers', () => {
    expect(readUsage(null)).toBeUndefined();
    expect(readUsage({ prompt_tokens: null, cost: 'x' })).toBeUndefined();
  });
});

describe('content', () => {
  it('joins text parts and separates thinking parts', () => {
    expect(readContent([{ type: 'text', text: 'a' }, 'b', { type: 'thinking', thinking: [{ type: 'text', text: 't' }] }, { type: 'image_url' }])).toEqual({
      text: 'ab',
      reasoning: 't',
    });
    expect(readContent(null)).toEqual({ text: '', reasoning: '' });
  });
});
