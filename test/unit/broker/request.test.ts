import { describe, expect, it } from 'vitest';
import { describeModels } from '../../../src/services/broker/models';
import { buildBody, buildHeaders, chatCompletionsUrl, rejectsStreamOptions, resolveApiKey, secretsOf } from '../../../src/services/broker/request';
import type { BrokerRequest, ModelConfig } from '../../../src/services/broker/types';

const model: ModelConfig = { name: 'local', baseUrl: 'http://127.0.0.1:8080/v1/', model: 'qwen' };
const messages: BrokerRequest['messages'] = [{ role: 'user', content: 'hi' }];
const tool = { type: 'function' as const, function: { name: 'a__b', parameters: { type: 'object' } } };

describe('request body', () => {
  it('omits tools when there are none and sends them when there are', () => {
    expect(buildBody({ model, messages, tools: [] }, { includeUsage: false })).toEqual({ model: 'qwen', messages, stream: true });
    expect(buildBody({ model, messages }, { includeUsage: false })).not.toHaveProperty('tools');
    expect(buildBody({ model, messages, tools: [tool] }, { includeUsage: false }).tools).toEqual([tool]);
  });

  it('sends temperature, max_tokens and stream_options only when configured', () => {
    const body = buildBody({ model: { ...model, temperature: 0.2, maxTokens: 512 }, messages }, { includeUsage: true });
    expect(body).toMatchObject({ temperature: 0.2, max_tokens: 512, stream_options: { include_usage: true } });
    expect(buildBody({ model: { ...model, temperature: 0 }, messages }, { includeUsage: false }).temperature).toBe(0);
  });

  it('joins the URL with or without a trailing slash, keeping a query and dropping credentials', () => {
    expect(chatCompletionsUrl('http://h/v1/')).toBe('http://h/v1/chat/completions');
    expect(chatCompletionsUrl('http://h/v1')).toBe('http://h/v1/chat/completions');
    expect(chatCompletionsUrl('https://u:p@h/openai/v1?api-version=1')).toBe('https://h/openai/v1/chat/completions?api-version=1');
  });

  it('recognises a server rejecting stream_options', () => {
    expect(rejectsStreamOptions(400, 'Unrecognized request argument supplied: stream_options')).toBe(true);
    expect(rejectsStreamOptions(422, '{"detail":[{"loc":["body","stream_options"]}]}')).toBe(true);
    expect(rejectsStreamOptions(400, 'bad messages')).toBe(false);
    expect(rejectsStreamOptions(500, 'stream_options')).toBe(false);
  });
});

describe('API key', () => {
  it('prefers apiKey, else reads keyEnv from the given environment', () => {
    expect(resolveApiKey({ ...model, apiKey: 'direct-key', keyEnv: 'K' }, { K: 'env-key' })).toEqual({ key: 'direct-key' });
    expect(resolveApiKey({ ...model, keyEnv: 'K' }, { K: ' env-key ' })).toEqual({ key: 'env-key' });
    expect(resolveApiKey(model, {})).toEqual({ key: undefined });
  });

  it('reports a named but unset variable without guessing', () => {
    expect(resolveApiKey({ ...model, keyEnv: 'MISSING_KEY' }, {})).toEqual({ problem: 'model "local" takes its API key from $MISSING_KEY, which is not set' });
  });

  it('sends Bearer auth and lets configured headers override', () => {
    expect(buildHeaders(model, 'k-123456')).toMatchObject({ authorization: 'Bearer k-123456', accept: expect.stringContaining('text/event-stream') });
    expect(buildHeaders(model, undefined)).not.toHaveProperty('authorization');
    expect(buildHeaders({ ...model, headers: { authorization: 'Token xyz', 'X-Title': 'aish' } }, 'k')).toMatchObject({ authorization: 'Token xyz', 'X-Title': 'aish' });
  });

  it('treats the URL password and query values as secrets', () => {
    expect(secretsOf({ ...model, baseUrl: 'https://user:hunter22@h/v1?key=AIzaSecret123' }, undefined)).toEqual([
      'hunter22',
      'hunter22',
      'AIzaSecret123',
      Buffer.from('user:hunter22').toString('base64'),
    ]);
  });

  it('treats secret-looking header values as secrets', () => {
    expect(secretsOf({ ...model, headers: { 'X-Api-Key': 'hdr-secret', 'X-Title': 'aish', Authorization: 'Bearer tok-abcdef' } }, 'key-1')).toEqual([
      'key-1',
      'hdr-secret',
      'Bearer tok-abcdef',
      'tok-abcdef',
    ]);
  });
});

describe('describeModels', () => {
  it('lists name, model id, URL, whether a key is set and the current model — never the key', () => {
    const rows = describeModels(
      {
        local: model,
        cloud: { name: 'cloud', baseUrl: 'https://openrouter.ai/api/v1', model: 'openrouter/auto', keyEnv: 'OR_KEY' },
        fixed: { name: 'fixed', baseUrl: 'https://api.example.com/v1', model: 'm', apiKey: 'sk-very-secret' },
        unset: { name: 'unset', baseUrl: 'https://api.example.com/v1', model: 'm', keyEnv: 'NOT_SET' },
      },
      'cloud',
      { OR_KEY: 'sk-or-secret', NOT_SET: '  ' },
    );
    expect(rows).toEqual([
      { name: 'local', modelId: 'qwen', baseUrl: 'http://127.0.0.1:8080/v1/', keySet: false, current: false },
      { name: 'cloud', modelId: 'openrouter/auto', baseUrl: 'https://openrouter.ai/api/v1', keySet: true, keyEnv: 'OR_KEY', current: true },
      { name: 'fixed', modelId: 'm', baseUrl: 'https://api.example.com/v1', keySet: true, current: false },
      { name: 'unset', modelId: 'm', baseUrl: 'https://api.example.com/v1', keySet: false, keyEnv: 'NOT_SET', current: false },
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/secret/);
  });
});
